// Crawl progress across server processes on one store: a runtime that runs jobs and one that
// does not (RUN_JOBS=false, as a web process beside workers), each with its own connection to
// one libSQL file. Every page's progress published where the crawl runs reaches the other
// process's listeners within a second, in order, ending with the finished job.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { KnowledgeJobView } from '@tandem/contracts';
import { createLibsqlStore } from '@tandem/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantWithKey, testRuntime } from '../test/harness';
import type { Runtime } from './runtime';

const PAGES = 8;
const dir = mkdtempSync(path.join(tmpdir(), 'tandem-crawl-events-'));
const url = `file:${path.join(dir, 'tandem.db')}`;
const runtimes: Runtime[] = [];
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  site = createServer((req, res) => {
    const links = Array.from({ length: PAGES - 1 }, (_, i) => `<a href="/p${i}">Page ${i}</a>`);
    const text = `Page ${req.url} explains how refunds work, step by step. `.repeat(25);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<html><head><title>${req.url}</title></head><body><main><h1>${req.url}</h1><p>${text}</p>${
        req.url === '/' ? links.join(' ') : ''
      }</main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
});

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  await new Promise((resolve) => site.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const open = async (runJobs: boolean) => {
  const runtime = await testRuntime(
    {
      KNOWLEDGE_ALLOW_PRIVATE_URLS: 'true',
      KNOWLEDGE_CRAWL_DELAY_MS: '0',
      RUN_JOBS: String(runJobs),
    },
    await createLibsqlStore({ url }),
  );
  runtimes.push(runtime);
  return runtime;
};

describe('crawl events across processes', () => {
  it('every page’s progress reaches a process that does not run the crawl, within a second', async () => {
    const runner = await open(true);
    const web = await open(false);
    const { tenantId } = await tenantWithKey(web.store);
    // Queued through the web process, run by the other one.
    const job = await web.knowledge.jobs.start(tenantId, null, {
      url: siteUrl,
      strategy: 'spider',
      maxPages: PAGES,
      maxDepth: 1,
    });
    const seen = { runner: [] as KnowledgeJobView[], web: [] as KnowledgeJobView[] };
    const lag: number[] = [];
    runner.knowledge.jobs.subscribe(tenantId, job.id, (view) => seen.runner.push(view));
    web.knowledge.jobs.subscribe(tenantId, job.id, (view) => {
      seen.web.push(view);
      lag.push(Date.now() - Date.parse(view.updatedAt));
    });
    // Another tenant's listener on the same job id hears nothing.
    const foreign: KnowledgeJobView[] = [];
    web.knowledge.jobs.subscribe('another-tenant', job.id, (view) => foreign.push(view));

    await expect
      .poll(() => seen.web.at(-1)?.status, { timeout: 30_000, interval: 100 })
      .toBe('completed');
    await expect.poll(() => seen.runner.at(-1)?.status, { timeout: 2_000 }).toBe('completed');
    // The crawl ran where jobs run, and the web process heard each of its changes once, in order.
    const stored = await web.store.knowledgeJobs.get(tenantId, job.id);
    expect(stored?.progress).toMatchObject({ fetched: PAGES, ingested: PAGES });
    expect(seen.web).toEqual(seen.runner);
    expect(seen.web.filter((v) => v.status === 'running').length).toBeGreaterThanOrEqual(PAGES);
    expect(seen.web.map((v) => v.progress.fetched)).toEqual(
      [...seen.web.map((v) => v.progress.fetched)].sort((a, b) => a - b),
    );
    expect(Math.max(...lag)).toBeLessThan(1_000);
    expect(foreign).toEqual([]);
  });
});
