// Background work across processes, on the production build, with the embedded store
// and queue (then on Redis: BullMQ and pub/sub, with worker processes) and their defaults: several `next start` processes on one data directory, as behind a load
// balancer. A crawl runs on one worker at a time; when the process running it is killed
// (SIGKILL), another takes it over from its stored frontier within a lease (30 s) and a poll;
// processes started during a crawl never fetch its pages a second time.
//
// The site counts completed page responses per URL. Before the kill it holds new requests
// unanswered and waits until no answer is under way and every answered page is stored: the
// kill then cuts only requests that never got an answer, so "fetched once" is a statement about
// the takeover and not about a page cut in half by the kill, which any crawler fetches again.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { readSse } from '@tandem/contracts';
import {
  redisServerInstalled,
  redisServerMissing,
  startRedisServer,
  type RedisServer,
} from '@tandem/jobs/testing';
import { e2eEnv } from './support/env';
import type { WorkerProcess } from '@tandem/server/worker-process';
import { startTandemServer, startTandemWorker, type TandemServer } from './support/tandem-server';

const PAGES = 40;
/** Slow enough that a crawl of 40 pages lasts several seconds on any machine. */
const PAGE_DELAY_MS = 300;
const TAKEOVER_WITHIN_MS = 60_000;

interface Site {
  url: string;
  /** Completed responses per page path. */
  fetched: Map<string, number>;
  /** Answers being sent now (held requests are not). */
  inFlight: () => number;
  /** Holds new page requests unanswered until released (their clients may die meanwhile). */
  hold(on: boolean): void;
  close(): Promise<void>;
}

async function startSite(): Promise<Site> {
  const fetched = new Map<string, number>();
  let inFlight = 0;
  let holding = false;
  const held: (() => void)[] = [];
  let base = '';
  const pagePaths = Array.from({ length: PAGES }, (_, i) => `/docs/page-${i}.html`);
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`User-agent: *\nAllow: /\nSitemap: ${base}/sitemap.xml\n`);
      return;
    }
    if (url.pathname === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pagePaths
          .map((p) => `<url><loc>${base}${p}</loc></url>`)
          .join('')}</urlset>`,
      );
      return;
    }
    const index = pagePaths.indexOf(url.pathname);
    if (index < 0) {
      res.writeHead(404).end();
      return;
    }
    const answer = () => {
      if (res.destroyed) return;
      inFlight++;
      res.on('close', () => inFlight--);
      res.on('finish', () => fetched.set(url.pathname, (fetched.get(url.pathname) ?? 0) + 1));
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html><head><title>Guide ${index}</title></head><body><main>` +
            `<h1>Guide ${index}</h1><p>Step ${index} of the setup guide explains topic ${index} ` +
            `with enough words to be worth storing: configure, verify and deploy part ${index}.</p>` +
            `</main></body></html>`,
        );
      }, PAGE_DELAY_MS);
    };
    if (holding) held.push(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    fetched,
    inFlight: () => inFlight,
    hold(on) {
      holding = on;
      if (!on) for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface JobView {
  id: string;
  status: string;
  progress: { fetched: number; ingested: number; unchanged: number; failed: number };
}

const api = (server: TandemServer) => ({
  async crawl(url: string): Promise<JobView> {
    const res = await fetch(`${server.url}/api/knowledge/index-link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, strategy: 'sitemap', maxPages: PAGES }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { job: JobView }).job;
  },
  async job(id: string): Promise<JobView> {
    const res = await fetch(`${server.url}/api/knowledge/jobs/${id}`, {
      headers: { authorization: `Bearer ${server.apiKey}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { job: JobView }).job;
  },
});

const processOptions = () => ({
  gemini: e2eEnv().gemini,
  // The crawled site is on this machine: allowing that is what this option is for.
  env: { KNOWLEDGE_ALLOW_PRIVATE_URLS: 'true' },
});

const total = (site: Site) => [...site.fetched.values()].reduce((sum, n) => sum + n, 0);

/**
 * Waits for a quiet moment of the crawl (new requests held, no answer under way, every answered
 * page stored, as `reader` sees the job), kills `victim` in it, and lets the site answer again.
 * Returns the pages fetched before the kill and when it happened.
 */
async function killInQuietMoment(
  site: Site,
  job: JobView,
  reader: TandemServer,
  victim: { stop(signal: NodeJS.Signals): Promise<void> },
): Promise<{ before: number; killedAt: number }> {
  site.hold(true);
  const quietDeadline = Date.now() + 20_000;
  for (;;) {
    const stored = await api(reader).job(job.id);
    if (site.inFlight() === 0 && stored.progress.fetched === total(site)) break;
    expect(Date.now()).toBeLessThan(quietDeadline);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const before = total(site);
  expect(before).toBeLessThan(PAGES);
  await victim.stop('SIGKILL');
  const killedAt = Date.now();
  site.hold(false);
  return { before, killedAt };
}

/** Every page fetched exactly once, and the job's counts say so. */
function expectEachPageOnce(site: Site, done: JobView): void {
  expect(site.fetched.size).toBe(PAGES);
  expect([...site.fetched.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  expect(done.progress).toMatchObject({ fetched: PAGES, ingested: PAGES, unchanged: 0, failed: 0 });
}

test.describe('crawls across server processes on one data directory', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });
  let site: Site;
  const servers: TandemServer[] = [];
  const start = async (shareWith?: TandemServer) => {
    const server = await startTandemServer({
      ...processOptions(),
      ...(shareWith ? { shareWith } : {}),
    });
    servers.push(server);
    return server;
  };

  test.beforeEach(async () => {
    site = await startSite();
  });
  test.afterEach(async () => {
    // Sharers first: the owner deletes the data directory.
    for (const server of servers.reverse()) await server.close();
    servers.length = 0;
    await site.close();
  });

  test('the process running a crawl is killed: another finishes it, each page fetched once', async () => {
    // A alone when the crawl starts: A runs it. B joins during the crawl, as a second replica.
    const a = await start();
    const job = await api(a).crawl(`${site.url}/docs/`);
    await expect.poll(() => site.fetched.size, { timeout: 30_000 }).toBeGreaterThan(2);
    const b = await start(a);
    const { before, killedAt } = await killInQuietMoment(site, job, b, a);
    await expect
      .poll(async () => (await api(b).job(job.id)).status, { timeout: TAKEOVER_WITHIN_MS })
      .toBe('completed');
    const tookMs = Date.now() - killedAt;
    const done = await api(b).job(job.id);
    console.log(
      `takeover (embedded): ${before} pages fetched before SIGKILL, finished ${tookMs} ms ` +
        `after it; progress ${JSON.stringify(done.progress)}`,
    );
    expect(tookMs).toBeLessThan(TAKEOVER_WITHIN_MS);
    expectEachPageOnce(site, done);
  });

  test('processes started during a crawl fetch none of its pages again', async () => {
    const a = await start();
    const job = await api(a).crawl(`${site.url}/docs/`);
    await expect.poll(() => site.fetched.size, { timeout: 30_000 }).toBeGreaterThan(2);
    await start(a);
    await start(a);
    await expect
      .poll(async () => (await api(a).job(job.id)).status, { timeout: 60_000 })
      .toBe('completed');
    expectEachPageOnce(site, await api(a).job(job.id));
  });

  test('an SSE client on one process sees the steps sent to another within a second', async () => {
    const a = await start();
    const b = await start(a);
    await expectStepsAcross(a, b, 'embedded');
  });
});

// The scale path (REDIS_URL): jobs on BullMQ, live events on Redis pub/sub. A web process that
// runs no jobs (RUN_JOBS=false) and two workers (`npm run worker`) on one store and one Redis.
test.describe('crawls on Redis: a web process and two workers', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });
  test.skip(!redisServerInstalled(), redisServerMissing('the Redis e2e of job-takeover.spec.ts'));
  let redis: RedisServer;
  let site: Site;
  const webs: TandemServer[] = [];
  const workers: WorkerProcess[] = [];
  const options = () => ({
    ...processOptions(),
    env: { ...processOptions().env, REDIS_URL: redis.url },
  });
  const web = async (shareWith?: TandemServer) => {
    const server = await startTandemServer({
      ...options(),
      env: { ...options().env, RUN_JOBS: 'false' },
      ...(shareWith ? { shareWith } : {}),
    });
    webs.push(server);
    return server;
  };
  const worker = async (shareWith: TandemServer) => {
    const started = await startTandemWorker({ ...options(), shareWith });
    workers.push(started);
    return started;
  };

  test.beforeAll(async () => {
    redis = await startRedisServer();
  });
  test.afterAll(async () => {
    await redis.stop();
  });
  test.beforeEach(async () => {
    site = await startSite();
  });
  test.afterEach(async () => {
    for (const w of workers.splice(0)) await w.stop('SIGTERM');
    for (const server of webs.reverse()) await server.close();
    webs.length = 0;
    await site.close();
  });

  test('the worker running a crawl is killed: the other finishes it, each page fetched once', async () => {
    const w = await web();
    // The first worker alone when the crawl starts: it runs it. The second joins during it.
    const first = await worker(w);
    const job = await api(w).crawl(`${site.url}/docs/`);
    await expect.poll(() => site.fetched.size, { timeout: 30_000 }).toBeGreaterThan(2);
    const second = await worker(w);
    const { before, killedAt } = await killInQuietMoment(site, job, w, first);
    await expect
      .poll(async () => (await api(w).job(job.id)).status, { timeout: TAKEOVER_WITHIN_MS })
      .toBe('completed');
    const tookMs = Date.now() - killedAt;
    const done = await api(w).job(job.id);
    console.log(
      `takeover (Redis, 2 workers): ${before} pages fetched before SIGKILL, finished ${tookMs} ` +
        `ms after it; progress ${JSON.stringify(done.progress)}`,
    );
    expect(tookMs).toBeLessThan(TAKEOVER_WITHIN_MS);
    expectEachPageOnce(site, done);
    // The web process ran none of it; the second worker took it over.
    expect(w.output()).not.toMatch(/crawl finished/);
    expect(second.output()).toMatch(/crawl finished/);
  });

  test('an SSE client on one web process sees the steps sent to another within a second', async () => {
    const a = await web();
    const b = await web(a);
    await expectStepsAcross(a, b, 'Redis');
  });
});

/** A task driven through A while an SSE client listens on B: the step reaches B within 1 s. */
async function expectStepsAcross(a: TandemServer, b: TandemServer, mode: string): Promise<void> {
  const tree = [
    { i: 'next', r: 'btn', n: 'Next' },
    { i: 'logout', r: 'link', n: 'Logout' },
    ...Array.from({ length: 30 }, (_, k) => ({ i: `l${k}`, r: 'link', n: `Item ${k}` })),
  ];
  const interact = async (body: Record<string, unknown>) => {
    const res = await fetch(`${a.url}/api/agent/interact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ idempotencyKey: crypto.randomUUID(), ...body }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { taskId: string; sessionId: string };
  };
  // SIMPLE: "click Logout" is resolved without a model.
  const first = await interact({
    url: 'https://app.example/home',
    query: 'click Logout',
    interactiveTree: tree,
  });
  // Aborted at the end whatever happens: an open stream would hold B's shutdown.
  const streamAbort = new AbortController();
  const stream = await fetch(`${b.url}/api/tasks/${first.taskId}/events`, {
    headers: { authorization: `Bearer ${b.apiKey}`, accept: 'text/event-stream' },
    signal: streamAbort.signal,
  });
  expect(stream.status).toBe(200);
  if (!stream.body) throw new Error('the event stream has no body');
  const body = stream.body;
  const frames: { event: string; at: number }[] = [];
  const reading = (async () => {
    for await (const message of readSse(body)) {
      if (message.event) frames.push({ event: message.event, at: Date.now() });
    }
  })();
  const continueOnA = async () => {
    const before = frames.filter((f) => f.event === 'step').length;

    await interact({
      taskId: first.taskId,
      sessionId: first.sessionId,
      lastActionStatus: 'success',
      clientObservations: { didUrlChange: true, didDomMutate: true },
      url: 'https://app.example/signed-out',
      interactiveTree: [{ i: 'signin', r: 'btn', n: 'Sign in' }],
    });
    const answeredAt = Date.now();
    await expect
      .poll(() => frames.filter((f) => f.event === 'step').length, { timeout: 5_000 })
      .toBeGreaterThan(before);
    const step = frames.filter((f) => f.event === 'step')[before];
    const lagMs = (step?.at ?? Infinity) - answeredAt;
    console.log(
      `live events (${mode}): the step sent to A reached B's stream ${lagMs} ms after A answered`,
    );
    expect(lagMs).toBeLessThan(1_000);
    await expect.poll(() => frames.some((f) => f.event === 'done'), { timeout: 10_000 }).toBe(true);
  };
  // B answered 200: its stream listens. A records the next step now.
  try {
    await continueOnA();
  } finally {
    streamAbort.abort();
    await reading.catch(() => undefined);
  }
}
