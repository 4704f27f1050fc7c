// The worker process for real: a web runtime with RUN_JOBS=false queues a crawl and runs none of
// it; `tsx src/worker.ts` on the same data directory (the embedded queue) takes the crawl and
// finishes it, and SIGTERM stops the worker cleanly.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createStore } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseEnv } from './env';
import { createRuntime, type Runtime } from './server/runtime';
import { tenantWithKey } from './test/harness';
import { startWorkerProcess, type WorkerProcess } from './testing/worker-process';

const PAGES = 6;

let dataDir: string;
let site: Server;
let siteUrl: string;
let fetched: string[];
let runtime: Runtime | null;
let worker: WorkerProcess | null;

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tandem-worker-'));
  fetched = [];
  // A small site: a home page linking to PAGES - 1 articles.
  site = createServer((req, res) => {
    fetched.push(req.url ?? '');
    const links = Array.from({ length: PAGES - 1 }, (_, i) => `<a href="/a${i}">Article ${i}</a>`);
    const body =
      req.url === '/'
        ? `<html><head><title>Home</title></head><body><main><h1>Home</h1><p>${'Welcome to the documentation. '.repeat(20)}</p>${links.join(' ')}</main></body></html>`
        : `<html><head><title>Article ${req.url}</title></head><body><main><h1>Article ${req.url}</h1><p>${`Refunds for ${req.url} take five working days. `.repeat(20)}</p></main></body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  runtime = null;
  worker = null;
});

afterEach(async () => {
  await worker?.stop('SIGKILL');
  await runtime?.close();
  await new Promise((resolve) => site.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

const settings: Record<string, string> = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'info',
  KNOWLEDGE_ALLOW_PRIVATE_URLS: 'true',
  KNOWLEDGE_CRAWL_DELAY_MS: '0',
};

describe('npm run worker', () => {
  it('runs the crawls a web process with RUN_JOBS=false only queued, and stops on SIGTERM', async () => {
    const env = parseEnv({ ...settings, DATA_DIR: dataDir, RUN_JOBS: 'false' });
    expect(env.RUN_JOBS).toBe(false);
    runtime = await createRuntime({ env, store: await createStore({ dataDir }) });
    const { tenantId } = await tenantWithKey(runtime.store);
    const job = await runtime.knowledge.jobs.start(tenantId, null, {
      url: siteUrl,
      strategy: 'spider',
      maxPages: PAGES,
      maxDepth: 1,
    });
    // Three of the embedded queue's polls: the web process takes nothing.
    await sleep(3_000);
    expect((await runtime.store.knowledgeJobs.get(tenantId, job.id))?.status).toBe('queued');
    expect(fetched).toEqual([]);

    // The test's own environment (PATH, HOME) plus the worker's settings.
    // eslint-disable-next-line no-restricted-properties -- passed through to the child, not read
    worker = await startWorkerProcess({ ...process.env, ...settings, DATA_DIR: dataDir });
    const output = worker.output;
    const deadline = Date.now() + 60_000;
    let status = 'queued';
    while (Date.now() < deadline) {
      status = (await runtime.store.knowledgeJobs.get(tenantId, job.id))?.status ?? 'missing';
      if (status === 'completed' || status === 'failed') break;
      await sleep(200);
    }
    const done = await runtime.store.knowledgeJobs.get(tenantId, job.id);
    expect(status, output()).toBe('completed');
    expect(done?.progress).toMatchObject({ fetched: PAGES, ingested: PAGES });
    // Each page once (the site's robots.txt is asked for too).
    const pages = fetched.filter((url) => url !== '/robots.txt');
    expect(new Set(pages).size).toBe(PAGES);
    expect(pages).toHaveLength(PAGES);
    expect(output()).toMatch(/worker started .*queue="embedded \(in the store\)"/);

    await worker.stop('SIGTERM');
    expect(worker.exitCode()).toBe(0);
    expect(output()).toMatch(/worker stopped/);
  }, 120_000);
});
