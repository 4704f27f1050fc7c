// POST /api/knowledge/ingest: one uploaded file into the tenant's knowledge, as a job. The file
// is stored and read by whichever process runs the job (server/knowledge-uploads.ts); the
// request waits for the job's end and answers as if it had read the file itself (201/200 with
// the document, the same 4xx for a bad file), or 202 with the job when it takes longer than
// KNOWLEDGE_INGEST_WAIT_SECONDS.
import {
  IngestFormFields,
  KNOWLEDGE_LIMITS,
  type IngestAccepted,
  type IngestResponse,
} from '@tandem/contracts';
import type { AuthContext } from '../../../../server/auth';
import { withStatus, type RouteResult } from '../../../../server/create-route';
import { HttpError, validationError } from '../../../../server/http-error';
import { jobView } from '../../../../server/knowledge-jobs';
import type { Runtime } from '../../../../server/runtime';
import { uploadFailure } from '../../../../server/upload-failure';
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
): Promise<RouteResult<IngestResponse | IngestAccepted>> {
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
  const { uploads } = runtime.knowledge;
  const started = await uploads.start(auth.tenantId, auth.userId, file, parsed.data);
  const job =
    (await uploads.wait(
      auth.tenantId,
      started.id,
      runtime.env.KNOWLEDGE_INGEST_WAIT_SECONDS * 1000,
    )) ?? started;
  const result = job.upload?.result;
  if (job.status === 'completed' && result) {
    const document = await runtime.store.knowledge.getDocument(auth.tenantId, result.documentId);
    // Deleted between the job's end and now: say so rather than describe a document gone.
    if (!document) throw new HttpError('NOT_FOUND', 'The stored document was deleted since.');
    const counts = await runtime.store.knowledge.countChunks(auth.tenantId);
    return withStatus(result.unchanged ? 200 : 201, {
      document: documentView(document, counts),
      chunksAdded: result.chunksAdded,
      chunksSuperseded: result.chunksSuperseded,
      unchanged: result.unchanged,
      embedded: result.embedded,
    });
  }
  if (job.status === 'failed') {
    throw uploadFailure(
      { failureCode: job.upload?.failureCode, error: job.error },
      { what: `its job ${job.id}`, path: `/api/knowledge/jobs/${job.id}/retry` },
    );
  }
  if (job.status === 'cancelled') {
    throw new HttpError('CONFLICT', 'The upload was cancelled before it was read.');
  }
  const links = {
    job: `/api/knowledge/jobs/${job.id}`,
    events: `/api/knowledge/jobs/${job.id}/events`,
  };
  return withStatus(202, { job: jobView(job), links }, { location: links.job });
}
