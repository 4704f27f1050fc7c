// Untrusted input (docs/security-operations.md) through the real routes, the real store and the
// real parse pool (worker threads): budgets answered 422 naming their setting, and each tenant's
// fair share answered 429 with Retry-After. The model is a loopback Gemini the server's SDK talks
// to, held until the test lets it answer, so runs overlap exactly as the test says.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorResponse } from '@tandem/contracts';
import { startFakeHttpServer, type FakeHttpServer } from '@tandem/agent/testing';
import { geminiTurnResponse, isToolCallingRequest } from '@tandem/documents/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as extract } from '../app/api/extract/route';
import { POST as createExtraction } from '../app/api/extractions/route';
import { POST as indexLink } from '../app/api/knowledge/index-link/route';
import { uploadStored } from '../test/documents';
import { request, tenantWithKey, testRuntime } from '../test/harness';
import type { Runtime } from './runtime';

/** Answers once the test opens the gate; every request waits until then. */
function gate() {
  let open: () => void = () => {};
  let opened = new Promise<void>((resolve) => (open = resolve));
  return {
    wait: () => opened,
    open: () => open(),
    close: () => {
      opened = new Promise<void>((resolve) => (open = resolve));
    },
  };
}

const modelGate = gate();
const siteGate = gate();
let gemini: FakeHttpServer;
let site: Server;
let siteUrl: string;
let runtime: Runtime;
let key: string;
let tenantId: string;

beforeAll(async () => {
  gemini = await startFakeHttpServer(async (r) => {
    // Embedding calls (a crawl's chunks) fail at once: their pages are stored lexical-only.
    if (!isToolCallingRequest(r.body)) return { status: 400, body: { error: { message: 'no' } } };
    await modelGate.wait();
    return { body: geminiTurnResponse(r.body) };
  });
  site = createServer((req, res) => {
    void siteGate.wait().then(() => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<html><body><main><h1>Page ${req.url}</h1><p>${'Text. '.repeat(50)}</p></main></body></html>`,
      );
    });
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  modelGate.open();
  siteGate.open();
  await gemini.close();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

beforeEach(async () => {
  modelGate.close();
  siteGate.close();
  runtime = await testRuntime({
    GEMINI_API_KEY: 'fake-key-for-a-loopback-gemini',
    GEMINI_BASE_URL: gemini.url,
    // The crawl below fetches a loopback site; the cap under test is not this option.
    KNOWLEDGE_ALLOW_PRIVATE_URLS: 'true',
  });
  ({ key, tenantId } = await tenantWithKey(runtime.store));
});
afterEach(async () => {
  modelGate.open();
  siteGate.open();
  await runtime.jobs.close();
  await runtime.parsing.close();
  await runtime.close();
});

async function errorOf(response: Response) {
  return { status: response.status, ...ErrorResponse.parse(await response.json()).error };
}

const nestedDivs = (depth: number) => `${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}`;

describe('POST /api/extract budgets', () => {
  const post = (body: unknown, rawBody?: string) =>
    extract.withRuntime(runtime)(
      request('/api/extract', {
        method: 'POST',
        key,
        ...(rawBody === undefined
          ? { body }
          : { rawBody, headers: { 'content-type': 'application/json' } }),
      }),
    );

  it('refuses 5,000 and 50,000 nested <div> with 422 naming HTML_MAX_DEPTH', async () => {
    for (const depth of [5_000, 50_000]) {
      const answer = await errorOf(await post({ html: nestedDivs(depth), query: 'the text' }));
      expect(answer).toEqual({
        status: 422,
        code: 'INPUT_TOO_COMPLEX',
        message:
          'The page nests elements more than 512 levels deep; the limit is 512 levels (HTML_MAX_DEPTH).',
      });
    }
  });

  it('refuses a body nested 6,000 deep before parsing it, naming STRUCTURED_MAX_DEPTH', async () => {
    const schema = `${'{"type":"array","items":'.repeat(3_000)}{"type":"string"}${'}'.repeat(3_000)}`;
    const answer = await errorOf(
      await post(undefined, `{"html":"<p>x</p>","query":"q","outputSchema":${schema}}`),
    );
    expect(answer.status).toBe(422);
    expect(answer.message).toBe(
      'The request body nests at least 65 levels; the limit is 64 levels (STRUCTURED_MAX_DEPTH).',
    );
  });

  it('refuses an outputSchema past SCHEMA_MAX_DEPTH with 422', async () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 14; i++) schema = { type: 'array', items: schema };
    const answer = await errorOf(
      await post({ html: '<p>x</p>', query: 'q', outputSchema: schema }),
    );
    expect(answer).toEqual({
      status: 422,
      code: 'INPUT_TOO_COMPLEX',
      message: 'outputSchema nests at least 13 levels; the limit is 12 levels (SCHEMA_MAX_DEPTH).',
    });
  });
});

describe('fair share per tenant', () => {
  const uploadText = async (): Promise<string> =>
    (
      await uploadStored(runtime, key, {
        bytes: 'Invoice 7\nTotal: 12.50 EUR\n',
        name: 'i.txt',
        type: 'text/plain',
      })
    ).id;

  it('starts DOCUMENT_RUNS_PER_TENANT runs at once and answers the rest 429 with Retry-After', async () => {
    const documentId = await uploadText();
    const start = () =>
      createExtraction.withRuntime(runtime)(
        request('/api/extractions', { method: 'POST', key, body: { documentId } }),
      );
    const answers = await Promise.all(Array.from({ length: 6 }, start));
    const running = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(running).toHaveLength(2);
    expect(refused).toHaveLength(4);
    expect(refused[0]?.headers.get('retry-after')).toBe('10');
    expect((await errorOf(refused[0] as Response)).message).toBe(
      'This account already has 2 document extractions running, the most it may have at once (DOCUMENT_RUNS_PER_TENANT); try again when one is done.',
    );
    // The two runs end; their slots are free again.
    modelGate.open();
    for (const run of running) expect(await run.text()).toContain('"complete"');
    const again = await start();
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('"complete"');
  });

  it('queues KNOWLEDGE_CRAWLS_PER_TENANT crawls and answers the next 429', async () => {
    const crawl = (path: string) =>
      indexLink.withRuntime(runtime)(
        request('/api/knowledge/index-link', {
          method: 'POST',
          key,
          body: { url: `${siteUrl}${path}`, strategy: 'single' },
        }),
      );
    const answers = await Promise.all(['/a', '/b', '/c', '/d'].map(crawl));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 202, 429, 429]);
    const refused = answers.find((a) => a.status === 429) as Response;
    expect(refused.headers.get('retry-after')).toBe('30');
    expect((await errorOf(refused)).message).toContain('(KNOWLEDGE_CRAWLS_PER_TENANT)');
    const allCrawlsEnded = () =>
      expect
        .poll(
          async () =>
            (await runtime.store.knowledgeJobs.list(tenantId, { status: ['queued', 'running'] }))
              .length,
          { timeout: 20_000 },
        )
        .toBe(0);
    // The two crawls fetch their pages and end; a third may start then.
    siteGate.open();
    await allCrawlsEnded();
    expect((await crawl('/e')).status).toBe(202);
    await allCrawlsEnded();
  });
});
