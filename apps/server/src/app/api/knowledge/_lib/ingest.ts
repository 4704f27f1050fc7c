// POST /api/knowledge/ingest: one uploaded file into the tenant's knowledge.
import { IngestFormFields, KNOWLEDGE_LIMITS, type IngestResponse } from '@tandem/contracts';
import type { AuthContext } from '../../../../server/auth';
import { withStatus, type RouteResult } from '../../../../server/create-route';
import { HttpError, validationError } from '../../../../server/http-error';
import type { Runtime } from '../../../../server/runtime';
import { knowledgeErrors } from './errors';
import { readMultipart, type MultipartForm } from './multipart';
import { documentView } from './views';

const field = (form: MultipartForm, name: string): string | undefined => {
  const value = Object.hasOwn(form.fields, name) ? form.fields[name] : undefined;
  return value !== undefined && value.trim() !== '' ? value : undefined;
};

export async function ingestUpload(
  request: Request,
  runtime: Runtime,
  auth: AuthContext,
): Promise<RouteResult<IngestResponse>> {
  const form = await readMultipart(request, KNOWLEDGE_LIMITS.uploadBytes);
  const { file } = form;
  if (!file) {
    throw new HttpError('BAD_REQUEST', 'The form has no `file` field with a file in it.');
  }
  if (file.bytes.byteLength === 0) {
    throw new HttpError('BAD_REQUEST', `${file.name || 'The file'} is empty.`);
  }
  const parsed = IngestFormFields.safeParse({
    domain: field(form, 'domain'),
    title: field(form, 'title'),
    sourceUrl: field(form, 'sourceUrl'),
  });
  if (!parsed.success) throw validationError(parsed.error, 'body');
  const fields = parsed.data;
  const { bytes } = file;
  const stored = await knowledgeErrors(() =>
    runtime.knowledge.ingestion.ingestFile({
      tenantId: auth.tenantId,
      bytes,
      // The upload's buffer is its own: the parse pool may take it instead of a copy.
      handOver: true,
      fileName: file.name || 'upload',
      ...(file.type ? { mimeType: file.type } : {}),
      // A file from a site is that site's knowledge; anything else applies tenant-wide.
      domain: fields.domain ?? (fields.sourceUrl ? new URL(fields.sourceUrl).hostname : ''),
      ...(fields.title ? { title: fields.title } : {}),
      ...(fields.sourceUrl ? { sourceUrl: fields.sourceUrl } : {}),
    }),
  );
  const counts = await runtime.store.knowledge.countChunks(auth.tenantId);
  return withStatus(stored.unchanged ? 200 : 201, {
    document: documentView(stored.document, counts),
    chunksAdded: stored.chunksAdded,
    chunksSuperseded: stored.chunksSuperseded,
    unchanged: stored.unchanged,
    embedded: stored.embedded,
  });
}
