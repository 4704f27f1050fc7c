// The upload collections. Every index the adapter relies on is declared here:
// createMongoStore's syncIndexes() drops the ones that are not.
import { SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import type { StoredUpload } from './record';

/**
 * An upload's description. Its bytes are in uploadChunks: a MongoDB document holds at most
 * 16 MB, and an upload may be bigger (GridFS's layout, tenant-scoped). `chunks` says how many
 * make the file, so a reader never takes a file whose writer died midway for a whole one.
 */
export type UploadDoc = MongoDoc<StoredUpload, 'createdAt'> & { chunks: number };

/** Part `n` (from 0) of upload `uploadId`. */
export interface UploadChunkDoc {
  tenantId: string;
  uploadId: string;
  n: number;
  data: Buffer;
}

export const uploadSchema = new Schema<UploadDoc>(
  {
    ...tenantOwned,
    fileName: String,
    mimeType: String,
    sizeBytes: Number,
    chunks: Number,
    createdAt: Date,
  },
  SCHEMA_OPTIONS,
);
uploadSchema.index({ tenantId: 1, id: 1 }, { unique: true });
// listCreatedBefore: the sweep of uploads left behind, across tenants, oldest first.
uploadSchema.index({ createdAt: 1, id: 1 });

export const uploadChunkSchema = new Schema<UploadChunkDoc>(
  {
    tenantId: { type: String, required: true },
    uploadId: String,
    n: Number,
    data: Buffer,
  },
  SCHEMA_OPTIONS,
);
// A file's parts in order; the unique key also keeps a part from being written twice.
uploadChunkSchema.index({ tenantId: 1, uploadId: 1, n: 1 }, { unique: true });
