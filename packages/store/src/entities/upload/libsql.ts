// Uploaded files waiting for the job that reads them (see UploadRepository in the port). A file
// is stored in parts (migration 11, libsql-schema.ts): the upload's row first, with how many
// parts it has, then one statement per part, so no single statement holds the event loop for
// the whole file. A file with a part missing (its put failed midway) reads as absent.
import type { Row } from '@libsql/client';
import { DuplicateKeyError } from '../../port';
import { type StoredUpload, type UploadRepository } from './record';
import { clampLimit, newId, nowIso } from '../../shared';
import type { SqlClient } from '../../libsql/native-client';
import { isUniqueViolation, num, str, strOrNull } from '../../libsql/sql';

const META = 'tenant_id, id, file_name, mime_type, size_bytes, created_at, parts';

/** A part of a stored file: a millisecond or two of the event loop to write or read. */
export const UPLOAD_PART_BYTES = 1024 * 1024;

/**
 * Lets the event loop turn between two parts. The native binding runs a statement before its
 * promise is returned, so awaiting it alone never lets a waiting request in.
 */
const letOthersRun = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

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
  /** The parts one statement each (a big file's pages are freed a part at a time), then the row. */
  async function removeUpload(tenantId: string, id: string): Promise<boolean> {
    const parts = await client.execute({
      sql: 'SELECT n FROM upload_parts WHERE tenant_id = ? AND upload_id = ? ORDER BY n',
      args: [tenantId, id],
    });
    for (const part of parts.rows) {
      await letOthersRun();
      await client.execute({
        sql: 'DELETE FROM upload_parts WHERE tenant_id = ? AND upload_id = ? AND n = ?',
        args: [tenantId, id, num(part, 'n')],
      });
    }
    const result = await client.execute({
      sql: 'DELETE FROM uploads WHERE tenant_id = ? AND id = ?',
      args: [tenantId, id],
    });
    return result.rowsAffected > 0;
  }

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
      const { bytes } = input;
      const parts = Math.ceil(bytes.byteLength / UPLOAD_PART_BYTES);
      try {
        await client.execute({
          sql: `INSERT INTO uploads (${META}, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, X'')`,
          args: [
            tenantId,
            upload.id,
            upload.fileName,
            upload.mimeType,
            upload.sizeBytes,
            upload.createdAt,
            parts,
          ],
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateKeyError(`upload ${upload.id}`);
        throw error;
      }
      try {
        for (let n = 0; n < parts; n++) {
          await letOthersRun();
          const start = n * UPLOAD_PART_BYTES;
          const end = Math.min(start + UPLOAD_PART_BYTES, bytes.byteLength);
          await client.execute({
            sql: 'INSERT INTO upload_parts (tenant_id, upload_id, n, bytes) VALUES (?, ?, ?, ?)',
            args: [
              tenantId,
              upload.id,
              n,
              Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start),
            ],
          });
        }
      } catch (error) {
        await removeUpload(tenantId, upload.id).catch(() => false);
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
      if (!row) return null;
      const parts = row['parts'];
      // Stored before migration 11: the whole file in the row.
      if (parts === null || parts === undefined)
        return { ...toUpload(row), bytes: toBytes(row.bytes) };
      const bytes = new Uint8Array(num(row, 'size_bytes'));
      let offset = 0;
      for (let n = 0; n < Number(parts); n++) {
        await letOthersRun();
        const part = await client.execute({
          sql: 'SELECT bytes FROM upload_parts WHERE tenant_id = ? AND upload_id = ? AND n = ?',
          args: [tenantId, id, n],
        });
        const stored = part.rows[0];
        if (!stored) return null;
        const chunk = toBytes(stored.bytes);
        if (offset + chunk.byteLength > bytes.byteLength) return null;
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return offset === bytes.byteLength ? { ...toUpload(row), bytes } : null;
    },

    delete: removeUpload,

    async listCreatedBefore(before, limit) {
      const result = await client.execute({
        sql: `SELECT ${META} FROM uploads WHERE created_at < ? ORDER BY created_at, id LIMIT ?`,
        args: [before, clampLimit(limit, 100)],
      });
      return result.rows.map(toUpload);
    },
  };
}
