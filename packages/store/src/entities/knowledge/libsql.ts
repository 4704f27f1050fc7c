// Knowledge documents and their chunks. Chunks copy the document's domain so RAG can read
// a domain's chunks from one index without joining documents. Lexical search runs on the FTS5
// table of migration 4 (libsql-schema.ts), vector search on the per-dimension vector tables
// (libsql-vectors.ts).
import type { InStatement, InValue, Row } from '@libsql/client';
import { assertFiniteVector, ftsMatchExpression, isZeroVector, searchLimit } from './search';
import {
  defaultKnowledgeSettings,
  newKnowledgeChunkRecord,
  newKnowledgeDocumentRecord,
  type KnowledgeChunk,
  type KnowledgeDocument,
  type KnowledgeRepository,
  type KnowledgeSettings,
  type ScoredKnowledgeChunk,
} from './record';
import { nowIso } from '../../shared';
import { scopeToken } from './libsql-fts-scope';
import {
  assertDimensions,
  insertVectorStatement,
  vectorIndex,
  vectorTable,
  vectorTableExists,
  vectorTableStatements,
} from './libsql-vectors';
import type { SqlClient } from '../../libsql/native-client';
import {
  buildSet,
  firstRow,
  json,
  num,
  placeholders,
  str,
  strOrNull,
  toJson,
} from '../../libsql/sql';

/**
 * How many neighbours searchVector asks the ANN index for. The index is shared by every
 * tenant and domain, so the filters run after it: a generous k leaves enough of them.
 */
const annCandidates = (limit: number): number => Math.max(limit * 20, 200);

const toDocument = (row: Row): KnowledgeDocument => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  domain: str(row, 'domain'),
  sourceUrl: strOrNull(row, 'source_url'),
  title: str(row, 'title'),
  mimeType: str(row, 'mime_type'),
  status: str(row, 'status') as KnowledgeDocument['status'],
  metadata: json<Record<string, unknown> | null>(row, 'metadata') ?? {},
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
});

const toChunk = (row: Row): KnowledgeChunk => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  documentId: str(row, 'document_id'),
  domain: str(row, 'domain'),
  ordinal: num(row, 'ordinal'),
  content: str(row, 'content'),
  headingPath: json<string[] | null>(row, 'heading_path') ?? [],
  tokenCount: num(row, 'token_count'),
  embedding: json<number[] | null>(row, 'embedding'),
  phase: strOrNull(row, 'phase') as KnowledgeChunk['phase'],
  triggerAction: strOrNull(row, 'trigger_action'),
  supersededBy: strOrNull(row, 'superseded_by'),
  createdAt: str(row, 'created_at'),
});

const toSettings = (row: Row): KnowledgeSettings => ({
  tenantId: str(row, 'tenant_id'),
  allowedDomains: json<string[] | null>(row, 'allowed_domains') ?? [],
  updatedAt: str(row, 'updated_at'),
});

const scored = (row: Row, score: number): ScoredKnowledgeChunk => ({ chunk: toChunk(row), score });

/**
 * Every chunk column but the embedding: search results never carry it (see the port), since
 * reading and parsing 768 floats of JSON per result was a third of a lexical search.
 */
const SEARCH_COLUMNS = [
  'id',
  'tenant_id',
  'document_id',
  'domain',
  'ordinal',
  'content',
  'heading_path',
  'token_count',
  'phase',
  'trigger_action',
  'superseded_by',
  'created_at',
]
  .map((column) => `c.${column}`)
  .join(', ');

export function libsqlKnowledge(client: SqlClient): KnowledgeRepository {
  // Dimensions whose vector table this process has seen exist (tables are never dropped).
  const vectorTables = new Set<number>();
  const hasVectorTable = async (dimensions: number): Promise<boolean> => {
    if (vectorTables.has(dimensions)) return true;
    if (!(await vectorTableExists(client, dimensions))) return false;
    vectorTables.add(dimensions);
    return true;
  };

  const getDocument = async (tenantId: string, id: string): Promise<KnowledgeDocument | null> => {
    const result = await client.execute({
      sql: 'SELECT * FROM knowledge_documents WHERE tenant_id = ? AND id = ?',
      args: [tenantId, id],
    });
    const row = result.rows[0];
    return row ? toDocument(row) : null;
  };

  return {
    async createDocument(tenantId, input) {
      const document = newKnowledgeDocumentRecord(tenantId, input, nowIso());
      const result = await client.execute({
        sql: `INSERT INTO knowledge_documents (id, tenant_id, domain, source_url, title, mime_type,
                status, metadata, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        args: [
          document.id,
          document.tenantId,
          document.domain,
          document.sourceUrl,
          document.title,
          document.mimeType,
          document.status,
          toJson(document.metadata),
          document.createdAt,
          document.updatedAt,
        ],
      });
      return toDocument(firstRow(result.rows));
    },

    getDocument,

    async listDocuments(tenantId, options = {}) {
      const where = ['tenant_id = ?'];
      const args: InValue[] = [tenantId];
      if (options.domain !== undefined) {
        where.push('domain = ?');
        args.push(options.domain);
      }
      if (options.sourceUrl !== undefined) {
        where.push('source_url = ?');
        args.push(options.sourceUrl);
      }
      const result = await client.execute({
        sql: `SELECT * FROM knowledge_documents WHERE ${where.join(' AND ')}
              ORDER BY created_at, id`,
        args,
      });
      return result.rows.map(toDocument);
    },

    async updateDocument(tenantId, id, patch) {
      const { assignments, args } = buildSet(patch, {
        status: { column: 'status' },
        title: { column: 'title' },
        metadata: { column: 'metadata', encode: toJson },
      });
      const result = await client.execute({
        sql: `UPDATE knowledge_documents SET ${[...assignments, 'updated_at = ?'].join(', ')}
              WHERE tenant_id = ? AND id = ? RETURNING *`,
        args: [...args, nowIso(), tenantId, id],
      });
      const row = result.rows[0];
      return row ? toDocument(row) : null;
    },

    async deleteDocument(tenantId, id) {
      // One transaction, so a crash never leaves orphan chunks that RAG would still retrieve.
      // The chunks' FTS rows and vectors go with them (triggers, see libsql-schema.ts).
      const [, deleted] = await client.batch(
        [
          {
            sql: 'DELETE FROM knowledge_chunks WHERE tenant_id = ? AND document_id = ?',
            args: [tenantId, id],
          },
          {
            sql: 'DELETE FROM knowledge_documents WHERE tenant_id = ? AND id = ?',
            args: [tenantId, id],
          },
        ],
        'write',
      );
      return (deleted?.rowsAffected ?? 0) > 0;
    },

    async addChunks(tenantId, documentId, chunks) {
      const document = await getDocument(tenantId, documentId);
      if (document === null) throw new Error(`Knowledge document ${documentId} not found`);
      if (chunks.length === 0) return [];
      const now = nowIso();
      const records = chunks.map((chunk) =>
        newKnowledgeChunkRecord(tenantId, document, chunk, now),
      );
      // Checked before anything is written: a vector float32 cannot hold is refused whole.
      for (const c of records) {
        if (c.embedding === null || c.embedding.length === 0) continue;
        assertFiniteVector(c.embedding, 'Chunk embedding');
        assertDimensions(c.embedding.length);
      }
      const statements: InStatement[] = records.map((c) => ({
        sql: `INSERT INTO knowledge_chunks (id, tenant_id, document_id, domain, ordinal, content,
                heading_path, token_count, embedding, phase, trigger_action, superseded_by,
                created_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        args: [
          c.id,
          c.tenantId,
          c.documentId,
          c.domain,
          c.ordinal,
          c.content,
          toJson(c.headingPath),
          c.tokenCount,
          toJson(c.embedding),
          c.phase,
          c.triggerAction,
          c.supersededBy,
          c.createdAt,
        ],
      }));
      // The vectors in the same transaction as their chunks, after the table of a dimension
      // this process has not written yet is created (idempotently: another process may have).
      const created = new Set<number>();
      for (const c of records) {
        if (c.embedding === null || c.embedding.length === 0) continue;
        const dimensions = c.embedding.length;
        if (!vectorTables.has(dimensions) && !created.has(dimensions)) {
          statements.push(...vectorTableStatements(dimensions));
          created.add(dimensions);
        }
        statements.push(
          insertVectorStatement(dimensions, {
            chunkId: c.id,
            tenantId: c.tenantId,
            domain: c.domain,
            embedding: c.embedding,
          }),
        );
      }
      await client.batch(statements, 'write');
      for (const dimensions of created) vectorTables.add(dimensions);
      return records;
    },

    async listChunks(tenantId, options = {}) {
      const where = ['tenant_id = ?'];
      const args: InValue[] = [tenantId];
      if (options.documentId !== undefined) {
        where.push('document_id = ?');
        args.push(options.documentId);
      }
      if (typeof options.domain === 'string') {
        where.push('domain = ?');
        args.push(options.domain);
      } else if (options.domain !== undefined) {
        if (options.domain.length === 0) return [];
        // Placeholders rather than json_each: the (tenant_id, domain) index serves an IN list.
        where.push(`domain IN (${options.domain.map(() => '?').join(', ')})`);
        args.push(...options.domain);
      }
      if (options.includeSuperseded !== true) where.push('superseded_by IS NULL');
      const result = await client.execute({
        sql: `SELECT * FROM knowledge_chunks WHERE ${where.join(' AND ')}
              ORDER BY document_id, ordinal, rowid`,
        args,
      });
      return result.rows.map(toChunk);
    },

    async markSuperseded(tenantId, chunkIds, supersededBy) {
      if (chunkIds.length === 0) return 0;
      // One JSON parameter instead of N placeholders: no SQLite variable limit to hit.
      const result = await client.execute({
        sql: `UPDATE knowledge_chunks SET superseded_by = ?
              WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))`,
        args: [supersededBy, tenantId, JSON.stringify(chunkIds)],
      });
      return result.rowsAffected;
    },

    async searchLexical(tenantId, { domains, query, limit }) {
      const max = searchLimit(limit);
      const terms = ftsMatchExpression(query);
      if (terms === null || domains.length === 0 || max < 1) return [];
      // Tenant and domains are tokens of the index's scope column, and superseded chunks are
      // not in it (migration 5): FTS5 ranks only this tenant's current chunks and the join
      // reads just the top rows. The scope column weighs nothing in bm25.
      const scope = domains.map((d) => `"${scopeToken('d', d)}"`).join(' OR ');
      const match = `{content heading_path}: (${terms}) AND scope: "${scopeToken('t', tenantId)}" AND scope: (${scope})`;
      const result = await client.execute({
        sql: `SELECT ${SEARCH_COLUMNS}, top.score AS score
              FROM (
                SELECT rowid AS rid, -bm25(knowledge_chunks_fts, 1.0, 1.0, 0.0) AS score
                FROM knowledge_chunks_fts
                WHERE knowledge_chunks_fts MATCH ?
                ORDER BY score DESC
                LIMIT ?
              ) AS top
              JOIN knowledge_chunks c ON c.rowid = top.rid
              WHERE c.tenant_id = ? AND c.superseded_by IS NULL
              ORDER BY top.score DESC, c.id`,
        args: [match, max, tenantId],
      });
      return result.rows.map((row) => scored(row, num(row, 'score')));
    },

    async searchVector(tenantId, { domains, embedding, limit }) {
      const max = searchLimit(limit);
      if (embedding.length === 0 || domains.length === 0 || max < 1) return [];
      assertFiniteVector(embedding, 'Query embedding');
      const dimensions = embedding.length;
      assertDimensions(dimensions);
      if (isZeroVector(embedding) || !(await hasVectorTable(dimensions))) return [];
      const table = vectorTable(dimensions);
      const vector = JSON.stringify(embedding);
      const inDomains = placeholders(domains.length);
      // Zero stored vectors have no cosine (NULL distance) and are never a match.
      const rank = (candidates: string, args: InValue[]) =>
        client.execute({
          sql: `SELECT * FROM (
                  SELECT ${SEARCH_COLUMNS}, vector_distance_cos(v.embedding, vector32(?)) AS distance
                  FROM ${candidates}
                  JOIN knowledge_chunks c ON c.id = v.chunk_id
                  WHERE v.tenant_id = ? AND v.domain IN (${inDomains})
                    AND c.tenant_id = ? AND c.superseded_by IS NULL
                )
                WHERE distance IS NOT NULL
                ORDER BY distance, id
                LIMIT ?`,
          args: [vector, ...args, tenantId, ...domains, tenantId, max],
        });

      let result = await rank(
        `vector_top_k('${vectorIndex(dimensions)}', vector32(?), ?) AS k
         JOIN ${table} v ON v.rowid = k.id`,
        [vector, annCandidates(max)],
      );
      if (result.rows.length < max) {
        // Too few survived the filters: other tenants' or domains' vectors filled the ANN
        // result, or this tenant simply has fewer. The exact scan over this tenant's rows of
        // these domains is then the true answer (and small in the second case).
        result = await rank(`${table} v`, []);
      }
      return result.rows.map((row) => scored(row, 1 - num(row, 'distance')));
    },

    async hasChunks(tenantId, domains) {
      if (domains.length === 0) return false;
      const result = await client.execute({
        sql: `SELECT EXISTS (
                SELECT 1 FROM knowledge_chunks
                WHERE tenant_id = ? AND domain IN (${placeholders(domains.length)})
                  AND superseded_by IS NULL
              ) AS found`,
        args: [tenantId, ...domains],
      });
      return num(firstRow(result.rows), 'found') === 1;
    },

    async countChunks(tenantId) {
      const result = await client.execute({
        sql: `SELECT document_id, COUNT(*) AS chunks FROM knowledge_chunks
              WHERE tenant_id = ? AND superseded_by IS NULL
              GROUP BY document_id`,
        args: [tenantId],
      });
      const counts: Record<string, number> = {};
      for (const row of result.rows) counts[str(row, 'document_id')] = num(row, 'chunks');
      return counts;
    },

    async usage(tenantId) {
      // Only numeric sizes add up (Mongo's $sum skips anything else; so does this).
      const result = await client.execute({
        sql: `SELECT
                (SELECT COUNT(*) FROM knowledge_documents WHERE tenant_id = ?1) AS documents,
                (SELECT COUNT(*) FROM knowledge_chunks WHERE tenant_id = ?1) AS chunks,
                (SELECT COALESCE(SUM(json_extract(metadata, '$.sizeBytes')), 0)
                   FROM knowledge_documents
                   WHERE tenant_id = ?1
                     AND json_type(metadata, '$.sizeBytes') IN ('integer', 'real')) AS bytes`,
        args: [tenantId],
      });
      const row = firstRow(result.rows);
      return {
        documents: num(row, 'documents'),
        chunks: num(row, 'chunks'),
        bytes: num(row, 'bytes'),
      };
    },

    async getSettings(tenantId) {
      const result = await client.execute({
        sql: 'SELECT * FROM knowledge_settings WHERE tenant_id = ?',
        args: [tenantId],
      });
      const row = result.rows[0];
      return row ? toSettings(row) : defaultKnowledgeSettings(tenantId);
    },

    async updateSettings(tenantId, patch) {
      const result = await client.execute({
        sql: `INSERT INTO knowledge_settings (tenant_id, allowed_domains, updated_at)
              VALUES (?, ?, ?)
              ON CONFLICT (tenant_id) DO UPDATE SET
                allowed_domains = excluded.allowed_domains, updated_at = excluded.updated_at
              RETURNING *`,
        args: [tenantId, JSON.stringify(patch.allowedDomains), nowIso()],
      });
      return toSettings(firstRow(result.rows));
    },
  };
}
