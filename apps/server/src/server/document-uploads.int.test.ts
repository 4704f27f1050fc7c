// Document uploads (POST /api/documents) as jobs of the job port, through the real routes,
// runtimes and store: the route still answers 201 with the read document; a RUN_JOBS=false
// process stores it `processing` and answers 202, extractions of it are 409 until a worker on
// the same store has read it; an unreadable file is 400 as before, failed once with the reason
// and its file gone; a server-side failure keeps the file for a retry that reads it; another
// tenant sees none of it; a process that dies while reading a file is replaced and the document
// is read once. Redis too, where redis-server is installed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocumentAgentService, type ReadDocument } from '@tandem/documents';
import {
  DocumentList,
  ErrorResponse,
  UploadDocumentAccepted,
  UploadDocumentResponse,
  type DocumentView,
} from '@tandem/contracts';
import { INVOICE, renderPdf } from '@tandem/documents/testing';
import {
  createEmbeddedEventBus,
  createEmbeddedJobQueue,
  haltEmbeddedJobQueue,
  type JobQueue,
} from '@tandem/jobs';
import { freePort, redisServerInstalled, startRedisServer } from '@tandem/jobs/testing';
import { KnowledgeIngestion } from '@tandem/knowledge/ingestion';
import { createUnconfiguredLlmClient } from '@tandem/llm';
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as retryDocument } from '../app/api/documents/[documentId]/retry/route';
import { GET as getDocument } from '../app/api/documents/[documentId]/route';
import { GET as listDocuments, POST as uploadDocument } from '../app/api/documents/route';
import { POST as createExtraction } from '../app/api/extractions/route';
import { POST as createStack } from '../app/api/stacks/route';
import { request, tenantWithKey, testRuntime } from '../test/harness';
import { DOCUMENT_UPLOAD_QUEUE, DocumentUploadRunner } from './document-uploads';
import { createLogger } from './logger';
import type { Runtime } from './runtime';

const dir = mkdtempSync(path.join(tmpdir(), 'tandem-document-uploads-'));
let files = 0;
/** A fresh database file: the one thing several "processes" share. */
const sharedUrl = () => `file:${path.join(dir, `tandem-${(files += 1)}.db`)}`;

let invoicePdf: Uint8Array;
const invoice = () => ({ bytes: invoicePdf, name: INVOICE.fileName, type: INVOICE.mimeType });
const BROKEN_PDF = {
  bytes: '%PDF-1.7\nthis is not a PDF at all\n%%EOF',
  name: 'broken.pdf',
  type: 'application/pdf',
};

const opened: Array<{ close(): Promise<void> }> = [];
beforeAll(async () => {
  invoicePdf = await renderPdf(INVOICE.layout);
});
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// A model key, so that extractions get past "no model configured" to the document's state; no
// test here reaches a model call.
const MODEL = { GEMINI_API_KEY: 'fake-key-never-called', GEMINI_BASE_URL: 'http://127.0.0.1:9' };

async function runtimeOn(url: string, env: Record<string, string> = {}): Promise<Runtime> {
  const runtime = await testRuntime({ ...MODEL, ...env }, await createLibsqlStore({ url }));
  opened.push(runtime);
  return runtime;
}

const params = (documentId: string) => ({ params: Promise.resolve({ documentId }) });

async function documentOf(runtime: Runtime, key: string, id: string) {
  const res = await getDocument.withRuntime(runtime)(
    request(`/api/documents/${id}`, { key }),
    params(id),
  );
  const body: unknown = await res.json();
  return {
    status: res.status,
    document: res.status === 200 ? UploadDocumentResponse.parse(body).document : null,
  };
}

async function listed(runtime: Runtime, key: string): Promise<DocumentView[]> {
  const res = await listDocuments.withRuntime(runtime)(request('/api/documents', { key }));
  expect(res.status).toBe(200);
  return DocumentList.parse(await res.json()).documents;
}

const retry = (runtime: Runtime, key: string, id: string) =>
  retryDocument.withRuntime(runtime)(
    request(`/api/documents/${id}/retry`, { method: 'POST', key }),
    params(id),
  );

const startExtraction = (runtime: Runtime, key: string, documentId: string) =>
  createExtraction.withRuntime(runtime)(
    request('/api/extractions', { method: 'POST', key, body: { documentId } }),
  );

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('document uploads as jobs', () => {
  it('answers 201 with the read document, its pages, and deletes the file', async () => {
    const runtime = await runtimeOn(':memory:');
    const { key, tenantId } = await tenantWithKey(runtime.store);
    const res = await postDocument(runtime, key, invoice());
    expect(res.status).toBe(201);
    const { document } = UploadDocumentResponse.parse(await res.json());
    expect(document).toMatchObject({
      fileName: INVOICE.fileName,
      mimeType: 'application/pdf',
      status: 'ready',
      error: null,
      retryable: false,
    });
    expect(document.pageCount).toBeGreaterThan(0);
    expect(document.characters).toBeGreaterThan(0);
    const stored = await runtime.store.documents.get(tenantId, document.id);
    expect(stored?.pages.map((page) => page.text).join('\n')).toContain('INV-');
    expect(await runtime.store.uploads.get(tenantId, document.id)).toBeNull();
    expect(await runtime.jobs.state(tenantId, DOCUMENT_UPLOAD_QUEUE, document.id)).toMatchObject({
      status: 'completed',
      attempts: 1,
    });
    expect(await documentOf(runtime, key, document.id)).toEqual({ status: 200, document });
    expect(await listed(runtime, key)).toEqual([document]);
  });

  it('a RUN_JOBS=false process answers 202; a worker process reads it; extraction waits for it', async () => {
    const url = sharedUrl();
    const web = await runtimeOn(url, { RUN_JOBS: 'false', DOCUMENT_UPLOAD_WAIT_SECONDS: '1' });
    const { key, tenantId } = await tenantWithKey(web.store);
    const started = Date.now();
    const res = await postDocument(web, key, invoice());
    expect(res.status).toBe(202);
    expect(Date.now() - started).toBeLessThan(5_000);
    const accepted = UploadDocumentAccepted.parse(await res.json());
    const id = accepted.document.id;
    expect(accepted).toMatchObject({
      document: { status: 'processing', pageCount: 0, error: null, fileName: INVOICE.fileName },
      links: { document: `/api/documents/${id}` },
    });
    expect(res.headers.get('location')).toBe(`/api/documents/${id}`);
    expect(await listed(web, key)).toEqual([accepted.document]);
    expect((await web.store.uploads.get(tenantId, id))?.sizeBytes).toBe(invoicePdf.byteLength);

    // Not read yet: no extraction, no stack of it.
    const early = await startExtraction(web, key, id);
    expect(early.status).toBe(409);
    expect(ErrorResponse.parse(await early.json()).error.message).toMatch(/still being read/);
    const stack = await createStack.withRuntime(web)(
      request('/api/stacks', { method: 'POST', key, body: { documentIds: [id] } }),
    );
    expect(stack.status).toBe(409);

    // A worker process on the same store reads it.
    await runtimeOn(url, { RUN_JOBS: 'true' });
    const read = await until(
      () => documentOf(web, key, id),
      (found) => found.document?.status === 'ready',
    );
    expect(read.document).toMatchObject({ status: 'ready', error: null });
    expect(read.document?.pageCount).toBeGreaterThan(0);
    expect(await web.store.uploads.get(tenantId, id)).toBeNull();
  });

  it('answers 400 for an unreadable file, as before: failed once with the reason, file gone', async () => {
    const runtime = await runtimeOn(':memory:');
    const { key, tenantId } = await tenantWithKey(runtime.store);
    const res = await postDocument(runtime, key, BROKEN_PDF);
    expect(res.status).toBe(400);
    const answer = ErrorResponse.parse(await res.json()).error;
    expect(answer.code).toBe('BAD_REQUEST');

    const [failed] = await listed(runtime, key);
    expect(failed).toMatchObject({
      fileName: 'broken.pdf',
      status: 'failed',
      error: answer.message,
      retryable: false,
    });
    const id = failed?.id ?? '';
    // The request answers once the document is failed; the job ends (its file deleted, the
    // queue told) right after.
    await vi.waitFor(async () => {
      expect(await runtime.jobs.state(tenantId, DOCUMENT_UPLOAD_QUEUE, id)).toMatchObject({
        status: 'failed',
        attempts: 1,
      });
    });
    expect(await runtime.store.uploads.get(tenantId, id)).toBeNull();
    const retried = await retry(runtime, key, id);
    expect(retried.status).toBe(409);
    expect(ErrorResponse.parse(await retried.json()).error.message).toMatch(/Upload a readable/);
    const extraction = await startExtraction(runtime, key, id);
    expect(extraction.status).toBe(409);
    expect(ErrorResponse.parse(await extraction.json()).error.message).toMatch(/could not be read/);
  });

  it('retries a document that failed on the server side, from its stored file', async () => {
    const url = sharedUrl();
    // The web process runs no jobs; the only reader first is one that cannot read files (a
    // server-side failure: 503, retried, then failed with the file kept).
    const web = await runtimeOn(url, { RUN_JOBS: 'false', DOCUMENT_UPLOAD_WAIT_SECONDS: '30' });
    const { key, tenantId } = await tenantWithKey(web.store);
    const broken = await process(url);
    broken.uploads.serve();
    const res = await postDocument(web, key, invoice());
    expect(res.status).toBe(503);
    const answer = ErrorResponse.parse(await res.json()).error;
    expect(answer).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const [failed] = await listed(web, key);
    const id = failed?.id ?? '';
    expect(answer.message).toContain(`/api/documents/${id}/retry`);
    expect(failed).toMatchObject({ status: 'failed', retryable: true });
    // The attempts are the queuing process's (3), not the reader's.
    expect(failed?.error).toBe(
      'Reading the file stopped 3 times: This server cannot read uploads. It is kept for a retry.',
    );
    expect(await web.jobs.state(tenantId, DOCUMENT_UPLOAD_QUEUE, id)).toMatchObject({
      status: 'failed',
      attempts: 3,
    });
    expect(await web.store.uploads.get(tenantId, id)).not.toBeNull();
    await broken.close();

    // A process that can read files serves the queue now; Retry reads the stored file.
    await runtimeOn(url, { RUN_JOBS: 'true' });
    const retried = await retry(web, key, id);
    expect(retried.status).toBe(202);
    expect(UploadDocumentResponse.parse(await retried.json()).document).toMatchObject({
      id,
      status: 'processing',
      error: null,
    });
    const read = await until(
      () => documentOf(web, key, id),
      (found) => found.document?.status === 'ready',
    );
    expect(read.document).toMatchObject({ status: 'ready', error: null, retryable: false });
    expect(await web.store.uploads.get(tenantId, id)).toBeNull();
    // Read: nothing more to retry.
    expect((await retry(web, key, id)).status).toBe(409);
  });

  it('keeps a document and its file from another tenant and another user', async () => {
    const runtime = await runtimeOn(':memory:', {
      RUN_JOBS: 'false',
      DOCUMENT_UPLOAD_WAIT_SECONDS: '1',
    });
    const owner = await tenantWithKey(runtime.store);
    const other = await tenantWithKey(runtime.store);
    const res = await postDocument(runtime, owner.key, invoice());
    expect(res.status).toBe(202);
    const { document } = UploadDocumentAccepted.parse(await res.json());

    const { plaintextKey: colleague } = await runtime.store.apiKeys.create(owner.tenantId, {
      userId: 'user-2',
      name: 'colleague',
      role: 'user',
    });
    for (const key of [other.key, colleague]) {
      expect((await documentOf(runtime, key, document.id)).status).toBe(404);
      expect((await retry(runtime, key, document.id)).status).toBe(404);
      expect((await startExtraction(runtime, key, document.id)).status).toBe(404);
      expect(await listed(runtime, key)).toEqual([]);
    }
    expect(await runtime.store.uploads.get(other.tenantId, document.id)).toBeNull();
    expect((await documentOf(runtime, owner.key, document.id)).status).toBe(200);
  });

  it('queues again a document whose job was lost, and reads it', async () => {
    const runtime = await runtimeOn(':memory:');
    const { tenantId } = await tenantWithKey(runtime.store);
    // The process that stored these died before queuing the job.
    const lost = await runtime.store.documents.create(tenantId, {
      userId: 'user-1',
      fileName: INVOICE.fileName,
      title: INVOICE.fileName,
      mimeType: INVOICE.mimeType,
      sizeBytes: invoicePdf.byteLength,
      pages: [],
      status: 'processing',
    });
    await runtime.store.uploads.put(tenantId, {
      id: lost.id,
      fileName: INVOICE.fileName,
      mimeType: INVOICE.mimeType,
      bytes: invoicePdf.slice(),
    });
    const hour = 60 * 60 * 1000;
    // Too young: its request may still be queuing it.
    expect(await runtime.documentUploads.requeueLost(Date.now())).toBe(0);
    expect(await runtime.documentUploads.requeueLost(Date.now() + 2 * hour)).toBe(1);
    const read = await runtime.documentUploads.wait(tenantId, lost.id, 30_000);
    expect(read).toMatchObject({ status: 'ready', error: null });
    // Queued (and read) once: nothing left to queue again.
    expect(await runtime.documentUploads.requeueLost(Date.now() + 2 * hour)).toBe(0);
  });

  it('lets the knowledge sweep delete a read document’s file, and keep a failed one’s', async () => {
    const runtime = await runtimeOn(':memory:');
    const { tenantId } = await tenantWithKey(runtime.store);
    const doc = (status: 'processing') =>
      runtime.store.documents.create(tenantId, {
        userId: 'u1',
        fileName: 'a.pdf',
        title: 'a.pdf',
        mimeType: 'application/pdf',
        sizeBytes: 3,
        pages: [],
        status,
      });
    const put = (id: string) =>
      runtime.store.uploads.put(tenantId, { id, fileName: 'a.pdf', bytes: new Uint8Array([1]) });
    const waiting = await doc('processing');
    const read = await doc('processing');
    const failed = await doc('processing');
    for (const d of [waiting, read, failed]) await put(d.id);
    await runtime.store.documents.markReady(tenantId, read.id, {
      title: 'A',
      mimeType: 'application/pdf',
      pages: [{ number: 1, text: 'a' }],
      warnings: [],
    });
    await runtime.store.documents.markFailed(tenantId, failed.id, {
      error: 'The store failed.',
      failureCode: 'SERVICE_UNAVAILABLE',
    });
    const hour = 60 * 60 * 1000;
    expect(await runtime.knowledge.uploads.sweep(Date.now() + 2 * hour)).toBe(1);
    expect(await runtime.store.uploads.get(tenantId, read.id)).toBeNull();
    expect(await runtime.store.uploads.get(tenantId, waiting.id)).not.toBeNull();
    expect(await runtime.store.uploads.get(tenantId, failed.id)).not.toBeNull();
    // A failed document's file is kept a week for its retry; one still being read, always.
    expect(await runtime.knowledge.uploads.sweep(Date.now() + 8 * 24 * hour)).toBe(1);
    expect(await runtime.store.uploads.get(tenantId, failed.id)).toBeNull();
    expect(await runtime.store.uploads.get(tenantId, waiting.id)).not.toBeNull();
  });
});

/** One "process" of the takeover test: its own connection, a queue with a short lease, a bus. */
interface Process {
  store: Store;
  queue: JobQueue;
  uploads: DocumentUploadRunner;
  close(): Promise<void>;
}

/**
 * `reader` gives the process's file reader from its ingestion (the runtime's reader); without
 * one, the process cannot read uploads: every attempt is a server-side failure.
 */
async function process(
  url: string,
  reader?: (ingestion: KnowledgeIngestion) => ReadDocument,
): Promise<Process> {
  const store = await createLibsqlStore({ url });
  // A short lease: a dead worker's job is taken over in about a second.
  const queue = createEmbeddedJobQueue({ store, leaseMs: 600, pollMs: 50 });
  const bus = createEmbeddedEventBus({ store, pollMs: 50 });
  const ingestion = new KnowledgeIngestion({
    knowledge: store.knowledge,
    embedder: null,
    quotas: { documents: 100, bytes: 100 * 1024 * 1024 },
  });
  const documents = new DocumentAgentService({
    store,
    llm: createUnconfiguredLlmClient(),
    ...(reader ? { readDocument: reader(ingestion) } : {}),
  });
  const uploads = new DocumentUploadRunner({
    store,
    queue,
    events: bus,
    documents,
    log: createLogger('silent'),
    attempts: 2,
    backoffMs: 20,
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await queue.close();
    await bus.close();
    await store.close();
  };
  opened.push({ close });
  return { store, queue, uploads, close };
}

describe('a takeover', () => {
  it('finishes from the stored file an upload whose process died reading it; read once', async () => {
    const url = sharedUrl();
    const tenantId = 'tenant-documents';
    let reached!: () => void;
    const atRead = new Promise<void>((resolve) => (reached = resolve));
    let release: (error: Error) => void = () => undefined;
    const stalled = new Promise<never>((_, reject) => (release = reject));
    stalled.catch(() => undefined);
    let readsA = 0;
    let readsB = 0;
    // A reads the file for real, then stalls before the document is stored: it dies there.
    const a = await process(url, (ingestion) => async (file) => {
      readsA += 1;
      await ingestion.readFile(file);
      reached();
      return stalled;
    });
    const b = await process(url, (ingestion) => (file) => {
      readsB += 1;
      return ingestion.readFile(file);
    });
    await a.store.tenants.create({ id: tenantId, name: 'documents' });

    const started = await a.uploads.start(
      { tenantId, userId: 'user-1' },
      { bytes: invoicePdf.slice(), fileName: INVOICE.fileName, mimeType: INVOICE.mimeType },
    );
    expect(started).toMatchObject({ status: 'processing', pages: [] });
    a.uploads.serve();
    await atRead;
    haltEmbeddedJobQueue(a.queue);
    b.uploads.serve();

    const done = await b.uploads.wait(tenantId, started.id, 20_000);
    expect(done).toMatchObject({ status: 'ready', error: null });
    expect(done?.pageCount).toBeGreaterThan(0);
    expect(await b.queue.state(tenantId, DOCUMENT_UPLOAD_QUEUE, started.id)).toMatchObject({
      status: 'completed',
      attempts: 2,
    });
    expect({ readsA, readsB }).toEqual({ readsA: 1, readsB: 1 });
    expect(await b.store.documents.list(tenantId)).toHaveLength(1);
    expect(await b.store.uploads.get(tenantId, started.id)).toBeNull();

    // The dead process's attempt ends late: it changes nothing of the read document.
    release(new Error('the process is gone'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await b.store.documents.get(tenantId, started.id)).toEqual(done);
  });
});

describe.skipIf(!redisServerInstalled())('on Redis', () => {
  it('a RUN_JOBS=false process and a worker share document uploads through BullMQ', async () => {
    const port = await freePort();
    const redis = await startRedisServer({ port });
    opened.push({ close: () => redis.stop() });
    const url = sharedUrl();
    const env = { REDIS_URL: `redis://127.0.0.1:${port}` };
    const web = await runtimeOn(url, { ...env, RUN_JOBS: 'false' });
    const { key, tenantId } = await tenantWithKey(web.store);
    await runtimeOn(url, { ...env, RUN_JOBS: 'true' });

    // Not through uploadFile: it would let the web process read uploads itself.
    const res = await postDocument(web, key, invoice());
    expect(res.status).toBe(201);
    const { document } = UploadDocumentResponse.parse(await res.json());
    expect(document).toMatchObject({ status: 'ready' });
    expect(await web.jobs.state(tenantId, DOCUMENT_UPLOAD_QUEUE, document.id)).toMatchObject({
      status: 'completed',
      attempts: 1,
    });
    expect(await web.store.uploads.get(tenantId, document.id)).toBeNull();

    const broken = await postDocument(web, key, BROKEN_PDF);
    expect(broken.status).toBe(400);
    const failed = (await listed(web, key)).find((d) => d.fileName === 'broken.pdf');
    expect(failed).toMatchObject({ status: 'failed', retryable: false });
    expect(await web.jobs.state(tenantId, DOCUMENT_UPLOAD_QUEUE, failed?.id ?? '')).toMatchObject({
      status: 'failed',
      attempts: 1,
    });
  });
});

/**
 * A multipart upload through the route. Not test/documents' uploadFile: that one lets a
 * RUN_JOBS=false runtime read uploads itself, and here it must not.
 */
function postDocument(
  runtime: Runtime,
  key: string,
  file: { bytes: Uint8Array | string; name: string; type: string },
): Promise<Response> {
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
