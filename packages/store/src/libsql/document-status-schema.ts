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
