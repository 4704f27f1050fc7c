// The skill tables of the core schema (migration 1): shipped, so never edited; a change is a
// new migration.
export const SKILL_TABLES_V1: string[] = [
  `CREATE TABLE IF NOT EXISTS skills (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    domain TEXT NOT NULL,
    goal TEXT NOT NULL,
    failed_state TEXT NOT NULL,
    successful_action TEXT NOT NULL,
    failed_action_key TEXT NOT NULL,
    successful_action_key TEXT NOT NULL,
    success_count INTEGER NOT NULL,
    failure_count INTEGER NOT NULL,
    last_used TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS skills_dedupe ON skills (tenant_id, domain, goal, failed_action_key, successful_action_key)`,
  `CREATE INDEX IF NOT EXISTS skills_tenant_domain_used ON skills (tenant_id, domain, last_used)`,
  // deleteExpired is a cross-tenant sweep by age.
  `CREATE INDEX IF NOT EXISTS skills_last_used ON skills (last_used)`,
  // Per-tenant skill count kept by triggers, so the MAX_SKILLS_PER_TENANT check in upsert is
  // one primary-key read instead of a COUNT(*) that grows with the tenant (10,000 upserts
  // took ~9 s with the COUNT, ~2 s with this). A dedupe bump is an UPDATE and is not counted.
  `CREATE TABLE IF NOT EXISTS skill_counts (
    tenant_id TEXT PRIMARY KEY,
    n INTEGER NOT NULL
  )`,
  `CREATE TRIGGER IF NOT EXISTS skills_count_insert AFTER INSERT ON skills BEGIN
    INSERT OR IGNORE INTO skill_counts (tenant_id, n) VALUES (NEW.tenant_id, 0);
    UPDATE skill_counts SET n = n + 1 WHERE tenant_id = NEW.tenant_id;
  END`,
  `CREATE TRIGGER IF NOT EXISTS skills_count_delete AFTER DELETE ON skills BEGIN
    UPDATE skill_counts SET n = n - 1 WHERE tenant_id = OLD.tenant_id;
  END`,
];
