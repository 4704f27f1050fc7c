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

// Migration 11: a file in parts of UPLOAD_PART_BYTES, one row each. One BLOB of tens of MB is
// written and read by one statement, and the native binding runs a statement on the event
// loop: a 22 MB file held every other request for 40-100 ms on each of its put and get. A
// part is a millisecond or two, and the loop turns between parts. `parts` on the upload says
// how many there are (NULL: an upload stored before, whole in `bytes`).
export const UPLOAD_PARTS_MIGRATION: { name: string; statements: string[] } = {
  name: 'upload-parts',
  statements: [
    `CREATE TABLE IF NOT EXISTS upload_parts (
      tenant_id TEXT NOT NULL,
      upload_id TEXT NOT NULL,
      n INTEGER NOT NULL,
      bytes BLOB NOT NULL,
      PRIMARY KEY (tenant_id, upload_id, n)
    )`,
    `ALTER TABLE uploads ADD COLUMN parts INTEGER`,
  ],
};
