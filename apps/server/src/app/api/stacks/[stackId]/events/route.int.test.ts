// Stack runs as jobs, through the routes: runtimes on one libSQL file (as `next start` processes
// and `npm run worker` on one DATA_DIR). A stack started through process A's POST is followed
// through process B's GET /api/stacks/{id}/events to the same `complete`, and a finished stack
// answers its `complete` at once; a web process that runs no jobs (RUN_JOBS=false) queues a
// stack that a worker runs, holding one of the tenant's document-run slots meanwhile (429 past
// DOCUMENT_RUNS_PER_TENANT, for stacks and extractions alike); another tenant's or user's stack
// is a 404. The model is a loopback Gemini API (the real SDK talks to it) answering with the
// scripted stack model, each turn after a pause so the run is under way while B connects.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ErrorResponse, StackStreamEvent, StackView } from '@tandem/contracts';
import { startFakeHttpServer, type FakeHttpServer } from '@tandem/agent/testing';
import {
  geminiTurnResponse,
  invoiceVariant,
  isToolCallingRequest,
  renderPdf,
} from '@tandem/documents/testing';
import { createLibsqlStore } from '@tandem/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../../server/runtime';
import { uploadInvoice, uploadStored } from '../../../../../test/documents';
import { request, sseMessages, tenantWithKey, testRuntime } from '../../../../../test/harness';
import { POST as createExtraction } from '../../../extractions/route';
import { GET as getStack } from '../route';
import { POST as createStack } from '../../route';
import { GET as followEvents } from './route';

const TURN_DELAY_MS = 300;
const dir = mkdtempSync(path.join(tmpdir(), 'tandem-stack-events-'));
let gemini: FakeHttpServer;
const runtimes: Runtime[] = [];

beforeAll(async () => {
  gemini = await startFakeHttpServer((r) => {
    if (!isToolCallingRequest(r.body))
      return { status: 400, body: { error: { message: 'not a tool call' } } };
    return {
      body: geminiTurnResponse(r.body),
      delayMs: TURN_DELAY_MS,
    };
  });
});

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  await gemini.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A process on database `db` (each test its own: a process that serves the queue runs any
 * stack queued on its database).
 */
const open = async (db: string, env: Record<string, string> = {}) => {
  const runtime = await testRuntime(
    { GEMINI_API_KEY: 'fake-key-for-a-loopback-gemini', GEMINI_BASE_URL: gemini.url, ...env },
    await createLibsqlStore({ url: `file:${path.join(dir, `${db}.db`)}` }),
  );
  runtimes.push(runtime);
  return runtime;
};

const events = async (res: Response): Promise<StackStreamEvent[]> =>
  (await sseMessages(res)).map((message) => StackStreamEvent.parse(message.data));

const follow = (runtime: Runtime, id: string, key: string) =>
  followEvents.withRuntime(runtime)(request(`/api/stacks/${id}/events`, { key }), {
    params: Promise.resolve({ stackId: id }),
  });

const stored = async (runtime: Runtime, key: string, id: string) =>
  StackView.parse(
    await (
      await getStack.withRuntime(runtime)(request(`/api/stacks/${id}`, { key }), {
        params: Promise.resolve({ stackId: id }),
      })
    ).json(),
  );

/** Two invoices uploaded through process `runtime`'s route: their ids. */
async function uploadInvoices(runtime: Runtime, key: string): Promise<string[]> {
  const ids: string[] = [];
  for (const doc of [0, 1].map(invoiceVariant)) {
    const document = await uploadStored(runtime, key, {
      bytes: await renderPdf(doc.layout),
      name: doc.fileName,
      type: doc.mimeType,
    });
    ids.push(document.id);
  }
  return ids;
}

const start = (runtime: Runtime, key: string, documentIds: string[]) =>
  createStack.withRuntime(runtime)(
    request('/api/stacks', { method: 'POST', key, body: { name: 'Invoices', documentIds } }),
  );

describe('GET /api/stacks/{id}/events', () => {
  it('follows a stack another process started, event for event, to the same complete', async () => {
    const a = await open('follow');
    const b = await open('follow');
    const { key } = await tenantWithKey(a.store);
    const ids = await uploadInvoices(a, key);
    const started = await start(a, key, ids);
    expect(started.status).toBe(200);
    // The stack's id comes with the headers, before its first event.
    const id = started.headers.get('tandem-stack-id') ?? '';
    expect(id).not.toBe('');
    const [here, there] = await Promise.all([events(started), events(await follow(b, id, key))]);

    expect(here.filter((e) => 'tool' in e && e.tool === 'extract_row')).toHaveLength(2);
    expect(here.at(-1)).toEqual({ complete: true, stack_id: id, cost: expect.any(Number) });
    expect(there).toEqual(here);
    const view = await stored(b, key, id);
    expect(view).toMatchObject({ status: 'completed', error: null, documentIds: ids });
    expect(view.rows).toHaveLength(2);

    // Finished: one `complete`, at once, with the cost the run reported.
    const before = Date.now();
    expect(await events(await follow(b, id, key))).toEqual([here.at(-1)]);
    expect(Date.now() - before).toBeLessThan(1_000);
  }, 60_000);

  it('is a 404 for another tenant, another user of the tenant, or no such stack', async () => {
    const a = await open('isolation');
    const { key, tenantId } = await tenantWithKey(a.store);
    const ids = await uploadInvoices(a, key);
    const started = await start(a, key, ids);
    const id = started.headers.get('tandem-stack-id') ?? '';
    // Asked while the run goes on, and after it.
    const stranger = await tenantWithKey(a.store);
    const { plaintextKey: colleague } = await a.store.apiKeys.create(tenantId, {
      userId: 'user-2',
      name: 'colleague',
      role: 'user',
    });
    for (const other of [stranger.key, colleague]) {
      const res = await follow(a, id, other);
      expect(res.status).toBe(404);
      expect(ErrorResponse.parse(await res.json()).error.code).toBe('NOT_FOUND');
    }
    expect((await events(started)).at(-1)).toMatchObject({ complete: true, stack_id: id });
    for (const other of [stranger.key, colleague]) {
      expect((await follow(a, id, other)).status).toBe(404);
    }
    expect((await follow(a, 'no-such-stack', key)).status).toBe(404);
  }, 60_000);
});

describe('stack runs as jobs', () => {
  it('a stack a web process queues is run by a worker, holding a document-run slot meanwhile', async () => {
    const web = await open('worker', { RUN_JOBS: 'false', DOCUMENT_RUNS_PER_TENANT: '1' });
    const { key } = await tenantWithKey(web.store);
    const ids = await uploadInvoices(web, key);
    const invoice = await uploadInvoice(web, key);
    const res = await start(web, key, ids);
    expect(res.status).toBe(200);
    const id = res.headers.get('tandem-stack-id') ?? '';
    expect(id).not.toBe('');
    expect((await stored(web, key, id)).status).toBe('in_progress');

    // Queued, not running yet: it holds the tenant's only slot, for stacks and extractions.
    const second = await start(web, key, ids);
    expect(second.status).toBe(429);
    expect(ErrorResponse.parse(await second.json()).error.code).toBe('CONCURRENCY_LIMITED');
    const extraction = await createExtraction.withRuntime(web)(
      request('/api/extractions', { method: 'POST', key, body: { documentId: invoice.id } }),
    );
    expect(extraction.status).toBe(429);

    // Only now a process serves the queue: the web process never runs the job itself.
    const worker = await open('worker', { DOCUMENT_RUNS_PER_TENANT: '1' });
    const stream = await events(res);
    expect(stream.filter((e) => 'tool' in e && e.tool === 'extract_row')).toHaveLength(2);
    expect(stream.at(-1)).toEqual({ complete: true, stack_id: id, cost: expect.any(Number) });
    const view = await stored(worker, key, id);
    expect(view).toMatchObject({ status: 'completed', error: null });
    expect(view.rows.map((row) => row.cells.invoice_number)).toEqual([
      'INV-2024-0100',
      'INV-2024-0101',
    ]);

    // The run ended: its slot is free for the next one.
    const next = await start(web, key, ids);
    expect(next.status).toBe(200);
    expect((await events(next)).at(-1)).toMatchObject({ complete: true });
  }, 60_000);
});
