// The session and message tables of the core schema (migration 1): shipped, so never edited; a
// change is a new migration.
export const SESSION_TABLES_V1: string[] = [
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
];
