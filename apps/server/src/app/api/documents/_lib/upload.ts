// Files for document extraction: a multipart upload (POST /api/documents) or an inline base64
// one (POST /api/extractions). Both are read by the knowledge extractors, whose failures map to
// the same answers as a knowledge upload's.
import { DOCUMENT_LIMITS, type InlineUpload } from '@tandem/contracts';
import type { UploadedFile } from '@tandem/documents';
import { HttpError } from '../../../../server/http-error';
import { readMultipart } from '../../knowledge/_lib/multipart';

export async function multipartFile(request: Request): Promise<UploadedFile> {
  const { file } = await readMultipart(request, DOCUMENT_LIMITS.uploadBytes);
  if (!file) {
    throw new HttpError('BAD_REQUEST', 'The form has no `file` field with a file in it.');
  }
  return {
    bytes: file.bytes,
    // The upload's buffer is its own: the parse pool may take it instead of a copy.
    handOver: true,
    fileName: file.name || 'upload',
    ...(file.type ? { mimeType: file.type } : {}),
  };
}

export function inlineFile(upload: InlineUpload): UploadedFile {
  const bytes = new Uint8Array(Buffer.from(upload.dataBase64, 'base64'));
  if (bytes.byteLength > DOCUMENT_LIMITS.inlineUploadBytes) {
    throw new HttpError(
      'PAYLOAD_TOO_LARGE',
      `An inline upload may be at most ${DOCUMENT_LIMITS.inlineUploadBytes / 1024 / 1024} MB; upload bigger files with POST /api/documents.`,
    );
  }
  return {
    bytes,
    fileName: upload.fileName,
    ...(upload.contentType ? { mimeType: upload.contentType } : {}),
  };
}
