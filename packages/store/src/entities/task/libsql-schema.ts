// The task tables of the core schema (version 1, see libsql/migrations.ts): shipped, so never
// edited; a change is a new migration.
export const TASK_TABLES_V1: string[] = [
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
];
