// Uploads through the real `POST /api/documents` route, for the route tests that need a stored
// document first (extractions, their retries and streams, the parse budgets).
import { UploadDocumentResponse, type DocumentView } from '@tandem/contracts';
import { INVOICE, renderPdf } from '@tandem/documents/testing';
import { expect } from 'vitest';
import { POST as uploadDocument } from '../app/api/documents/route';
import type { Runtime } from '../server/runtime';

/** A multipart upload of one file as `key`; the route's response, whatever its status. */
export function uploadFile(
  runtime: Runtime,
  key: string,
  file: { bytes: Uint8Array | string; name: string; type: string },
): Promise<Response> {
  // Uploads are read by jobs, and a RUN_JOBS=false runtime runs none: the tests that use one are
  // about other jobs (extraction and stack runs), so it reads uploads itself (that queue only).
  if (!runtime.env.RUN_JOBS) runtime.documentUploads.serve();
  const form = new FormData();
  const body = typeof file.bytes === 'string' ? file.bytes : Buffer.from(file.bytes);
  form.set('file', new Blob([body], { type: file.type }), file.name);
  return uploadDocument.withRuntime(runtime)(
    new Request('http://127.0.0.1:3000/api/documents', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    }),
  );
}

/** Uploads one file and expects it stored (201); the stored document. */
export async function uploadStored(
  runtime: Runtime,
  key: string,
  file: { bytes: Uint8Array | string; name: string; type: string },
): Promise<DocumentView> {
  const res = await uploadFile(runtime, key, file);
  expect(res.status).toBe(201);
  return UploadDocumentResponse.parse(await res.json()).document;
}

/** Uploads the scripted models' invoice (extraction/testing's INVOICE, rendered as a PDF). */
export async function uploadInvoice(runtime: Runtime, key: string): Promise<DocumentView> {
  return uploadStored(runtime, key, {
    bytes: await renderPdf(INVOICE.layout),
    name: INVOICE.fileName,
    type: INVOICE.mimeType,
  });
}
