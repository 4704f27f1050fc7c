// Migration 9: uploaded files waiting for the job that reads them, and what an upload job of
// knowledge_jobs carries. Applied once by migrations.ts; never edit it once shipped — add a new
// migration instead.
//
// A file is one BLOB row: SQLite keeps up to 1 GB in one, and the uploads are at most tens of
// MB. created_at is ISO TEXT, as everywhere, so the sweep compares strings.
export const UPLOADS_MIGRATION: { name: string; statements: string[] } = {
  name: 'uploads',
  statements: [
    `CREATE TABLE IF NOT EXISTS uploads (
      tenant_id TEXT NOT NULL,
      id TEXT NOT NULL,
      file_name TEXT NOT NULL,
      mime_type TEXT,
      size_bytes INTEGER NOT NULL,
      bytes BLOB NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`,
    // listCreatedBefore: the sweep of uploads left behind, across tenants, oldest first.
    `CREATE INDEX IF NOT EXISTS uploads_created ON uploads (created_at, id)`,
    // An upload job's file and outcome (JSON); NULL for crawls.
    `ALTER TABLE knowledge_jobs ADD COLUMN upload TEXT`,
  ],
};
