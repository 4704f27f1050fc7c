// POST /admin/knowledge/actions through a real runtime and in-memory store: the admin cookie
// and the same-origin rule guard it like the admin pages, every action is tenant-scoped, and
// every outcome is a 303 back to the page with a message it shows.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_COOKIE } from '../../../../server/admin-session';
import type { Runtime } from '../../../../server/runtime';
import { tenantWithKey, testRuntime } from '../../../../test/harness';
import { handleKnowledgeAction } from './knowledge-actions';

const ORIGIN = 'http://127.0.0.1:3000';

let runtime: Runtime;
let admin: { tenantId: string; key: string };

function post(
  fields: Record<string, string>,
  options: { key?: string | null; origin?: string | null } = {},
): Promise<Response> {
  const key = options.key === undefined ? admin.key : options.key;
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (key !== null) headers.cookie = `other=1; ${ADMIN_COOKIE}=${encodeURIComponent(key)}`;
  if (origin !== null) headers.origin = origin;
  return handleKnowledgeAction(
    runtime,
    new Request(`${ORIGIN}/admin/knowledge/actions`, {
      method: 'POST',
      headers,
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** The page the answer sends the browser back to, and its message. */
function outcome(res: Response): { path: string; notice: string | null; error: string | null } {
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get('location') ?? '', ORIGIN);
  return {
    path: location.pathname,
    notice: location.searchParams.get('notice'),
    error: location.searchParams.get('error'),
  };
}

async function uploadNotes(tenantId: string, fileName = 'notes.md'): Promise<string> {
  const stored = await runtime.knowledge.ingestion.ingestFile({
    tenantId,
    bytes: new TextEncoder().encode('# Refunds\n\nRefunds take five working days.\n'),
    fileName,
    mimeType: 'text/markdown',
    domain: '',
  });
  return stored.document.id;
}

beforeEach(async () => {
  runtime = await testRuntime();
  admin = await tenantWithKey(runtime.store, 'admin');
});
afterEach(async () => {
  await runtime.close();
});

describe('POST /admin/knowledge/actions: who may post', () => {
  it('sends a browser without the admin cookie to sign in', async () => {
    const res = await post({ action: 'settings', allowedDomains: '' }, { key: null });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/login?next=%2Fadmin%2Fknowledge');
  });

  it('answers 401 for an unknown key and 403 for a user key, changing nothing', async () => {
    const documentId = await uploadNotes(admin.tenantId);
    expect((await post({ action: 'delete', documentId }, { key: 'tdm_unknown' })).status).toBe(401);
    const user = await tenantWithKey(runtime.store, 'user');
    const userDoc = await uploadNotes(user.tenantId);
    const forbidden = await post({ action: 'delete', documentId: userDoc }, { key: user.key });
    expect(forbidden.status).toBe(403);
    expect(await runtime.store.knowledge.getDocument(user.tenantId, userDoc)).not.toBeNull();
    expect(await runtime.store.knowledge.getDocument(admin.tenantId, documentId)).not.toBeNull();
  });

  it('refuses a form posted from another origin (CSRF), and the literal "null" origin', async () => {
    const documentId = await uploadNotes(admin.tenantId);
    for (const origin of ['https://evil.example', 'null']) {
      const res = await post({ action: 'delete', documentId }, { origin });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('Cross-site');
    }
    expect(await runtime.store.knowledge.getDocument(admin.tenantId, documentId)).not.toBeNull();
    // A form without Origin (older clients) is judged by the cookie alone, as the sign-in is.
    expect(outcome(await post({ action: 'delete', documentId }, { origin: null })).notice).toMatch(
      /Deleted/,
    );
  });
});

describe('POST /admin/knowledge/actions: what it does', () => {
  it("deletes the tenant's document with its chunks, and never another tenant's", async () => {
    const mine = await uploadNotes(admin.tenantId);
    const other = await tenantWithKey(runtime.store, 'admin');
    const theirs = await uploadNotes(other.tenantId);
    expect((await runtime.store.knowledge.countChunks(admin.tenantId))[mine]).toBeGreaterThan(0);

    const deleted = outcome(await post({ action: 'delete', documentId: mine }));
    expect(deleted).toMatchObject({ path: '/admin/knowledge', error: null });
    expect(deleted.notice).toMatch(/^Deleted “.+” and its chunks\.$/);
    expect(await runtime.store.knowledge.getDocument(admin.tenantId, mine)).toBeNull();
    expect(await runtime.store.knowledge.countChunks(admin.tenantId)).toEqual({});

    const refused = outcome(await post({ action: 'delete', documentId: theirs }));
    expect(refused.error).toBe('No such knowledge document.');
    expect(await runtime.store.knowledge.getDocument(other.tenantId, theirs)).not.toBeNull();
  });

  it('saves the allowed domains (one per line, deduplicated) and refuses a bad one by line', async () => {
    const saved = outcome(
      await post({
        action: 'settings',
        allowedDomains: 'Docs.Example.com\n\nhelp.example.org\r\ndocs.example.com\n',
      }),
    );
    expect(saved.notice).toBe('Allowed domains saved: docs.example.com, help.example.org.');
    expect((await runtime.store.knowledge.getSettings(admin.tenantId)).allowedDomains).toEqual([
      'docs.example.com',
      'help.example.org',
    ]);

    const bad = outcome(
      await post({ action: 'settings', allowedDomains: 'docs.example.com\nhttps://x.example/' }),
    );
    expect(bad.error).toContain('“https://x.example/”');
    expect((await runtime.store.knowledge.getSettings(admin.tenantId)).allowedDomains).toHaveLength(
      2,
    );

    const cleared = outcome(await post({ action: 'settings', allowedDomains: '' }));
    expect(cleared.notice).toMatch(/cleared/);
    expect((await runtime.store.knowledge.getSettings(admin.tenantId)).allowedDomains).toEqual([]);
  });

  it('refuses to crawl a loopback URL by default and says why', async () => {
    const res = await post({
      action: 'index',
      url: 'http://127.0.0.1:9/docs/',
      strategy: 'sitemap',
      maxPages: '10',
      maxDepth: '2',
    });
    const { error } = outcome(res);
    expect(error).toMatch(/127\.0\.0\.1 resolves to a private or reserved address/);
    expect(error).toMatch(/KNOWLEDGE_ALLOW_PRIVATE_URLS=true/);
    // The form comes back as it was sent, to fix rather than to type again.
    const kept = new URL(res.headers.get('location') ?? '', ORIGIN).searchParams;
    expect(Object.fromEntries(kept)).toMatchObject({
      url: 'http://127.0.0.1:9/docs/',
      strategy: 'sitemap',
      maxPages: '10',
      maxDepth: '2',
    });

    // Re-indexing a page fetched from there is refused the same way.
    const stored = await runtime.knowledge.ingestion.ingestFile({
      tenantId: admin.tenantId,
      bytes: new TextEncoder().encode('# Intranet\n\nThe VPN needs a token.\n'),
      fileName: 'intranet.md',
      mimeType: 'text/markdown',
      domain: '127.0.0.1',
      sourceUrl: 'http://127.0.0.1:9/intranet',
    });
    const reindex = outcome(await post({ action: 'reindex', documentId: stored.document.id }));
    expect(reindex.error).toMatch(/private or reserved address/);

    // And a site outside the allowed domains.
    await runtime.store.knowledge.updateSettings(admin.tenantId, {
      allowedDomains: ['docs.example.com'],
    });
    const elsewhere = outcome(await post({ action: 'index', url: 'https://other.example/' }));
    expect(elsewhere.error).toBe('other.example is not in the allowed domains.');
    expect(await runtime.store.knowledgeJobs.list(admin.tenantId)).toEqual([]);
  });

  it('shows a refusal thrown by another copy of the error class (a bundle can hold two)', async () => {
    // What `next build` does: the crawl check throws from the runtime's chunk, whose
    // CrawlRefusedError is not this module's, so only its name says what it is.
    const foreign = Object.assign(new Error('intranet.example is not in the allowed domains.'), {
      name: 'CrawlRefusedError',
    });
    runtime.knowledge.jobs.start = () => Promise.reject(foreign);
    const res = await post({ action: 'index', url: 'https://intranet.example/' });
    expect(outcome(res).error).toBe('intranet.example is not in the allowed domains.');
    // Anything else stays "Internal server error." (no internals on the page).
    runtime.knowledge.jobs.start = () =>
      Promise.reject(new Error('SQLITE_BUSY: database is locked'));
    const failed = await post({ action: 'index', url: 'https://intranet.example/' });
    expect(outcome(failed).error).toBe('Internal server error.');
  });

  it('checks the crawl form with the contract: a bad URL or limit is a message, no job', async () => {
    const badUrl = outcome(await post({ action: 'index', url: 'ftp://docs.example/' }));
    expect(badUrl.error).toMatch(/^Cannot index: url:/);
    const badLimit = outcome(
      await post({ action: 'index', url: 'https://docs.example/', maxPages: '9999' }),
    );
    expect(badLimit.error).toMatch(/maxPages/);
    expect(await runtime.store.knowledgeJobs.list(admin.tenantId)).toEqual([]);
  });

  it("cancels the tenant's unfinished job, and not another tenant's", async () => {
    const job = await runtime.store.knowledgeJobs.create(admin.tenantId, {
      url: 'https://docs.example/',
      strategy: 'sitemap',
      maxPages: 10,
      maxDepth: 0,
      domain: 'docs.example',
    });
    const other = await tenantWithKey(runtime.store, 'admin');
    const theirs = await runtime.store.knowledgeJobs.create(other.tenantId, {
      url: 'https://other.example/',
      strategy: 'single',
      maxPages: 1,
      maxDepth: 0,
      domain: 'other.example',
    });

    expect(outcome(await post({ action: 'cancel', jobId: theirs.id })).error).toBe(
      'No such knowledge job.',
    );
    expect((await runtime.store.knowledgeJobs.get(other.tenantId, theirs.id))?.status).toBe(
      'queued',
    );
    expect(outcome(await post({ action: 'cancel', jobId: job.id })).notice).toBe(
      'Cancelled the crawl of https://docs.example/.',
    );
    expect((await runtime.store.knowledgeJobs.get(admin.tenantId, job.id))?.status).toBe(
      'cancelled',
    );
    expect(outcome(await post({ action: 'cancel', jobId: job.id })).notice).toMatch(
      /had already cancelled/,
    );
  });

  it('retries a crawl that failed in the queue, from where it stopped, and only such a crawl', async () => {
    // A process that runs jobs only once told to (serve()), so the failure can be set up first.
    await runtime.close();
    runtime = await testRuntime({
      KNOWLEDGE_ALLOW_PRIVATE_URLS: 'true',
      KNOWLEDGE_CRAWL_DELAY_MS: '0',
      RUN_JOBS: 'false',
    });
    admin = await tenantWithKey(runtime.store, 'admin');
    const site = createServer((req, res) => {
      const links = req.url === '/' ? '<a href="/a">A</a> <a href="/b">B</a>' : '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<html><head><title>${req.url}</title></head><body><main><h1>${req.url}</h1><p>${'Refunds take five working days. '.repeat(20)}</p>${links}</main></body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const port = (site.address() as AddressInfo).port;
      const start = () =>
        runtime.knowledge.jobs.start(admin.tenantId, admin.tenantId, {
          url: `http://127.0.0.1:${port}/`,
          strategy: 'spider',
          maxPages: 3,
          maxDepth: 1,
        });
      const job = await start();
      // Its worker's last attempt failed (the store was down): the queue and the record say so.
      const claimed = await runtime.store.queuedJobs.claim('crawl', 'dead-worker', 30_000);
      expect(claimed?.id).toBe(job.id);
      const failed = 'The crawl stopped 3 times: the store was unreachable.';
      await runtime.store.queuedJobs.fail('crawl', job.id, 'dead-worker', failed, null);
      await runtime.store.knowledgeJobs.update(admin.tenantId, job.id, {
        status: 'failed',
        error: failed,
        finishedAt: new Date().toISOString(),
      });
      // A crawl the quota stopped did not fail in the queue (its job completed): a retry
      // cannot mend it.
      const stopped = await start();
      expect((await runtime.store.queuedJobs.claim('crawl', 'dead-worker', 30_000))?.id).toBe(
        stopped.id,
      );
      expect(await runtime.store.queuedJobs.complete('crawl', stopped.id, 'dead-worker')).toBe(
        true,
      );
      await runtime.store.knowledgeJobs.update(admin.tenantId, stopped.id, {
        status: 'failed',
        error: 'The knowledge quota is full.',
        finishedAt: new Date().toISOString(),
      });
      expect(outcome(await post({ action: 'retry', jobId: stopped.id })).error).toMatch(
        /cannot be retried \(The knowledge quota is full\.\): index it again/,
      );
      expect(await runtime.store.knowledgeJobs.get(admin.tenantId, stopped.id)).toMatchObject({
        status: 'failed',
        error: 'The knowledge quota is full.',
      });
      // Another tenant's admin cannot retry it.
      const other = await tenantWithKey(runtime.store, 'admin');
      expect(
        outcome(await post({ action: 'retry', jobId: job.id }, { key: other.key })).error,
      ).toBe('No such knowledge job.');

      expect(outcome(await post({ action: 'retry', jobId: job.id })).notice).toBe(
        `Retrying the crawl of http://127.0.0.1:${port}/ from where it stopped.`,
      );
      expect(await runtime.store.knowledgeJobs.get(admin.tenantId, job.id)).toMatchObject({
        status: 'queued',
        error: null,
        finishedAt: null,
      });
      runtime.knowledge.jobs.serve();
      await expect
        .poll(async () => (await runtime.store.knowledgeJobs.get(admin.tenantId, job.id))?.status, {
          timeout: 20_000,
        })
        .toBe('completed');
      expect(
        (await runtime.store.knowledgeJobs.get(admin.tenantId, job.id))?.progress,
      ).toMatchObject({ fetched: 3, ingested: 3 });
      expect(outcome(await post({ action: 'retry', jobId: job.id })).notice).toMatch(
        /is completed: nothing to retry/,
      );
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('re-indexes only documents fetched from the web, and names unknown actions', async () => {
    const uploaded = await uploadNotes(admin.tenantId);
    expect(outcome(await post({ action: 'reindex', documentId: uploaded })).error).toMatch(
      /was uploaded: upload the file again/,
    );
    expect(outcome(await post({ action: 'reindex', documentId: 'nope' })).error).toBe(
      'No such knowledge document.',
    );
    expect(outcome(await post({ action: 'constructor' })).error).toBe('Unknown action.');
    expect(outcome(await post({})).error).toBe('Unknown action.');
  });
});
