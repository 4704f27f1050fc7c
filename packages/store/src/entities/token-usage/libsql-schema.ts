// The token usage table of the core schema (migration 1): shipped, so never edited; a change is
// a new migration.
export const TOKEN_USAGE_TABLES_V1: string[] = [
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
];

/** Migration 12: a merged call's share billed under another action type names its call. */
export const TOKEN_USAGE_PARTS_MIGRATION = {
  name: 'token-usage-parts',
  statements: [`ALTER TABLE token_usage ADD COLUMN part_of TEXT`],
};
