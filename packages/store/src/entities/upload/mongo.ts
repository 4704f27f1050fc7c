// Uploaded files waiting for the job that reads them (see UploadRepository in the port), in
// GridFS's layout: a description in `uploads` and the bytes in ≤ 1 MB parts in `uploadChunks`
// (a MongoDB document holds at most 16 MB; uploads may be bigger). Every query names the tenant.
//
// The description is written first and says how many parts make the file: a reader finding
// fewer (the writer died midway, or a delete is under way) sees no file, and the sweep, which
// lists descriptions, finds such a file and deletes it whole.
import { DuplicateKeyError } from '../../port';
import { type StoredUpload, type UploadRepository } from './record';
import { clampLimit, newId, nowIso } from '../../shared';
import type { UploadDoc } from './mongo-schema';
import type { MongoModels } from '../../mongo/schemas';
import { iso, isMongoDuplicateKey, toDate } from '../../mongo/util';

/** Bytes per part: well under the 16 MB document limit, and a few round trips for 25 MB. */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;

const toUpload = (doc: UploadDoc): StoredUpload => ({
  id: doc.id,
  tenantId: doc.tenantId,
  fileName: doc.fileName,
  mimeType: doc.mimeType ?? null,
  sizeBytes: doc.sizeBytes,
  createdAt: iso(doc.createdAt),
});

export function mongoUploads({ uploads, uploadChunks }: MongoModels): UploadRepository {
  return {
    async put(tenantId, input) {
      const { bytes } = input;
      const doc: UploadDoc = {
        tenantId,
        id: input.id ?? newId(),
        fileName: input.fileName,
        mimeType: input.mimeType ?? null,
        sizeBytes: bytes.byteLength,
        chunks: Math.ceil(bytes.byteLength / UPLOAD_CHUNK_BYTES),
        createdAt: toDate(nowIso()),
      };
      try {
        await uploads.create(doc);
      } catch (error) {
        if (isMongoDuplicateKey(error)) throw new DuplicateKeyError(`upload ${doc.id}`);
        throw error;
      }
      const parts = Array.from({ length: doc.chunks }, (_, n) => ({
        tenantId,
        uploadId: doc.id,
        n,
        data: Buffer.from(
          bytes.buffer,
          bytes.byteOffset + n * UPLOAD_CHUNK_BYTES,
          Math.min(UPLOAD_CHUNK_BYTES, bytes.byteLength - n * UPLOAD_CHUNK_BYTES),
        ),
      }));
      try {
        // A few parts per round trip: one insertMany of 25 MB would pass the 48 MB message cap
        // with its overhead on some drivers, and gains nothing.
        for (let at = 0; at < parts.length; at += 4) {
          await uploadChunks.insertMany(parts.slice(at, at + 4), { ordered: true });
        }
      } catch (error) {
        await uploads.deleteOne({ tenantId, id: doc.id }).exec();
        await uploadChunks.deleteMany({ tenantId, uploadId: doc.id }).exec();
        throw error;
      }
      return toUpload(doc);
    },

    async get(tenantId, id) {
      const doc = await uploads.findOne({ tenantId, id }).lean().exec();
      if (!doc) return null;
      const parts = await uploadChunks
        .find({ tenantId, uploadId: id })
        .sort({ n: 1 })
        .lean()
        .exec();
      if (parts.length !== doc.chunks) return null;
      const bytes = new Uint8Array(doc.sizeBytes);
      let offset = 0;
      for (const part of parts) {
        // lean() gives a BSON Binary for a Buffer field: its bytes are the first `position`
        // of `buffer` (a Binary built for writing may hold spare room after them).
        const data = part.data as unknown as Buffer | { buffer: Uint8Array; position: number };
        const view = Buffer.isBuffer(data) ? data : data.buffer.subarray(0, data.position);
        bytes.set(view, offset);
        offset += view.byteLength;
      }
      if (offset !== doc.sizeBytes) return null;
      return { ...toUpload(doc), bytes };
    },

    async delete(tenantId, id) {
      const deleted = await uploads.deleteOne({ tenantId, id }).exec();
      await uploadChunks.deleteMany({ tenantId, uploadId: id }).exec();
      return deleted.deletedCount > 0;
    },

    async listCreatedBefore(before, limit) {
      const docs = await uploads
        .find({ createdAt: { $lt: toDate(before) } })
        .sort({ createdAt: 1, id: 1 })
        .limit(clampLimit(limit, 100))
        .lean()
        .exec();
      return docs.map(toUpload);
    },
  };
}
