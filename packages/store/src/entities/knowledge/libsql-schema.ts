// The knowledge tables. Shipped migrations (libsql/migrations.ts applies them once): never edit
// one, add a new migration instead (the FTS scope one is in libsql-fts-scope.ts).

/** Core schema (migration 1). */
export const KNOWLEDGE_TABLES_V1: string[] = [
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
];

// Migration 4: knowledge search (FTS5 and per-dimension vector tables), per-tenant knowledge
// settings and crawl jobs. Applied once by migrations.ts; never edit it once shipped — add a
// new migration instead.
//
// Full-text search: `knowledge_chunks_fts` is an FTS5 *external-content* table over
// knowledge_chunks (rowid = the chunk's rowid), so the chunk text is stored once. Triggers keep
// it in sync rather than explicit writes in the repository, because:
//  - an external-content index must be told the exact old values to delete a row, which a
//    trigger has at hand (`old.content`) and repository code would have to read back first;
//  - a trigger runs inside the statement that changes the chunk, so every path that inserts or
//    deletes chunks (addChunks, deleteDocument, any future sweep) keeps the index in the same
//    transaction, with no chance of forgetting one.
// markSuperseded only changes superseded_by, which the index does not hold: searches join back
// to knowledge_chunks and filter there, so supersession costs no index write.
// heading_path is indexed as its stored JSON text: the tokenizer splits on the JSON
// punctuation, leaving exactly the heading words, and the column stays identical to the
// content table's (which the external-content 'delete' and 'rebuild' commands rely on).
// SQLite keeps rowids across VACUUM in practice; should they ever drift,
// `INSERT INTO knowledge_chunks_fts(knowledge_chunks_fts) VALUES('rebuild')` re-reads the table.
//
// Vectors are not here: their column type needs the dimension, which only the first write of an
// embedding model reveals. libsql-vectors.ts creates one table per dimension on first use.
export const KNOWLEDGE_SEARCH_MIGRATION: { name: string; statements: string[] } = {
  name: 'knowledge-search-settings-jobs',
  statements: [
    `CREATE VIRTUAL TABLE knowledge_chunks_fts USING fts5(
      content,
      heading_path,
      content = 'knowledge_chunks',
      content_rowid = 'rowid',
      tokenize = 'porter unicode61'
    )`,
    `CREATE TRIGGER knowledge_chunks_fts_insert AFTER INSERT ON knowledge_chunks BEGIN
      INSERT INTO knowledge_chunks_fts (rowid, content, heading_path)
        VALUES (new.rowid, new.content, new.heading_path);
    END`,
    `CREATE TRIGGER knowledge_chunks_fts_delete AFTER DELETE ON knowledge_chunks BEGIN
      INSERT INTO knowledge_chunks_fts (knowledge_chunks_fts, rowid, content, heading_path)
        VALUES ('delete', old.rowid, old.content, old.heading_path);
    END`,
    `CREATE TRIGGER knowledge_chunks_fts_update AFTER UPDATE OF content, heading_path
      ON knowledge_chunks BEGIN
      INSERT INTO knowledge_chunks_fts (knowledge_chunks_fts, rowid, content, heading_path)
        VALUES ('delete', old.rowid, old.content, old.heading_path);
      INSERT INTO knowledge_chunks_fts (rowid, content, heading_path)
        VALUES (new.rowid, new.content, new.heading_path);
    END`,
    // Chunks written before this migration.
    `INSERT INTO knowledge_chunks_fts (knowledge_chunks_fts) VALUES ('rebuild')`,

    // listDocuments({ sourceUrl }): re-ingesting a page finds its document.
    `CREATE INDEX IF NOT EXISTS knowledge_documents_tenant_source ON knowledge_documents (tenant_id, source_url)`,
    // countChunks / hasChunks read only current chunks.
    `CREATE INDEX IF NOT EXISTS knowledge_chunks_tenant_current ON knowledge_chunks (tenant_id, domain, document_id) WHERE superseded_by IS NULL`,

    `CREATE TABLE IF NOT EXISTS knowledge_settings (
      tenant_id TEXT PRIMARY KEY,
      allowed_domains TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,

    `CREATE TABLE IF NOT EXISTS knowledge_jobs (
      id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL,
      user_id TEXT,
      kind TEXT NOT NULL,
      url TEXT NOT NULL,
      strategy TEXT NOT NULL,
      max_pages INTEGER NOT NULL,
      max_depth INTEGER NOT NULL,
      domain TEXT NOT NULL,
      status TEXT NOT NULL,
      progress TEXT NOT NULL,
      frontier TEXT NOT NULL,
      visited TEXT NOT NULL,
      errors TEXT NOT NULL,
      error TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT
    )`,
    `CREATE INDEX IF NOT EXISTS knowledge_jobs_tenant_created ON knowledge_jobs (tenant_id, created_at, id)`,
    // listUnfinished is a cross-tenant sweep at start-up; finished jobs never enter the index.
    `CREATE INDEX IF NOT EXISTS knowledge_jobs_unfinished ON knowledge_jobs (created_at, id) WHERE status IN ('queued', 'running')`,
  ],
};
