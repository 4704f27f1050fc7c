// Knowledge documents and their chunks. Chunks copy the document's domain so RAG can read
// a domain's chunks from one index without joining documents.
import type { InValue, Row } from '@libsql/client';
import type { SqlClient } from './native-client';
import type { KnowledgeChunk, KnowledgeDocument, KnowledgeRepository } from '../port';
import { newKnowledgeChunkRecord, newKnowledgeDocumentRecord } from '../record-defaults';
import { nowIso } from '../shared';
import { buildSet, firstRow, json, num, str, strOrNull, toJson } from './sql';

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

export function libsqlKnowledge(client: SqlClient): KnowledgeRepository {
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
      await client.batch(
        records.map((c) => ({
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
        })),
        'write',
      );
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
  };
}
