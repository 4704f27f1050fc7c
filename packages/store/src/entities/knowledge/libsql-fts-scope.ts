// Migration 5: the full-text index carries each chunk's scope, and only current chunks.
//
// Measured at 100 000 chunks (bench/knowledge), migration 4's index answered a lexical search
// in 200 ms: it matched across every tenant, domain and superseded chunk, and the join back to
// knowledge_chunks read every matching row — embedding JSON included — to filter them before
// ranking. Now the filter is part of the MATCH: a `scope` column holds one token for the
// tenant and one for the domain, superseded chunks are removed from the index, and the search
// ranks inside FTS5 and reads only the top rows (see searchLexical in libsql.ts).
//
// The index is contentless (content='', contentless_delete=1): it stores no copy of the text,
// and rows are deleted by rowid, which the scope column (not a column of knowledge_chunks)
// needs. The triggers keep it in the statement that changes a chunk, as in migration 4.
//
// Scope tokens are the hex of the tenant id and of the domain with the vowels a and e mapped
// to k and m: a token with no vowel, no `s` and no `y` passes the porter stemmer unchanged, so
// no two tenants' tokens can ever stem to the same term.
const scopeOf = (row: 'new.' | '') =>
  `'t' || replace(replace(lower(hex(${row}tenant_id)), 'a', 'k'), 'e', 'm') || ' d' || ` +
  `replace(replace(lower(hex(${row}domain)), 'a', 'k'), 'e', 'm')`;

export const KNOWLEDGE_FTS_SCOPE_MIGRATION: { name: string; statements: string[] } = {
  name: 'knowledge-fts-scope',
  statements: [
    'DROP TRIGGER IF EXISTS knowledge_chunks_fts_insert',
    'DROP TRIGGER IF EXISTS knowledge_chunks_fts_delete',
    'DROP TRIGGER IF EXISTS knowledge_chunks_fts_update',
    'DROP TABLE IF EXISTS knowledge_chunks_fts',
    `CREATE VIRTUAL TABLE knowledge_chunks_fts USING fts5(
      content,
      heading_path,
      scope,
      content = '',
      contentless_delete = 1,
      tokenize = 'porter unicode61'
    )`,
    `CREATE TRIGGER knowledge_chunks_fts_insert AFTER INSERT ON knowledge_chunks
      WHEN new.superseded_by IS NULL BEGIN
      INSERT INTO knowledge_chunks_fts (rowid, content, heading_path, scope)
        VALUES (new.rowid, new.content, new.heading_path, ${scopeOf('new.')});
    END`,
    `CREATE TRIGGER knowledge_chunks_fts_delete AFTER DELETE ON knowledge_chunks BEGIN
      DELETE FROM knowledge_chunks_fts WHERE rowid = old.rowid;
    END`,
    // Superseding a chunk takes it out of the index; nothing else of a chunk changes today,
    // but an edit of its text or scope would be re-indexed the same way.
    `CREATE TRIGGER knowledge_chunks_fts_update
      AFTER UPDATE OF content, heading_path, superseded_by, tenant_id, domain ON knowledge_chunks
      BEGIN
      DELETE FROM knowledge_chunks_fts WHERE rowid = old.rowid;
      INSERT INTO knowledge_chunks_fts (rowid, content, heading_path, scope)
        SELECT new.rowid, new.content, new.heading_path, ${scopeOf('new.')}
        WHERE new.superseded_by IS NULL;
    END`,
    `INSERT INTO knowledge_chunks_fts (rowid, content, heading_path, scope)
      SELECT rowid, content, heading_path, ${scopeOf('')}
      FROM knowledge_chunks WHERE superseded_by IS NULL`,
  ],
};

/** The same token the triggers write, for a MATCH expression. */
export function scopeToken(kind: 't' | 'd', value: string): string {
  const hex = Buffer.from(value, 'utf8').toString('hex').replace(/a/g, 'k').replace(/e/g, 'm');
  return `${kind}${hex}`;
}
