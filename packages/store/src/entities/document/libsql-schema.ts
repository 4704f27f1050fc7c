// The document tables. Shipped migrations (libsql/migrations.ts applies them once): never edit
// one, add a new migration instead.

// Migration 6 (with the stack tables):
// - documents: an upload's text per page (JSON), read once at upload; lists read the other
//   columns only.
// - document_extractions: fields and confidences as JSON text, written by path with json_set /
//   json_remove so a correction touches one value in one statement.
// - document_extraction_writes: the append-only history, written in the same transaction as
//   the change it records.
export const DOCUMENT_TABLES_V6: string[] = [
  `CREATE TABLE IF NOT EXISTS documents (
      id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      file_name TEXT NOT NULL,
      title TEXT NOT NULL,
      mime_type TEXT NOT NULL,
      size_bytes INTEGER NOT NULL,
      pages TEXT NOT NULL,
      page_count INTEGER NOT NULL,
      characters INTEGER NOT NULL,
      warnings TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
  `CREATE INDEX IF NOT EXISTS documents_tenant_user_created ON documents (tenant_id, user_id, created_at, id)`,
  `CREATE INDEX IF NOT EXISTS documents_tenant_created ON documents (tenant_id, created_at, id)`,

  `CREATE TABLE IF NOT EXISTS document_extractions (
      id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      document_id TEXT NOT NULL,
      status TEXT NOT NULL,
      document_type TEXT,
      fields TEXT NOT NULL,
      confidences TEXT NOT NULL,
      schema TEXT,
      instructions TEXT,
      cost_micro_usd INTEGER NOT NULL,
      tokens INTEGER NOT NULL,
      error TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
  `CREATE INDEX IF NOT EXISTS document_extractions_tenant_created ON document_extractions (tenant_id, created_at, id)`,
  `CREATE INDEX IF NOT EXISTS document_extractions_tenant_user_created ON document_extractions (tenant_id, user_id, created_at, id)`,
  `CREATE INDEX IF NOT EXISTS document_extractions_tenant_document ON document_extractions (tenant_id, document_id, created_at, id)`,

  `CREATE TABLE IF NOT EXISTS document_extraction_writes (
      tenant_id TEXT NOT NULL,
      extraction_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      tool TEXT NOT NULL,
      input TEXT,
      created_at TEXT NOT NULL,
      PRIMARY KEY (tenant_id, extraction_id, seq)
    )`,
];

// Migration 10: an uploaded document is read by a job, and its own row is that job's record.
// Applied once by migrations.ts; never edit it once shipped — add a new migration instead.
//
// Documents stored before it were read at upload, so they are `ready`.
export const DOCUMENT_STATUS_MIGRATION: { name: string; statements: string[] } = {
  name: 'document-status',
  statements: [
    `ALTER TABLE documents ADD COLUMN status TEXT NOT NULL DEFAULT 'ready'`,
    `ALTER TABLE documents ADD COLUMN error TEXT`,
    `ALTER TABLE documents ADD COLUMN failure_code TEXT`,
  ],
};
