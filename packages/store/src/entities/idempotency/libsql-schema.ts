// The idempotency and rate-limit tables of the core schema (migration 1): shipped, so never
// edited; a change is a new migration.
export const IDEMPOTENCY_TABLES_V1: string[] = [
  `CREATE TABLE IF NOT EXISTS idempotency_keys (
    tenant_id TEXT NOT NULL,
    key TEXT NOT NULL,
    scope TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status TEXT NOT NULL,
    response TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (tenant_id, key)
  )`,
  `CREATE INDEX IF NOT EXISTS idempotency_keys_expires ON idempotency_keys (expires_at)`,

  `CREATE TABLE IF NOT EXISTS rate_limits (
    key TEXT PRIMARY KEY,
    consumed INTEGER NOT NULL,
    expires_at_ms INTEGER NOT NULL
  )`,
];
