// Uploads: a file read into a document's text (OCR for scans), checked before it is read. Apart
// from the runs because it needs no model: the server's upload job reads files with it alone.
import { DOCUMENT_LIMITS } from '@tandem/contracts';
import type { DocumentRecord } from '@tandem/store';

import type {
  Caller,
  DocumentAgentDeps,
  DocumentRead,
  UploadedFile,
} from './document-agent-service';
import { DocumentError } from './document-error';

type UploadDeps = Pick<DocumentAgentDeps, 'store' | 'readDocument'>;

/** Reads a file's text (OCR for scans) and keeps it as the caller's document. */
export async function uploadDocument(
  deps: UploadDeps,
  caller: Caller,
  file: UploadedFile,
): Promise<DocumentRecord> {
  // Read before the bytes may be handed over to the parse pool.
  const sizeBytes = file.bytes.byteLength;
  const read = await readUpload(deps, caller, file);
  return deps.store.documents.create(caller.tenantId, {
    userId: caller.userId,
    fileName: file.fileName,
    sizeBytes,
    ...read,
  });
}

/**
 * Reads a file into a document's text, page by page, without storing it: the upload job
 * (which stores the document as `processing` first) and uploadDocument share it.
 */
export async function readUpload(
  deps: UploadDeps,
  caller: Caller,
  file: UploadedFile,
): Promise<DocumentRead> {
  const read = deps.readDocument;
  if (!read) throw new DocumentError('SERVICE_UNAVAILABLE', 'This server cannot read uploads.');
  if (file.bytes.byteLength === 0) {
    throw new DocumentError('BAD_REQUEST', `${file.fileName || 'The file'} is empty.`);
  }
  if (file.bytes.byteLength > DOCUMENT_LIMITS.uploadBytes) {
    throw new DocumentError(
      'PAYLOAD_TOO_LARGE',
      `${file.fileName} is larger than ${DOCUMENT_LIMITS.uploadBytes / 1024 / 1024} MB, the upload limit.`,
    );
  }
  const extracted = await read({ ...file, tenantId: caller.tenantId });
  const pages =
    extracted.pages && extracted.pages.length > 0
      ? extracted.pages
      : [{ number: 1, text: extracted.markdown }];
  return {
    title: extracted.title,
    mimeType: extracted.mimeType,
    pages,
    warnings: extracted.warnings,
  };
}
