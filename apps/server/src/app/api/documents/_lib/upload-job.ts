// POST /api/documents: one uploaded file for extraction, read by a job (server/document-uploads.ts).
// The request stores the file and the document (`processing`), waits for the job's end and
// answers as if it had read the file itself (201 with the document, the same 4xx for a bad
// file), or 202 with the document still `processing` when it takes longer than
// DOCUMENT_UPLOAD_WAIT_SECONDS.
import type { UploadDocumentAccepted, UploadDocumentResponse } from '@tandem/contracts';
import type { AuthContext } from '../../../../server/auth';
import { withStatus, type RouteResult } from '../../../../server/create-route';
import { HttpError } from '../../../../server/http-error';
import type { Runtime } from '../../../../server/runtime';
import { uploadFailure } from '../../../../server/upload-failure';
import { caller } from './access';
import { multipartFile } from './upload';
import { documentView } from './views';

export async function uploadDocument(
  request: Request,
  runtime: Runtime,
  auth: AuthContext,
): Promise<RouteResult<UploadDocumentResponse | UploadDocumentAccepted>> {
  const file = await multipartFile(request);
  // Refused before anything is stored, with the answer the reader would give.
  if (file.bytes.byteLength === 0) {
    throw new HttpError('BAD_REQUEST', `${file.fileName || 'The file'} is empty.`);
  }
  const uploads = runtime.documentUploads;
  const started = await uploads.start(caller(auth), file);
  const document =
    (await uploads.wait(
      auth.tenantId,
      started.id,
      runtime.env.DOCUMENT_UPLOAD_WAIT_SECONDS * 1000,
    )) ?? started;
  if (document.status === 'ready') return withStatus(201, { document: documentView(document) });
  if (document.status === 'failed') {
    throw uploadFailure(document, {
      what: `document ${document.id}`,
      path: `/api/documents/${document.id}/retry`,
    });
  }
  const links = { document: `/api/documents/${document.id}` };
  return withStatus(202, { document: documentView(document), links }, { location: links.document });
}
