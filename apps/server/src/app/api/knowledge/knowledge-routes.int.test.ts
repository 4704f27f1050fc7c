// The knowledge API through its real routes and runtime: uploads (limits, types, quotas,
// supersede), documents and deletion, resolve, page content, settings, and crawls of the demo
// docs site on loopback with their SSE progress — each tenant seeing only its own.
import {
  ErrorResponse,
  IndexLinkResponse,
  IngestResponse,
  KNOWLEDGE_LIMITS,
  KnowledgeDocumentList,
  KnowledgeJobEvent,
  ResolveKnowledgeResponse,
} from '@tandem/contracts';
import { startDemoSites, type DemoSites } from '@tandem/demo-sites';
import { freePort, redisServerInstalled, startRedisServer } from '@tandem/jobs/testing';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '@tandem/llm/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../server/runtime';
import { request, tenantWithKey, testRuntime } from '../../../test/harness';
import { DELETE as deleteDocument } from './documents/[documentId]/route';
import { GET as listDocuments } from './documents/route';
import { GET as jobEvents } from './jobs/[jobId]/events/route';
import { POST as retryJob } from './jobs/[jobId]/retry/route';
import { GET as getJob } from './jobs/[jobId]/route';
import { POST as indexLink } from './index-link/route';
import { POST as ingest } from './ingest/route';
import { POST as pageContent } from './page-content/route';
import { GET as resolve } from './resolve/route';
import { PUT as putSettings } from './settings/route';

const GUIDE = `# Webhooks\n\nEvery delivery carries the X-Tandem-Signature header, an HMAC-SHA256 of the body.\n\n## Retries\n\nFailed deliveries are retried 8 times over 3 days before the endpoint is disabled.\n`;

let runtime: Runtime;
let key: string;

function upload(
  file: { name: string; text?: string; bytes?: Uint8Array<ArrayBuffer>; type?: string },
  fields: Record<string, string> = {},
  as = key,
) {
  const form = new FormData();
  const body: Uint8Array<ArrayBuffer> = file.bytes ?? new TextEncoder().encode(file.text ?? '');
  form.set('file', new File([body], file.name, { type: file.type ?? '' }));
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return ingest.withRuntime(runtime)(
    new Request('http://127.0.0.1:3000/api/knowledge/ingest', {
      method: 'POST',
      headers: { authorization: `Bearer ${as}` },
      body: form,
    }),
  );
}

const resolveFor = async (query: string, url = 'https://docs.example.com/x', as = key) => {
  const res = await resolve.withRuntime(runtime)(
    request(`/api/knowledge/resolve?${new URLSearchParams({ url, query }).toString()}`, {
      key: as,
    }),
  );
  expect(res.status).toBe(200);
  return ResolveKnowledgeResponse.parse(await res.json());
};

const documents = async (as = key) =>
  KnowledgeDocumentList.parse(
    await (
      await listDocuments.withRuntime(runtime)(request('/api/knowledge/documents', { key: as }))
    ).json(),
  );

describe('uploads, documents and resolve', () => {
  beforeEach(async () => {
    runtime = await testRuntime();
    ({ key } = await tenantWithKey(runtime.store));
  });
  afterEach(() => runtime.store.close());

  it('ingests a file, finds its fact, replaces it when changed and deletes it', async () => {
    const first = await upload(
      { name: 'webhooks.md', text: GUIDE },
      { domain: 'docs.example.com' },
    );
    expect(first.status).toBe(201);
    const created = IngestResponse.parse(await first.json());
    expect(created).toMatchObject({ chunksAdded: 2, unchanged: false, embedded: false });
    expect(created.document).toMatchObject({ source: 'upload', chunks: 2, status: 'ready' });

    const hit = await resolveFor('which header carries the signature');
    expect(hit).toMatchObject({ hasOrgKnowledge: true, mode: 'lexical' });
    expect(hit.chunks[0]).toMatchObject({
      documentTitle: 'Webhooks',
      headingPath: ['Webhooks'],
      lexicalRank: 1,
      vectorRank: null,
    });

    const again = await upload(
      { name: 'webhooks.md', text: GUIDE },
      { domain: 'docs.example.com' },
    );
    expect(again.status).toBe(200);
    expect(IngestResponse.parse(await again.json())).toMatchObject({
      unchanged: true,
      chunksAdded: 0,
    });

    const changed = await upload(
      { name: 'webhooks.md', text: GUIDE.replace('8 times', '12 times') },
      { domain: 'docs.example.com' },
    );
    expect(IngestResponse.parse(await changed.json())).toMatchObject({
      chunksAdded: 2,
      chunksSuperseded: 2,
    });
    const retries = await resolveFor('how many times are deliveries retried');
    expect(retries.chunks.map((c) => c.content).join(' ')).toContain('12 times');
    expect(retries.chunks.map((c) => c.content).join(' ')).not.toContain('8 times');

    const list = await documents();
    expect(list.documents).toHaveLength(1);
    expect(list.usage).toMatchObject({ documents: 1, quotaDocuments: 10_000 });

    const del = await deleteDocument.withRuntime(runtime)(
      request(`/api/knowledge/documents/${created.document.id}`, { method: 'DELETE', key }),
      { params: Promise.resolve({ documentId: created.document.id }) },
    );
    expect(del.status).toBe(200);
    expect(await resolveFor('signature header')).toMatchObject({
      hasOrgKnowledge: false,
      chunks: [],
    });
  });

  it('answers 413 for a file over the upload limit and 400 for a type it cannot read', async () => {
    const big = await upload({
      name: 'big.txt',
      bytes: new Uint8Array(KNOWLEDGE_LIMITS.uploadBytes + 1).fill(97),
    });
    expect(big.status).toBe(413);
    expect(ErrorResponse.parse(await big.json()).error.message).toMatch(/25 MB/);

    const bin = await upload({
      name: 'archive.bin',
      bytes: new Uint8Array([0, 159, 146, 150, 0, 1, 2, 3, 255, 0]),
    });
    expect(bin.status).toBe(400);
    expect(ErrorResponse.parse(await bin.json()).error.message).toMatch(/cannot read/);

    // Office formats need the optional Gotenberg service; without it the answer says so.
    const doc = await upload({
      name: 'letter.doc',
      type: 'application/msword',
      bytes: new Uint8Array([
        0xd0,
        0xcf,
        0x11,
        0xe0,
        0xa1,
        0xb1,
        0x1a,
        0xe1,
        ...new Array(504).fill(0),
      ]),
    });
    expect(doc.status).toBe(400);
    expect(ErrorResponse.parse(await doc.json()).error.message).toMatch(/GOTENBERG_URL/);

    const noFile = await ingest.withRuntime(runtime)(
      request('/api/knowledge/ingest', { method: 'POST', key, body: { not: 'multipart' } }),
    );
    expect(noFile.status).toBe(400);
  });

  it('keeps tenants apart: documents, resolve and deletion', async () => {
    const other = await tenantWithKey(runtime.store);
    const created = IngestResponse.parse(
      await (await upload({ name: 'webhooks.md', text: GUIDE })).json(),
    );
    expect((await documents(other.key)).documents).toEqual([]);
    expect(await resolveFor('signature', undefined, other.key)).toMatchObject({ chunks: [] });
    const del = await deleteDocument.withRuntime(runtime)(
      request(`/api/knowledge/documents/${created.document.id}`, {
        method: 'DELETE',
        key: other.key,
      }),
      { params: Promise.resolve({ documentId: created.document.id }) },
    );
    expect(del.status).toBe(404);
    expect((await documents()).documents).toHaveLength(1);
  });

  it('stores page content in two phases and resolves the post-interaction state first', async () => {
    const url = 'https://claims.example.com/claims/42';
    const html = (status: string) =>
      `<main><h1>Claim 42</h1><h2>Status</h2><p>The claim status is ${status}; the adjuster signed it off on Monday morning.</p><h2>Contact</h2><p>Questions about this claim go to the claims desk at extension 4410, weekdays only.</p></main>`;
    const send = (body: unknown) =>
      pageContent.withRuntime(runtime)(
        request('/api/knowledge/page-content', { method: 'POST', key, body }),
      );
    const initial = await send({ url, html: html('pending'), phase: 'initial' });
    expect(initial.status).toBe(200);
    const missingTrigger = await send({ url, html: html('approved'), phase: 'post-interaction' });
    expect(missingTrigger.status).toBe(400);
    const after = await send({
      url,
      html: html('approved'),
      phase: 'post-interaction',
      triggerAction: 'click(68)',
    });
    expect(await after.json()).toMatchObject({ added: 1, duplicates: 1, superseded: 1 });
    const result = await resolveFor('claim status', url);
    expect(result.chunks[0]).toMatchObject({
      phase: 'post-interaction',
      triggerAction: 'click(68)',
    });
    expect(result.chunks.map((c) => c.content).join(' ')).not.toContain('pending');
  });

  it('lets only admins set allowed domains, and resolve honours them', async () => {
    await upload({ name: 'webhooks.md', text: GUIDE }, { domain: 'docs.example.com' });
    const put = (as: string) =>
      putSettings.withRuntime(runtime)(
        request('/api/knowledge/settings', {
          method: 'PUT',
          key: as,
          body: { allowedDomains: ['intranet.example.org'] },
        }),
      );
    expect((await put(key)).status).toBe(403);
    const admin = await tenantWithKey(runtime.store, 'admin');
    expect((await put(admin.key)).status).toBe(200);
    // Another tenant's setting changes nothing here.
    expect((await resolveFor('signature')).chunks.length).toBeGreaterThan(0);
  });
});

describe('with an embeddings model', () => {
  let embeddings: FakeEmbeddingsServer;
  beforeAll(async () => {
    embeddings = await startFakeEmbeddingsServer({ dimensions: 32 });
  });
  afterAll(() => embeddings.close());
  afterEach(() => runtime.store.close());

  it('retrieves by meaning too, and bills the embedding calls to the tenant', async () => {
    // The test is about the embeddings option, so it sets it (a loopback OpenAI-compatible API).
    runtime = await testRuntime({
      EMBEDDINGS_BASE_URL: embeddings.openAiUrl,
      EMBEDDINGS_MODEL: 'text-embedding-3-small',
    });
    let tenantId: string;
    ({ key, tenantId } = await tenantWithKey(runtime.store));
    const limits = '# Rate limits\n\nThe Starter plan allows 120 requests per minute.\n';
    const created = IngestResponse.parse(
      await (
        await upload({ name: 'limits.md', text: limits }, { domain: 'docs.example.com' })
      ).json(),
    );
    expect(created.embedded).toBe(true);
    await upload({ name: 'webhooks.md', text: GUIDE }, { domain: 'docs.example.com' });

    // No word in common with the rate-limit passage: only its embedding can find it.
    const found = await resolveFor('how quickly can I send calls until you throttle me');
    expect(found.mode).toBe('hybrid');
    expect(found.chunks[0]).toMatchObject({ headingPath: ['Rate limits'], vectorRank: 1 });

    await expect
      .poll(async () => (await runtime.store.tokenUsage.list(tenantId)).length)
      .toBeGreaterThanOrEqual(3);
    const usage = await runtime.store.tokenUsage.list(tenantId);
    expect(usage.every((u) => u.actionType === 'EMBEDDING')).toBe(true);
    expect(usage[0]).toMatchObject({
      provider: 'OPENAI_COMPATIBLE',
      model: 'text-embedding-3-small',
      outputTokens: 0,
    });
    expect(usage.every((u) => u.inputTokens > 0 && u.costMicroUsd >= 0)).toBe(true);
  });
});

describe('quotas', () => {
  afterEach(() => runtime.store.close());

  it('answers 403 QUOTA_EXCEEDED past the tenant document quota', async () => {
    // The test is about the quota option, so it sets it.
    runtime = await testRuntime({ KNOWLEDGE_QUOTA_DOCUMENTS: '1' });
    ({ key } = await tenantWithKey(runtime.store));
    expect((await upload({ name: 'a.md', text: GUIDE })).status).toBe(201);
    const second = await upload({ name: 'b.md', text: GUIDE });
    expect(second.status).toBe(403);
    expect(ErrorResponse.parse(await second.json()).error).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      message: expect.stringMatching(/1 of 1 documents/),
    });
  });
});

describe('crawls', () => {
  let sites: DemoSites;
  beforeAll(async () => {
    sites = await startDemoSites();
  });
  afterAll(() => sites.close());
  afterEach(async () => {
    await runtime.close();
  });

  const start = (body: unknown, as = key) =>
    indexLink.withRuntime(runtime)(
      request('/api/knowledge/index-link', { method: 'POST', key: as, body }),
    );

  it('refuses a loopback URL by default', async () => {
    runtime = await testRuntime();
    ({ key } = await tenantWithKey(runtime.store));
    const res = await start({ url: `${sites.url}/docs/`, strategy: 'sitemap' });
    expect(res.status).toBe(400);
    expect(ErrorResponse.parse(await res.json()).error.message).toMatch(
      /private or reserved address .*start the server with KNOWLEDGE_ALLOW_PRIVATE_URLS=true\./,
    );
  });

  it('answers 503 with Retry-After when the job queue (Redis) does not answer, and records why', async () => {
    // Nothing listens on this port: BullMQ alone would wait for it forever.
    runtime = await testRuntime({
      KNOWLEDGE_ALLOW_PRIVATE_URLS: 'true',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    let tenantId: string;
    ({ key, tenantId } = await tenantWithKey(runtime.store));
    const started = Date.now();
    const res = await start({ url: `${sites.url}/docs/`, strategy: 'sitemap' });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(ErrorResponse.parse(await res.json()).error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringMatching(/job queue is unavailable/),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    // Not left queued forever (nor counted against the tenant's crawls): failed, saying why.
    const [job] = await runtime.store.knowledgeJobs.list(tenantId, { limit: 5 });
    expect(job).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/could not be queued: The job queue \(Redis\) did not answer/),
    });
    // A process starting meanwhile still starts: re-queuing its unfinished crawls waits for
    // the queue no longer than the deadline, and says so.
    await runtime.store.knowledgeJobs.update(tenantId, job?.id ?? '', {
      status: 'queued',
      error: null,
      finishedAt: null,
    });
    expect(await runtime.knowledge.jobs.resumeUnfinished()).toBe(0);
  });

  it.skipIf(!redisServerInstalled())(
    'a crawl that could not be queued is retried once Redis is back, and runs',
    async () => {
      // Redis comes up on this port only after the start has been refused.
      const port = await freePort();
      runtime = await testRuntime({
        KNOWLEDGE_ALLOW_PRIVATE_URLS: 'true',
        REDIS_URL: `redis://127.0.0.1:${port}`,
      });
      let tenantId: string;
      ({ key, tenantId } = await tenantWithKey(runtime.store));
      const refused = await start({ url: `${sites.url}/docs/`, strategy: 'sitemap', maxPages: 3 });
      expect(refused.status).toBe(503);
      const redis = await startRedisServer({ port });
      try {
        const [failed] = await runtime.store.knowledgeJobs.list(tenantId, { limit: 1 });
        const jobId = failed?.id ?? '';
        // The refused add still reaches Redis when it comes back, and its worker runs it: the
        // crawl stays failed (it was never started for the user) and the job stays retryable.
        await expect
          .poll(async () => (await runtime.jobs.state(tenantId, 'crawl', jobId))?.status, {
            timeout: 15_000,
          })
          .toBe('failed');
        expect(await runtime.store.knowledgeJobs.get(tenantId, jobId)).toMatchObject({
          status: 'failed',
          progress: { fetched: 0 },
        });
        const retried = await retryJob.withRuntime(runtime)(
          request(`/api/knowledge/jobs/${jobId}/retry`, { method: 'POST', key }),
          { params: Promise.resolve({ jobId }) },
        );
        expect(retried.status).toBe(200);
        await expect
          .poll(async () => (await runtime.store.knowledgeJobs.get(tenantId, jobId))?.status, {
            timeout: 20_000,
          })
          .toBe('completed');
        const done = await runtime.store.knowledgeJobs.get(tenantId, jobId);
        expect(done?.progress.ingested).toBeGreaterThan(0);
      } finally {
        await runtime.close();
        await redis.stop();
      }
    },
  );

  it('crawls the docs sitemap in the background, streams progress, and keeps jobs per tenant', async () => {
    // Crawling a site on this machine is what the private-network option is for.
    runtime = await testRuntime({ KNOWLEDGE_ALLOW_PRIVATE_URLS: 'true' });
    ({ key } = await tenantWithKey(runtime.store));
    const res = await start({ url: `${sites.url}/docs/`, strategy: 'sitemap', maxPages: 20 });
    expect(res.status).toBe(202);
    const { job } = IndexLinkResponse.parse(await res.json());
    expect(job).toMatchObject({ status: 'queued', strategy: 'sitemap', domain: '127.0.0.1' });

    const events = await jobEvents.withRuntime(runtime)(
      request(`/api/knowledge/jobs/${job.id}/events`, { key }),
      { params: Promise.resolve({ jobId: job.id }) },
    );
    expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const frames = (await new Response(events.body).text())
      .split('\n\n')
      .filter((f) => f.includes('data: '))
      .map((f) => KnowledgeJobEvent.parse(JSON.parse(f.slice(f.indexOf('data: ') + 6))));
    expect(frames.length).toBeGreaterThan(2);
    expect(frames.at(-1)).toMatchObject({ type: 'done', job: { status: 'completed' } });
    const done = frames.at(-1)?.job;
    expect(done?.progress.ingested).toBeGreaterThan(5);
    // Every fetched page was stored, unchanged or failed (robots-refused pages are never fetched).
    const p = done?.progress;
    expect(p?.fetched).toBe((p?.ingested ?? 0) + (p?.unchanged ?? 0) + (p?.failed ?? 0));

    const list = await documents();
    expect(list.documents.every((d) => d.source === 'crawl' && d.jobId === job.id)).toBe(true);
    expect(list.documents.map((d) => d.sourceUrl)).not.toContainEqual(
      expect.stringContaining('/docs/internal/'),
    );
    const fact = await resolveFor('webhook signature header', `${sites.url}/docs/`);
    expect(fact.chunks[0]?.sourceUrl).toMatch(/webhooks/);

    const other = await tenantWithKey(runtime.store);
    const foreign = await getJob.withRuntime(runtime)(
      request(`/api/knowledge/jobs/${job.id}`, { key: other.key }),
      { params: Promise.resolve({ jobId: job.id }) },
    );
    expect(foreign.status).toBe(404);
  });

  it('resumes a job a stopped server left running, from its stored frontier', async () => {
    runtime = await testRuntime({ KNOWLEDGE_ALLOW_PRIVATE_URLS: 'true' });
    const { tenantId } = await tenantWithKey(runtime.store);
    // What a server that stopped after its first page leaves behind.
    const job = await runtime.store.knowledgeJobs.create(tenantId, {
      url: `${sites.url}/docs/getting-started.html`,
      strategy: 'spider',
      maxPages: 3,
      maxDepth: 1,
      domain: 'docs.local',
    });
    await runtime.store.knowledgeJobs.update(tenantId, job.id, {
      status: 'running',
      startedAt: new Date().toISOString(),
      frontier: [{ url: `${sites.url}/docs/webhooks.html`, depth: 1 }],
      visited: [`${sites.url}/docs/getting-started.html`],
      progress: { discovered: 2, fetched: 1, ingested: 1, unchanged: 0, skipped: 0, failed: 0 },
    });
    expect(await runtime.knowledge.jobs.resumeUnfinished()).toBe(1);
    const done = await new Promise<string>((resolve) => {
      const stop = runtime.knowledge.jobs.subscribe(tenantId, job.id, (next) => {
        if (next.status !== 'running') {
          stop();
          resolve(next.status);
        }
      });
    });
    expect(done).toBe('completed');
    const finished = await runtime.store.knowledgeJobs.get(tenantId, job.id);
    expect(finished?.progress.fetched).toBeGreaterThanOrEqual(2);
    const sources = (await runtime.store.knowledge.listDocuments(tenantId)).map((d) => d.sourceUrl);
    // The page fetched before the stop is not fetched again; the frontier's page is.
    expect(sources).toContain(`${sites.url}/docs/webhooks.html`);
    expect(sources).not.toContain(`${sites.url}/docs/getting-started.html`);
  });
});
