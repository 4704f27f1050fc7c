// Version 1 of the core schema. Applied once by migrations.ts; never edit a shipped
// migration — add a new one instead.
//
// Conventions: times are ISO-8601 TEXT (UTC, ms), so they sort as text; JSON fields are TEXT
// written with JSON.stringify; every tenant-owned table leads its indexes with tenant_id so
// each lookup the port offers is a tenant-scoped index range.
export const CORE_SCHEMA_V1: string[] = [
  `CREATE TABLE IF NOT EXISTS tenants (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,

  `CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    prefix TEXT NOT NULL,
    key_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT
  )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS api_keys_key_hash ON api_keys (key_hash)`,
  `CREATE INDEX IF NOT EXISTS api_keys_tenant ON api_keys (tenant_id, created_at)`,

  `CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    status TEXT NOT NULL,
    url TEXT,
    title TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS sessions_tenant_user ON sessions (tenant_id, user_id, created_at, id)`,

  `CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    action_string TEXT,
    task_id TEXT,
    status TEXT,
    error TEXT,
    dom_summary TEXT,
    created_at TEXT NOT NULL
  )`,
  // Unique so two racing appends can never share a seq (the loser fails instead of interleaving).
  `CREATE UNIQUE INDEX IF NOT EXISTS messages_session_seq ON messages (tenant_id, session_id, seq)`,

  `CREATE TABLE IF NOT EXISTS tasks (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT,
    url TEXT NOT NULL,
    query TEXT NOT NULL,
    status TEXT NOT NULL,
    complexity TEXT,
    plan TEXT,
    hierarchical_plan TEXT,
    current_step_index INTEGER NOT NULL,
    corrections TEXT NOT NULL,
    metrics TEXT NOT NULL,
    last_chain TEXT,
    web_search_result TEXT,
    result TEXT,
    collect_limit INTEGER,
    consecutive_failures INTEGER NOT NULL,
    consecutive_success_without_task_complete INTEGER NOT NULL,
    version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS tasks_tenant_created ON tasks (tenant_id, created_at, id)`,
  `CREATE INDEX IF NOT EXISTS tasks_tenant_user ON tasks (tenant_id, user_id, created_at, id)`,
  `CREATE INDEX IF NOT EXISTS tasks_tenant_session ON tasks (tenant_id, session_id, status, created_at)`,
  // expireStale scans active tasks by age.
  `CREATE INDEX IF NOT EXISTS tasks_tenant_status_updated ON tasks (tenant_id, status, updated_at)`,

  `CREATE TABLE IF NOT EXISTS task_actions (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    step_index INTEGER NOT NULL,
    thought TEXT NOT NULL,
    action TEXT NOT NULL,
    expected_outcome TEXT,
    before_state TEXT,
    verification TEXT,
    status TEXT NOT NULL,
    metrics TEXT,
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS task_actions_tenant_task ON task_actions (tenant_id, task_id, step_index, created_at)`,

  `CREATE TABLE IF NOT EXISTS token_usage (
    id TEXT NOT NULL,
    tenant_id TEXT NOT NULL,
    user_id TEXT,
    session_id TEXT,
    message_id TEXT,
    task_id TEXT,
    trace_id TEXT,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    action_type TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cached_input_tokens INTEGER NOT NULL,
    thinking_tokens INTEGER NOT NULL,
    total_tokens INTEGER NOT NULL,
    cost_micro_usd INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    timestamp TEXT NOT NULL
  )`,
  // The generation id makes append idempotent (a retried log write is a no-op).
  `CREATE UNIQUE INDEX IF NOT EXISTS token_usage_id ON token_usage (id)`,
  `CREATE INDEX IF NOT EXISTS token_usage_tenant_time ON token_usage (tenant_id, timestamp)`,
  `CREATE INDEX IF NOT EXISTS token_usage_tenant_task ON token_usage (tenant_id, task_id, timestamp)`,

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

  `CREATE TABLE IF NOT EXISTS knowledge_documents (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    domain TEXT NOT NULL,
    source_url TEXT,
    title TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    status TEXT NOT NULL,
    metadata TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS knowledge_documents_tenant_domain ON knowledge_documents (tenant_id, domain, created_at)`,

  `CREATE TABLE IF NOT EXISTS knowledge_chunks (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    document_id TEXT NOT NULL,
    domain TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    content TEXT NOT NULL,
    heading_path TEXT NOT NULL,
    token_count INTEGER NOT NULL,
    embedding TEXT,
    phase TEXT,
    trigger_action TEXT,
    superseded_by TEXT,
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS knowledge_chunks_tenant_document ON knowledge_chunks (tenant_id, document_id, ordinal)`,
  `CREATE INDEX IF NOT EXISTS knowledge_chunks_tenant_domain ON knowledge_chunks (tenant_id, domain, document_id, ordinal)`,

  `CREATE TABLE IF NOT EXISTS extractions (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    task_id TEXT,
    url TEXT NOT NULL,
    schema TEXT NOT NULL,
    data TEXT,
    status TEXT NOT NULL,
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS extractions_tenant_created ON extractions (tenant_id, created_at, id)`,
  `CREATE INDEX IF NOT EXISTS extractions_tenant_task ON extractions (tenant_id, task_id, created_at, id)`,

  `CREATE TABLE IF NOT EXISTS extraction_strategies (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    domain TEXT NOT NULL,
    path_pattern TEXT NOT NULL,
    schema_hash TEXT NOT NULL,
    selectors TEXT NOT NULL,
    success_count INTEGER NOT NULL,
    failure_count INTEGER NOT NULL,
    last_used TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS extraction_strategies_key ON extraction_strategies (tenant_id, domain, path_pattern, schema_hash)`,

  `CREATE TABLE IF NOT EXISTS collected_items (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    type TEXT NOT NULL,
    unique_key TEXT NOT NULL,
    data TEXT NOT NULL,
    source_url TEXT,
    seq INTEGER NOT NULL,
    created_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS collected_items_key ON collected_items (tenant_id, task_id, type, unique_key)`,
  `CREATE UNIQUE INDEX IF NOT EXISTS collected_items_seq ON collected_items (tenant_id, task_id, seq)`,

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
