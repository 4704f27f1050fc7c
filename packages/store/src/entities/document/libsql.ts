// Documents and their extractions. A tool write is one UPDATE (json_set/json_remove
// on the path for one field) plus, in the same transaction, the history row that records it:
// the INSERT only happens `WHERE changes() > 0`, so a write that changed nothing leaves no
// history, and a history row never exists without its change.
import type { InStatement, InValue, Row } from '@libsql/client';
import type { FieldPathSegment } from '@tandem/contracts';
import { assertFieldPath, splitParent, sqlitePath } from '../../field-paths';
import {
  newDocumentExtractionRecord,
  newDocumentRecord,
  type DocumentExtraction,
  type DocumentExtractionRepository,
  type DocumentRecord,
  type DocumentRepository,
  type DocumentSummary,
  type ExtractionWrite,
  type WriteRecord,
} from './record';
import { clampLimit, decodeCursor, encodeCursor, nowIso } from '../../shared';
import type { SqlClient } from '../../libsql/native-client';
import { firstRow, json, num, str, strOrNull, toJson } from '../../libsql/sql';

const toSummary = (row: Row): DocumentSummary => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  userId: str(row, 'user_id'),
  fileName: str(row, 'file_name'),
  title: str(row, 'title'),
  mimeType: str(row, 'mime_type'),
  sizeBytes: num(row, 'size_bytes'),
  pageCount: num(row, 'page_count'),
  characters: num(row, 'characters'),
  warnings: json<string[]>(row, 'warnings'),
  status: str(row, 'status') as DocumentSummary['status'],
  error: strOrNull(row, 'error'),
  failureCode: strOrNull(row, 'failure_code'),
  createdAt: str(row, 'created_at'),
});

const toDocument = (row: Row): DocumentRecord => ({
  ...toSummary(row),
  pages: json<DocumentRecord['pages']>(row, 'pages'),
});

const SUMMARY_COLUMNS = `id, tenant_id, user_id, file_name, title, mime_type, size_bytes, page_count,
  characters, warnings, status, error, failure_code, created_at`;

/** `AND user_id = ?` when the caller names a user. */
function ownedBy(userId: string | undefined): { sql: string; args: InValue[] } {
  return userId === undefined ? { sql: '', args: [] } : { sql: ' AND user_id = ?', args: [userId] };
}

export function libsqlDocuments(client: SqlClient): DocumentRepository {
  return {
    async create(tenantId, input) {
      const doc = newDocumentRecord(tenantId, input, nowIso());
      await client.execute({
        sql: `INSERT INTO documents (id, tenant_id, user_id, file_name, title, mime_type,
                size_bytes, pages, page_count, characters, warnings, status, error, failure_code,
                created_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        args: [
          doc.id,
          doc.tenantId,
          doc.userId,
          doc.fileName,
          doc.title,
          doc.mimeType,
          doc.sizeBytes,
          toJson(doc.pages),
          doc.pageCount,
          doc.characters,
          toJson(doc.warnings),
          doc.status,
          doc.error,
          doc.failureCode,
          doc.createdAt,
        ],
      });
      return doc;
    },
    async get(tenantId, id, options = {}) {
      const owner = ownedBy(options.userId);
      const result = await client.execute({
        sql: `SELECT * FROM documents WHERE tenant_id = ? AND id = ?${owner.sql}`,
        args: [tenantId, id, ...owner.args],
      });
      const row = result.rows[0];
      return row ? toDocument(row) : null;
    },
    async list(tenantId, options = {}) {
      const owner = ownedBy(options.userId);
      const result = await client.execute({
        sql: `SELECT ${SUMMARY_COLUMNS} FROM documents WHERE tenant_id = ?${owner.sql}
              ORDER BY created_at DESC, id DESC LIMIT ?`,
        args: [tenantId, ...owner.args, clampLimit(options.limit, 50)],
      });
      return result.rows.map(toSummary);
    },
    async markReady(tenantId, id, input) {
      const pages = input.pages.map((page) => ({ number: page.number, text: page.text }));
      const result = await client.execute({
        sql: `UPDATE documents SET status = 'ready', error = NULL, failure_code = NULL, title = ?,
                mime_type = ?, pages = ?, page_count = ?, characters = ?, warnings = ?
              WHERE tenant_id = ? AND id = ? AND status = 'processing' RETURNING *`,
        args: [
          input.title,
          input.mimeType,
          toJson(pages),
          pages.length,
          pages.reduce((sum, page) => sum + page.text.length, 0),
          toJson(input.warnings),
          tenantId,
          id,
        ],
      });
      const row = result.rows[0];
      return row ? toDocument(row) : null;
    },
    async markFailed(tenantId, id, input) {
      const result = await client.execute({
        sql: `UPDATE documents SET status = 'failed', error = ?, failure_code = ?
              WHERE tenant_id = ? AND id = ? AND status = 'processing' RETURNING *`,
        args: [input.error, input.failureCode, tenantId, id],
      });
      const row = result.rows[0];
      return row ? toDocument(row) : null;
    },
    async reopen(tenantId, id) {
      const result = await client.execute({
        sql: `UPDATE documents SET status = 'processing', error = NULL, failure_code = NULL
              WHERE tenant_id = ? AND id = ? AND status = 'failed' RETURNING *`,
        args: [tenantId, id],
      });
      const row = result.rows[0];
      return row ? toDocument(row) : null;
    },
  };
}

const toExtraction = (row: Row): DocumentExtraction => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  userId: str(row, 'user_id'),
  documentId: str(row, 'document_id'),
  status: str(row, 'status') as DocumentExtraction['status'],
  documentType: strOrNull(row, 'document_type'),
  fields: json<Record<string, unknown>>(row, 'fields'),
  confidences: json<Record<string, unknown>>(row, 'confidences'),
  schema: json<Record<string, unknown> | null>(row, 'schema'),
  instructions: strOrNull(row, 'instructions'),
  costMicroUsd: num(row, 'cost_micro_usd'),
  tokens: num(row, 'tokens'),
  error: strOrNull(row, 'error'),
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
});

const toWrite = (row: Row): ExtractionWrite => ({
  tenantId: str(row, 'tenant_id'),
  extractionId: str(row, 'extraction_id'),
  seq: num(row, 'seq'),
  tool: str(row, 'tool'),
  input: json<unknown>(row, 'input'),
  createdAt: str(row, 'created_at'),
});

/** The history row of the statement before it, inserted only if that statement changed a row. */
function historyInsert(
  tenantId: string,
  extractionId: string,
  write: WriteRecord,
  now: string,
): InStatement {
  return {
    sql: `INSERT INTO document_extraction_writes (tenant_id, extraction_id, seq, tool, input,
            created_at)
          SELECT ?, ?, COALESCE((SELECT MAX(seq) FROM document_extraction_writes
                                 WHERE tenant_id = ? AND extraction_id = ?), 0) + 1, ?, ?, ?
          WHERE changes() > 0`,
    args: [tenantId, extractionId, tenantId, extractionId, write.tool, toJson(write.input), now],
  };
}

export function libsqlDocumentExtractions(client: SqlClient): DocumentExtractionRepository {
  /**
   * One guarded UPDATE … RETURNING * and its history row, in one write transaction. `set` and
   * `guard` are SQL fragments; their arguments come first, then the key.
   */
  async function write(
    tenantId: string,
    id: string,
    userId: string,
    change: { set: string; setArgs: InValue[]; guard?: string; guardArgs?: InValue[] },
    record: WriteRecord | null,
  ): Promise<DocumentExtraction | null> {
    const now = nowIso();
    const update: InStatement = {
      sql: `UPDATE document_extractions SET ${change.set}, updated_at = ?
            WHERE tenant_id = ? AND id = ? AND user_id = ?${change.guard ? ` AND ${change.guard}` : ''}
            RETURNING *`,
      args: [...change.setArgs, now, tenantId, id, userId, ...(change.guardArgs ?? [])],
    };
    const statements = record ? [update, historyInsert(tenantId, id, record, now)] : [update];
    const [result] = await client.batch(statements, 'write');
    const row = result?.rows[0];
    return row ? toExtraction(row) : null;
  }

  /** The guard that the path's parent can take the write (see the port's setField). */
  function parentGuard(path: FieldPathSegment[]): { guard: string; guardArgs: InValue[] } {
    const { parent, last } = splitParent(path);
    const parentPath = sqlitePath(parent);
    if (typeof last === 'string') {
      return { guard: `json_type(fields, ?) = 'object'`, guardArgs: [parentPath] };
    }
    return {
      guard: `json_type(fields, ?) = 'array' AND json_array_length(fields, ?) >= ?`,
      guardArgs: [parentPath, parentPath, last],
    };
  }

  return {
    async create(tenantId, input) {
      const x = newDocumentExtractionRecord(tenantId, input, nowIso());
      const result = await client.execute({
        sql: `INSERT INTO document_extractions (id, tenant_id, user_id, document_id, status,
                document_type, fields, confidences, schema, instructions, cost_micro_usd, tokens,
                error, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        args: [
          x.id,
          x.tenantId,
          x.userId,
          x.documentId,
          x.status,
          x.documentType,
          toJson(x.fields),
          toJson(x.confidences),
          toJson(x.schema),
          x.instructions,
          x.costMicroUsd,
          x.tokens,
          x.error,
          x.createdAt,
          x.updatedAt,
        ],
      });
      return toExtraction(firstRow(result.rows));
    },

    async get(tenantId, id, options = {}) {
      const owner = ownedBy(options.userId);
      const result = await client.execute({
        sql: `SELECT * FROM document_extractions WHERE tenant_id = ? AND id = ?${owner.sql}`,
        args: [tenantId, id, ...owner.args],
      });
      const row = result.rows[0];
      return row ? toExtraction(row) : null;
    },

    async list(tenantId, options = {}) {
      const where = ['tenant_id = ?'];
      const args: InValue[] = [tenantId];
      if (options.userId !== undefined) {
        where.push('user_id = ?');
        args.push(options.userId);
      }
      if (options.documentId !== undefined) {
        where.push('document_id = ?');
        args.push(options.documentId);
      }
      const after = options.cursor ? decodeCursor(options.cursor) : null;
      if (after && after.length === 2) {
        where.push('(created_at < ? OR (created_at = ? AND id < ?))');
        args.push(String(after[0]), String(after[0]), String(after[1]));
      }
      const limit = clampLimit(options.limit, 20);
      const result = await client.execute({
        sql: `SELECT * FROM document_extractions WHERE ${where.join(' AND ')}
              ORDER BY created_at DESC, id DESC LIMIT ?`,
        args: [...args, limit + 1],
      });
      const rows = result.rows.map(toExtraction);
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return {
        items,
        nextCursor: rows.length > limit && last ? encodeCursor([last.createdAt, last.id]) : null,
      };
    },

    setDocumentType: (tenantId, id, input) =>
      write(
        tenantId,
        id,
        input.userId,
        { set: 'document_type = ?', setArgs: [input.documentType] },
        input.write,
      ),

    replaceFields: (tenantId, id, input) =>
      write(
        tenantId,
        id,
        input.userId,
        {
          set: 'fields = json(?), confidences = json(?)',
          setArgs: [toJson(input.fields), toJson(input.confidences)],
        },
        input.write,
      ),

    async setField(tenantId, id, input) {
      assertFieldPath(input.path);
      const path = sqlitePath(input.path);
      return write(
        tenantId,
        id,
        input.userId,
        {
          set: 'fields = json_set(fields, ?, json(?)), confidences = json_set(confidences, ?, json(?))',
          setArgs: [path, toJson(input.value), path, toJson(input.confidence)],
          ...parentGuard(input.path),
        },
        input.write,
      );
    },

    async removeField(tenantId, id, input) {
      assertFieldPath(input.path);
      const path = sqlitePath(input.path);
      return write(
        tenantId,
        id,
        input.userId,
        {
          set: 'fields = json_remove(fields, ?), confidences = json_remove(confidences, ?)',
          setArgs: [path, path],
          // json_type is NULL only for a path that does not exist (a JSON null is 'null').
          guard: 'json_type(fields, ?) IS NOT NULL',
          guardArgs: [path],
        },
        input.write,
      );
    },

    complete: (tenantId, id, input) =>
      write(
        tenantId,
        id,
        input.userId,
        {
          set: "status = 'completed', error = NULL",
          setArgs: [],
          guard: "fields <> '{}'",
        },
        input.write,
      ),

    setStatus: (tenantId, id, input) =>
      write(
        tenantId,
        id,
        input.userId,
        input.status === undefined
          ? { set: 'error = ?', setArgs: [input.error] }
          : { set: 'status = ?, error = ?', setArgs: [input.status, input.error] },
        null,
      ),

    async addUsage(tenantId, id, usage) {
      await client.execute({
        sql: `UPDATE document_extractions
              SET cost_micro_usd = cost_micro_usd + ?, tokens = tokens + ?
              WHERE tenant_id = ? AND id = ?`,
        args: [Math.round(usage.costMicroUsd), Math.round(usage.tokens), tenantId, id],
      });
    },

    async listWrites(tenantId, id, options = {}) {
      const result = await client.execute({
        sql: `SELECT * FROM document_extraction_writes
              WHERE tenant_id = ? AND extraction_id = ? AND seq > ? ORDER BY seq`,
        args: [tenantId, id, Math.max(0, Math.floor(options.afterSeq ?? 0))],
      });
      return result.rows.map(toWrite);
    },
  };
}
