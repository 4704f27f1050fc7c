// Uploaded files waiting for the job that reads them (see UploadRepository in the port).
import type { Row } from '@libsql/client';
import { DuplicateKeyError, type StoredUpload, type UploadRepository } from '../port';
import { clampLimit, newId, nowIso } from '../shared';
import type { SqlClient } from './native-client';
import { isUniqueViolation, num, str, strOrNull } from './sql';

const META = 'tenant_id, id, file_name, mime_type, size_bytes, created_at';

const toUpload = (row: Row): StoredUpload => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  fileName: str(row, 'file_name'),
  mimeType: strOrNull(row, 'mime_type'),
  sizeBytes: num(row, 'size_bytes'),
  createdAt: str(row, 'created_at'),
});

/** The native binding answers a BLOB with a Buffer, @libsql/client with an ArrayBuffer. */
function toBytes(value: unknown): Uint8Array {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  throw new TypeError('uploads.bytes is not a BLOB');
}

export function libsqlUploads(client: SqlClient): UploadRepository {
  return {
    async put(tenantId, input) {
      const upload: StoredUpload = {
        id: input.id ?? newId(),
        tenantId,
        fileName: input.fileName,
        mimeType: input.mimeType ?? null,
        sizeBytes: input.bytes.byteLength,
        createdAt: nowIso(),
      };
      try {
        await client.execute({
          sql: `INSERT INTO uploads (${META}, bytes) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          args: [
            tenantId,
            upload.id,
            upload.fileName,
            upload.mimeType,
            upload.sizeBytes,
            upload.createdAt,
            Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength),
          ],
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateKeyError(`upload ${upload.id}`);
        throw error;
      }
      return upload;
    },

    async get(tenantId, id) {
      const result = await client.execute({
        sql: `SELECT ${META}, bytes FROM uploads WHERE tenant_id = ? AND id = ?`,
        args: [tenantId, id],
      });
      const row = result.rows[0];
      return row ? { ...toUpload(row), bytes: toBytes(row.bytes) } : null;
    },

    async delete(tenantId, id) {
      const result = await client.execute({
        sql: 'DELETE FROM uploads WHERE tenant_id = ? AND id = ?',
        args: [tenantId, id],
      });
      return result.rowsAffected > 0;
    },

    async listCreatedBefore(before, limit) {
      const result = await client.execute({
        sql: `SELECT ${META} FROM uploads WHERE created_at < ? ORDER BY created_at, id LIMIT ?`,
        args: [before, clampLimit(limit, 100)],
      });
      return result.rows.map(toUpload);
    },
  };
}
