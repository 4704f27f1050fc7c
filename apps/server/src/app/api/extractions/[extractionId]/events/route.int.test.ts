// GET /api/extractions/{id}/events across server processes: two runtimes on one libSQL file
// (as `next start` processes on one DATA_DIR), the run started through process A's POST, followed
// through process B's route. B's stream carries exactly the events A's own stream carried, ending
// with the same `complete`; a finished extraction answers its `complete` at once; another
// tenant's or user's id is a 404. The model is a loopback Gemini API (the real SDK talks to it)
// answering with the scripted document model, each turn after a pause so the run is under way
// while B connects.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ExtractionStreamEvent, readSse } from '@tandem/contracts';
import { startFakeHttpServer, type FakeHttpServer } from '@tandem/agent/testing';
import { geminiTurnResponse, isToolCallingRequest } from '@tandem/documents/testing';
import { createLibsqlStore } from '@tandem/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../../server/runtime';
import { uploadInvoice } from '../../../../../test/documents';
import { request, sseMessages, tenantWithKey, testRuntime } from '../../../../../test/harness';
import { POST as createExtraction } from '../../route';
import { GET as followEvents } from './route';

const TURN_DELAY_MS = 300;
const dir = mkdtempSync(path.join(tmpdir(), 'tandem-extraction-events-'));
const url = `file:${path.join(dir, 'tandem.db')}`;
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

const open = async () => {
  const runtime = await testRuntime(
    { GEMINI_API_KEY: 'fake-key-for-a-loopback-gemini', GEMINI_BASE_URL: gemini.url },
    await createLibsqlStore({ url }),
  );
  runtimes.push(runtime);
  return runtime;
};

/** The SSE body as its events, each with the last id seen. */
const framed = async (res: Response) =>
  (await sseMessages(res)).map((message) => ({
    id: message.id,
    event: ExtractionStreamEvent.parse(message.data),
  }));

/**
 * The events that carried an id of their own. The reader reports the last id seen (as an
 * EventSource does), and write seqs only grow: an event carried one where the id changed.
 */
const numberedOf = (items: { id: string; event: ExtractionStreamEvent }[]) =>
  items.filter((item, index) => item.id !== '' && item.id !== (items[index - 1]?.id ?? ''));

const events = async (res: Response) => (await framed(res)).map((item) => item.event);

const follow = (runtime: Runtime, id: string, key: string, lastEventId?: string) =>
  followEvents.withRuntime(runtime)(
    request(`/api/extractions/${id}/events`, {
      key,
      ...(lastEventId === undefined ? {} : { headers: { 'last-event-id': lastEventId } }),
    }),
    { params: Promise.resolve({ extractionId: id }) },
  );

/** Uploads the scripted invoice through process `runtime`'s route and starts its extraction. */
async function startInvoiceRun(runtime: Runtime, key: string) {
  const document = await uploadInvoice(runtime, key);
  const started = await createExtraction.withRuntime(runtime)(
    request('/api/extractions', { method: 'POST', key, body: { documentId: document.id } }),
  );
  expect(started.status).toBe(200);
  return started;
}

describe('GET /api/extractions/{id}/events', () => {
  it('follows a run another process started, event for event, to the same complete', async () => {
    const a = await open();
    const b = await open();
    const { key, tenantId } = await tenantWithKey(a.store);
    const started = await startInvoiceRun(a, key);
    // The run's id comes with the headers, before its first event.
    const id = started.headers.get('tandem-extraction-id') ?? '';
    expect(id).not.toBe('');
    const [here, there] = await Promise.all([events(started), events(await follow(b, id, key))]);

    expect(here.length).toBeGreaterThan(2);
    expect(here.at(-1)).toMatchObject({ complete: true, extraction_id: id });
    expect(there).toEqual(here);

    // Finished: one `complete`, at once, with the cost the run reported.
    const before = Date.now();
    const after = await events(await follow(b, id, key));
    expect(after).toEqual([here.at(-1)]);
    expect(Date.now() - before).toBeLessThan(1_000);

    // Another tenant, or another user of this tenant, hears nothing of it.
    const stranger = await tenantWithKey(b.store);
    expect((await follow(b, id, stranger.key)).status).toBe(404);
    const { plaintextKey } = await b.store.apiKeys.create(tenantId, {
      userId: 'user-2',
      name: 'colleague',
      role: 'user',
    });
    expect((await follow(b, id, plaintextKey)).status).toBe(404);
  }, 60_000);

  it('numbers each write with its history seq, and a reconnect resumes after Last-Event-ID', async () => {
    const a = await open();
    const b = await open();
    const { key, tenantId } = await tenantWithKey(a.store);
    const started = await startInvoiceRun(a, key);
    const id = started.headers.get('tandem-extraction-id') ?? '';
    // The client reads until the run's second write, then its connection drops.
    const reader = readSse(started.body as ReadableStream<Uint8Array>)[Symbol.asyncIterator]();
    const before: { id: string; event: ExtractionStreamEvent }[] = [];
    while (numberedOf(before).length < 2) {
      const next = await reader.next();
      if (next.done) throw new Error('the run ended before its second write');
      before.push({
        id: next.value.id ?? '',
        event: ExtractionStreamEvent.parse(JSON.parse(next.value.data)),
      });
    }
    await reader.return?.();
    const lastSeen = before.at(-1)?.id ?? '';
    expect(lastSeen).toBe('2');

    // It reconnects to another process with the id it saw last, while the run goes on.
    const after = await framed(await follow(b, id, key, lastSeen));
    expect(after.at(-1)?.event).toMatchObject({ complete: true, extraction_id: id });

    // Every write reached the client exactly once, in order, numbered as the history is.
    const history = await a.store.documentExtractions.listWrites(tenantId, id);
    expect(history.length).toBeGreaterThan(2);
    const numbered = [...numberedOf(before), ...numberedOf(after)];
    expect(numbered.map((item) => Number(item.id))).toEqual(history.map((write) => write.seq));
    expect(numbered.map((item) => item.event)).toEqual(
      history.map((write) => ({ tool: write.tool, input: write.input })),
    );

    // After the run: a reconnect gets the writes it missed and the complete, at once.
    const late = await framed(await follow(b, id, key, '1'));
    expect(late.map((item) => item.id)).toEqual([
      ...history.slice(1).map((write) => String(write.seq)),
      // The complete carries no id of its own: the last one seen stays the resume point.
      String(history.at(-1)?.seq),
    ]);
    expect(late.at(-1)?.event).toMatchObject({ complete: true });
    // An id past the history (or not a number) replays nothing.
    expect((await framed(await follow(b, id, key, '999'))).map((item) => item.event)).toEqual([
      late.at(-1)?.event,
    ]);
  }, 60_000);
});
