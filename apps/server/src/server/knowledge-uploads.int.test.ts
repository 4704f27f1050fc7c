// Knowledge uploads as jobs of the job port, through the real routes, runtimes and store: the
// route still answers 201 with the document; a RUN_JOBS=false process queues the file and a
// worker process on the same store reads it (202 when the worker comes later than the wait); a
// process that dies while reading a file is replaced and the document is stored once; an
// unreadable file fails at once, for good, with the reason on the job; a failed upload is
// retried from its stored file; another tenant sees none of it; files go when jobs end. Redis
// too, where redis-server is installed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ErrorResponse,
  IngestAccepted,
  IngestResponse,
  KnowledgeJobList,
  type KnowledgeJobView,
} from '@tandem/contracts';
import {
  createEmbeddedEventBus,
  createEmbeddedJobQueue,
  haltEmbeddedJobQueue,
  type EventBus,
  type JobQueue,
} from '@tandem/jobs';
import { freePort, redisServerInstalled, startRedisServer } from '@tandem/jobs/testing';
import type { Embedder } from '@tandem/llm';
import { KnowledgeIngestion } from '@tandem/knowledge/ingestion';
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { GET as jobEvents } from '../app/api/knowledge/jobs/[jobId]/events/route';
import { POST as retryJob } from '../app/api/knowledge/jobs/[jobId]/retry/route';
import { GET as getJob } from '../app/api/knowledge/jobs/[jobId]/route';
import { GET as listJobs } from '../app/api/knowledge/jobs/route';
import { DELETE as deleteDocument } from '../app/api/knowledge/documents/[documentId]/route';
import { POST as ingest } from '../app/api/knowledge/ingest/route';
import { request, tenantWithKey, testRuntime } from '../test/harness';
import { KnowledgeJobRunner } from './knowledge-jobs';
import { INGEST_QUEUE, KnowledgeUploadRunner } from './knowledge-uploads';
import { UPLOAD_KEPT_MS } from './upload-jobs';
import { createLogger } from './logger';
import type { Runtime } from './runtime';

const GUIDE = `# Webhooks\n\nEvery delivery carries the X-Tandem-Signature header, an HMAC-SHA256 of the body.\n\n## Retries\n\nFailed deliveries are retried 8 times over 3 days before the endpoint is disabled.\n`;

const dir = mkdtempSync(path.join(tmpdir(), 'tandem-knowledge-uploads-'));
let files = 0;
/** A fresh database file: the one thing several "processes" share. */
const sharedUrl = () => `file:${path.join(dir, `tandem-${(files += 1)}.db`)}`;

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function runtimeOn(url: string, env: Record<string, string> = {}): Promise<Runtime> {
  const runtime = await testRuntime(env, await createLibsqlStore({ url }));
  opened.push(runtime);
  return runtime;
}

function upload(
  runtime: Runtime,
  key: string,
  file: { name: string; text?: string; bytes?: Uint8Array<ArrayBuffer>; type?: string },
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  const body: Uint8Array<ArrayBuffer> = file.bytes ?? new TextEncoder().encode(file.text ?? '');
  form.set('file', new File([body], file.name, { type: file.type ?? '' }));
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return ingest.withRuntime(runtime)(
    new Request('http://127.0.0.1:3000/api/knowledge/ingest', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    }),
  );
}

const params = (jobId: string) => ({ params: Promise.resolve({ jobId }) });

async function jobOf(runtime: Runtime, key: string, jobId: string) {
  const res = await getJob.withRuntime(runtime)(
    request(`/api/knowledge/jobs/${jobId}`, { key }),
    params(jobId),
  );
  return { status: res.status, body: (await res.json()) as { job?: KnowledgeJobView } };
}

/** The tenant's upload jobs, newest first, from GET /api/knowledge/jobs. */
async function uploadJobs(runtime: Runtime, key: string): Promise<KnowledgeJobView[]> {
  const res = await listJobs.withRuntime(runtime)(request('/api/knowledge/jobs', { key }));
  expect(res.status).toBe(200);
  return KnowledgeJobList.parse(await res.json()).jobs.filter((job) => job.kind === 'upload');
}

/** The tenant's newest upload job. */
async function newestUpload(runtime: Runtime, key: string): Promise<KnowledgeJobView> {
  const [job] = await uploadJobs(runtime, key);
  if (!job) throw new Error('no upload job');
  return job;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('knowledge uploads as jobs', () => {
  it('answers 201 with the stored document, lists the job done, and deletes the file', async () => {
    const runtime = await runtimeOn(':memory:');
    const { key, tenantId } = await tenantWithKey(runtime.store);
    const res = await upload(
      runtime,
      key,
      { name: 'webhooks.md', text: GUIDE },
      { domain: 'docs.example.com' },
    );
    expect(res.status).toBe(201);
    const created = IngestResponse.parse(await res.json());
    expect(created).toMatchObject({ chunksAdded: 2, unchanged: false, embedded: false });
    expect(created.document).toMatchObject({ source: 'upload', chunks: 2, status: 'ready' });

    const job = await newestUpload(runtime, key);
    expect(job).toMatchObject({
      kind: 'upload',
      status: 'completed',
      url: '',
      domain: 'docs.example.com',
      error: null,
      progress: { fetched: 1, ingested: 1, unchanged: 0, failed: 0 },
      upload: {
        fileName: 'webhooks.md',
        sizeBytes: new TextEncoder().encode(GUIDE).byteLength,
        failureCode: null,
        result: {
          documentId: created.document.id,
          chunksAdded: 2,
          chunksSuperseded: 0,
          unchanged: false,
          embedded: false,
        },
      },
    });
    expect(await runtime.store.uploads.get(tenantId, job.id)).toBeNull();

    // The same file again: 200 unchanged, as before jobs.
    const again = await upload(
      runtime,
      key,
      { name: 'webhooks.md', text: GUIDE },
      { domain: 'docs.example.com' },
    );
    expect(again.status).toBe(200);
    expect(IngestResponse.parse(await again.json())).toMatchObject({
      unchanged: true,
      chunksAdded: 0,
    });
  });

  it('a RUN_JOBS=false process queues the file; a worker process reads it (202 while none runs)', async () => {
    const url = sharedUrl();
    // The web process waits one second at most, and no process runs jobs yet.
    const web = await runtimeOn(url, { RUN_JOBS: 'false', KNOWLEDGE_INGEST_WAIT_SECONDS: '1' });
    const { key, tenantId } = await tenantWithKey(web.store);
    const started = Date.now();
    const res = await upload(web, key, { name: 'webhooks.md', text: GUIDE });
    expect(res.status).toBe(202);
    expect(Date.now() - started).toBeLessThan(5_000);
    const accepted = IngestAccepted.parse(await res.json());
    const jobId = accepted.job.id;
    expect(accepted).toMatchObject({
      job: { kind: 'upload', status: 'queued', upload: { fileName: 'webhooks.md', result: null } },
      links: { job: `/api/knowledge/jobs/${jobId}`, events: `/api/knowledge/jobs/${jobId}/events` },
    });
    expect(res.headers.get('location')).toBe(`/api/knowledge/jobs/${jobId}`);
    // The web process did not read it, and the file waits in the store.
    expect(await web.store.knowledge.listDocuments(tenantId, {})).toEqual([]);
    expect((await web.store.uploads.get(tenantId, jobId))?.sizeBytes).toBeGreaterThan(0);

    // A worker process on the same store takes it.
    const worker = await runtimeOn(url, { RUN_JOBS: 'true' });
    const done = await until(
      () => jobOf(web, key, jobId),
      (job) => job.body.job?.status === 'completed',
    );
    expect(done.body.job).toMatchObject({
      status: 'completed',
      upload: { result: { chunksAdded: 2, unchanged: false } },
    });
    const documents = await web.store.knowledge.listDocuments(tenantId, {});
    expect(documents.map((d) => d.id)).toEqual([done.body.job?.upload?.result?.documentId]);
    expect(await worker.store.uploads.get(tenantId, jobId)).toBeNull();

    // With the worker running, the web process's next upload ends within the request.
    const second = await upload(web, key, {
      name: 'retries.md',
      text: GUIDE.replace('8 times', '9 times'),
    });
    expect(second.status).toBe(201);
    expect(IngestResponse.parse(await second.json()).document.title).toBe('Webhooks');
  });

  it('fails an unreadable file at once, for good, with the reason on the job and the file gone', async () => {
    const runtime = await runtimeOn(':memory:');
    const { key, tenantId } = await tenantWithKey(runtime.store);
    const res = await upload(runtime, key, {
      name: 'broken.pdf',
      bytes: new TextEncoder().encode('%PDF-1.7\nthis is not a PDF at all\n%%EOF'),
      type: 'application/pdf',
    });
    expect(res.status).toBe(400);
    const answer = ErrorResponse.parse(await res.json()).error;
    expect(answer).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/could not be read/),
    });

    const job = await newestUpload(runtime, key);
    expect(job).toMatchObject({
      status: 'failed',
      error: answer.message,
      upload: { fileName: 'broken.pdf', failureCode: 'BAD_REQUEST', result: null },
    });
    // One attempt: a parse error is not retried. The request answers once the job record
    // says failed; the queue hears of it (the file deleted first) right after.
    await vi.waitFor(async () => {
      expect(await runtime.jobs.state(tenantId, INGEST_QUEUE, job.id)).toMatchObject({
        status: 'failed',
        attempts: 1,
      });
    });
    expect(await runtime.store.uploads.get(tenantId, job.id)).toBeNull();
    // Nor can the Retry button mend it.
    const retried = await retryJob.withRuntime(runtime)(
      request(`/api/knowledge/jobs/${job.id}/retry`, { method: 'POST', key }),
      params(job.id),
    );
    expect(retried.status).toBe(409);
    expect(ErrorResponse.parse(await retried.json()).error.message).toMatch(
      /Upload the file again/,
    );
  });

  it('retries a failed upload from its stored file', async () => {
    const runtime = await runtimeOn(':memory:', { KNOWLEDGE_QUOTA_DOCUMENTS: '1' });
    const { key, tenantId } = await tenantWithKey(runtime.store);
    const first = IngestResponse.parse(
      await (await upload(runtime, key, { name: 'a.md', text: GUIDE })).json(),
    );
    const refused = await upload(runtime, key, {
      name: 'b.md',
      text: '# Billing\n\nInvoices are sent monthly.\n',
    });
    expect(refused.status).toBe(403);
    expect(ErrorResponse.parse(await refused.json()).error.code).toBe('QUOTA_EXCEEDED');
    const failed = await newestUpload(runtime, key);
    expect(failed).toMatchObject({
      status: 'failed',
      upload: { fileName: 'b.md', failureCode: 'QUOTA_EXCEEDED' },
    });
    // Kept: the quota is the tenant's to mend.
    expect(await runtime.store.uploads.get(tenantId, failed.id)).not.toBeNull();

    const removed = await deleteDocument.withRuntime(runtime)(
      request(`/api/knowledge/documents/${first.document.id}`, { method: 'DELETE', key }),
      { params: Promise.resolve({ documentId: first.document.id }) },
    );
    expect(removed.status).toBe(200);
    const retried = await retryJob.withRuntime(runtime)(
      request(`/api/knowledge/jobs/${failed.id}/retry`, { method: 'POST', key }),
      params(failed.id),
    );
    expect(retried.status).toBe(200);
    const done = await until(
      () => jobOf(runtime, key, failed.id),
      (job) => job.body.job?.status === 'completed',
    );
    expect(done.body.job).toMatchObject({
      status: 'completed',
      error: null,
      upload: { failureCode: null, result: { chunksAdded: 1, unchanged: false } },
    });
    const documents = await runtime.store.knowledge.listDocuments(tenantId, {});
    expect(documents.map((d) => d.title)).toEqual(['Billing']);
    expect(await runtime.store.uploads.get(tenantId, failed.id)).toBeNull();
    // Done: nothing more to retry.
    const twice = await retryJob.withRuntime(runtime)(
      request(`/api/knowledge/jobs/${failed.id}/retry`, { method: 'POST', key }),
      params(failed.id),
    );
    expect(twice.status).toBe(409);
  });

  it('keeps an upload job and its file from another tenant', async () => {
    const runtime = await runtimeOn(':memory:', {
      RUN_JOBS: 'false',
      KNOWLEDGE_INGEST_WAIT_SECONDS: '1',
    });
    const owner = await tenantWithKey(runtime.store);
    const other = await tenantWithKey(runtime.store);
    const res = await upload(runtime, owner.key, { name: 'webhooks.md', text: GUIDE });
    expect(res.status).toBe(202);
    const { job } = IngestAccepted.parse(await res.json());

    expect((await jobOf(runtime, other.key, job.id)).status).toBe(404);
    const events = await jobEvents.withRuntime(runtime)(
      request(`/api/knowledge/jobs/${job.id}/events`, { key: other.key }),
      params(job.id),
    );
    expect(events.status).toBe(404);
    const retried = await retryJob.withRuntime(runtime)(
      request(`/api/knowledge/jobs/${job.id}/retry`, { method: 'POST', key: other.key }),
      params(job.id),
    );
    expect(retried.status).toBe(404);
    expect(await uploadJobs(runtime, other.key)).toEqual([]);
    expect(await runtime.store.uploads.get(other.tenantId, job.id)).toBeNull();
    expect(await runtime.store.uploads.delete(other.tenantId, job.id)).toBe(false);
    expect(await runtime.store.uploads.get(owner.tenantId, job.id)).not.toBeNull();
    expect((await jobOf(runtime, owner.key, job.id)).status).toBe(200);
  });

  it('sweeps the files no job will read, and keeps a failed one for its retry', async () => {
    const runtime = await runtimeOn(':memory:', { KNOWLEDGE_QUOTA_DOCUMENTS: '1' });
    const { key, tenantId } = await tenantWithKey(runtime.store);
    await upload(runtime, key, { name: 'a.md', text: GUIDE });
    expect((await upload(runtime, key, { name: 'b.md', text: '# B\n\nb\n' })).status).toBe(403);
    const failed = await newestUpload(runtime, key);
    // A file whose request died before its job was stored.
    const orphan = await runtime.store.uploads.put(tenantId, {
      fileName: 'orphan.pdf',
      bytes: new Uint8Array([1, 2, 3]),
    });
    const uploads = runtime.knowledge.uploads;
    const hour = 60 * 60 * 1000;
    // Too young for the sweep: its request may still be storing the job.
    expect(await uploads.sweep(Date.now())).toBe(0);
    expect(await uploads.sweep(Date.now() + 2 * hour)).toBe(1);
    expect(await runtime.store.uploads.get(tenantId, orphan.id)).toBeNull();
    expect(await runtime.store.uploads.get(tenantId, failed.id)).not.toBeNull();
    // A failed job's file is kept for its retry, UPLOAD_KEPT_MS.
    expect(await uploads.sweep(Date.now() + UPLOAD_KEPT_MS + hour)).toBe(1);
    expect(await runtime.store.uploads.get(tenantId, failed.id)).toBeNull();
  });
});

/** One "process" of the takeover test: its own connection, queue with a short lease, bus. */
interface Process {
  store: Store;
  queue: JobQueue;
  bus: EventBus;
  uploads: KnowledgeUploadRunner;
}

/** An embeddings model that answers when `release` is called (never, for a process that dies). */
function stalledEmbedder(reached: () => void): Embedder & { release(error: Error): void } {
  let fail: (error: Error) => void = () => undefined;
  const stalled = new Promise<never>((_, reject) => (fail = reject));
  stalled.catch(() => undefined);
  return {
    id: 'test:stalled',
    model: 'stalled',
    embed: () => {
      reached();
      return stalled;
    },
    release: (error) => fail(error),
  };
}

async function process(url: string, embedder: Embedder | null): Promise<Process> {
  const store = await createLibsqlStore({ url });
  // A short lease: a dead worker's job is taken over in about a second.
  const queue = createEmbeddedJobQueue({ store, leaseMs: 600, pollMs: 50 });
  const bus = createEmbeddedEventBus({ store, pollMs: 50 });
  const log = createLogger('silent');
  const ingestion = new KnowledgeIngestion({
    knowledge: store.knowledge,
    embedder,
    quotas: { documents: 100, bytes: 100 * 1024 * 1024 },
  });
  const jobs = new KnowledgeJobRunner({
    store,
    queue,
    events: bus,
    ingestion,
    crawl: { concurrency: 1, delayMs: 0, allowPrivateNetwork: false },
    crawlsPerTenant: 2,
    log,
  });
  const uploads = new KnowledgeUploadRunner({ store, queue, jobs, ingestion, log, backoffMs: 20 });
  let closed = false;
  opened.push({
    close: async () => {
      if (closed) return;
      closed = true;
      uploads.close();
      await queue.close();
      await bus.close();
      await store.close();
    },
  });
  return { store, queue, bus, uploads };
}

describe('a takeover', () => {
  it('finishes from the stored file an upload whose process died reading it; the document is stored once', async () => {
    const url = sharedUrl();
    const tenantId = 'tenant-uploads';
    let reached!: () => void;
    const atEmbedding = new Promise<void>((resolve) => (reached = resolve));
    const stalled = stalledEmbedder(reached);
    const a = await process(url, stalled);
    const b = await process(url, null);
    await a.store.tenants.create({ id: tenantId, name: 'uploads' });

    const job = await a.uploads.start(
      tenantId,
      'user-1',
      { bytes: new TextEncoder().encode(GUIDE), name: 'webhooks.md', type: 'text/markdown' },
      { domain: 'docs.example.com' },
    );
    a.uploads.serve();
    await atEmbedding;
    // A has parsed the file and stored the document (pending) when it dies.
    expect(await a.store.knowledge.listDocuments(tenantId, {})).toHaveLength(1);
    haltEmbeddedJobQueue(a.queue);
    b.uploads.serve();

    const done = await b.uploads.wait(tenantId, job.id, 20_000);
    expect(done).toMatchObject({
      status: 'completed',
      upload: { result: { chunksAdded: 2, unchanged: false, embedded: false } },
    });
    expect(await b.queue.state(tenantId, INGEST_QUEUE, job.id)).toMatchObject({
      status: 'completed',
      attempts: 2,
    });
    const documents = await b.store.knowledge.listDocuments(tenantId, {});
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({ id: done?.upload?.result?.documentId, status: 'ready' });
    expect(await b.store.knowledge.countChunks(tenantId)).toEqual({ [documents[0]?.id ?? '']: 2 });
    expect(await b.store.uploads.get(tenantId, job.id)).toBeNull();

    // The dead process's attempt ends late: it changes nothing of the finished job.
    stalled.release(new Error('the process is gone'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await b.store.knowledgeJobs.get(tenantId, job.id)).toEqual(done);
  });
});

describe.skipIf(!redisServerInstalled())('on Redis', () => {
  it('a RUN_JOBS=false process and a worker share uploads through BullMQ', async () => {
    const port = await freePort();
    const redis = await startRedisServer({ port });
    opened.push({ close: () => redis.stop() });
    const url = sharedUrl();
    const env = { REDIS_URL: `redis://127.0.0.1:${port}` };
    const web = await runtimeOn(url, { ...env, RUN_JOBS: 'false' });
    const { key, tenantId } = await tenantWithKey(web.store);
    await runtimeOn(url, { ...env, RUN_JOBS: 'true' });

    const res = await upload(web, key, { name: 'webhooks.md', text: GUIDE });
    expect(res.status).toBe(201);
    const created = IngestResponse.parse(await res.json());
    expect(created).toMatchObject({ chunksAdded: 2, unchanged: false });
    const job = await newestUpload(web, key);
    await vi.waitFor(async () => {
      expect(await web.jobs.state(tenantId, INGEST_QUEUE, job.id)).toMatchObject({
        status: 'completed',
        attempts: 1,
      });
    });
    expect(await web.store.uploads.get(tenantId, job.id)).toBeNull();

    // An unreadable file: refused for good on the worker, answered 400 on the web process.
    const broken = await upload(web, key, {
      name: 'broken.pdf',
      bytes: new TextEncoder().encode('%PDF-1.7\nnot a PDF\n%%EOF'),
      type: 'application/pdf',
    });
    expect(broken.status).toBe(400);
    const failed = await newestUpload(web, key);
    await vi.waitFor(async () => {
      expect(await web.jobs.state(tenantId, INGEST_QUEUE, failed.id)).toMatchObject({
        status: 'failed',
        attempts: 1,
      });
    });
  });
});
