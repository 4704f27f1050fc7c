// The stack tables: migration 6 (with the document tables), shipped, so never edited; a change
// is a new migration. stacks / stack_rows: several documents into one table, one row per
// (stack, document).
export const STACK_TABLES_V6: string[] = [
  `CREATE TABLE IF NOT EXISTS stacks (
      id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      name TEXT NOT NULL,
      document_ids TEXT NOT NULL,
      columns TEXT NOT NULL,
      status TEXT NOT NULL,
      instructions TEXT,
      cost_micro_usd INTEGER NOT NULL,
      tokens INTEGER NOT NULL,
      error TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
  `CREATE INDEX IF NOT EXISTS stacks_tenant_user_created ON stacks (tenant_id, user_id, created_at, id)`,
  `CREATE TABLE IF NOT EXISTS stack_rows (
      tenant_id TEXT NOT NULL,
      stack_id TEXT NOT NULL,
      document_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      cells TEXT NOT NULL,
      confidences TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (tenant_id, stack_id, document_id)
    )`,
];
