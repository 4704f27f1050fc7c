// The collected items table of the core schema (migration 1): shipped, so never edited; a
// change is a new migration.
export const COLLECTED_ITEM_TABLES_V1: string[] = [
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
];
