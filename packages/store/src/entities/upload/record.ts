// Uploaded files waiting for the job that reads them (knowledge uploads, documents).

/** An uploaded file kept for the job that reads it, without its bytes. */
export interface StoredUpload {
  id: string;
  tenantId: string;
  fileName: string;
  mimeType: string | null;
  sizeBytes: number;
  createdAt: string;
}

export interface NewUpload {
  /** Default: a new id. Knowledge uploads use their job's id, so a job finds its file. */
  id?: string;
  fileName: string;
  mimeType?: string | null;
  bytes: Uint8Array;
}

/**
 * Uploaded files waiting for the background job that reads them: whichever process runs the job
 * (several, maybe on several machines, share only the store) reads the bytes from here. Kept
 * until the job is finished for good, then deleted; the sweep finds the ones left behind.
 * MongoDB keeps them in chunks (a document holds at most 16 MB; an upload may be bigger).
 */
export interface UploadRepository {
  /** Stores the file; an id already stored is a DuplicateKeyError. */
  put(tenantId: string, input: NewUpload): Promise<StoredUpload>;
  get(tenantId: string, id: string): Promise<(StoredUpload & { bytes: Uint8Array }) | null>;
  /** False when there was none (or it is another tenant's). */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** Every tenant's uploads stored before `before` (ISO), oldest first: the sweep's candidates. */
  listCreatedBefore(before: string, limit?: number): Promise<StoredUpload[]>;
}
