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
import { ExtractionStreamEvent, UploadDocumentResponse } from '@tandem/contracts';
import { startFakeHttpServer, type FakeHttpServer } from '@tandem/agent/testing';
import {
  geminiTurnResponse,
  INVOICE,
  isToolCallingRequest,
  renderPdf,
  scriptedTurnForGemini,
} from '@tandem/extraction/testing';
import { createLibsqlStore } from '@tandem/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../../server/runtime';
import { request, tenantWithKey, testRuntime } from '../../../../../test/harness';
import { POST as uploadDocument } from '../../../documents/route';
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
      body: geminiTurnResponse(r.body, scriptedTurnForGemini(r.body)),
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

/** The SSE body as its events: each `data:` line parsed, comments left out. */
async function events(res: Response): Promise<ExtractionStreamEvent[]> {
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => ExtractionStreamEvent.parse(JSON.parse(block.slice('data: '.length))));
}

const follow = (runtime: Runtime, id: string, key: string) =>
  followEvents.withRuntime(runtime)(request(`/api/extractions/${id}/events`, { key }), {
    params: Promise.resolve({ extractionId: id }),
  });

describe('GET /api/extractions/{id}/events', () => {
  it('follows a run another process started, event for event, to the same complete', async () => {
    const a = await open();
    const b = await open();
    const { key, tenantId } = await tenantWithKey(a.store);
    const form = new FormData();
    const pdf = await renderPdf(INVOICE.layout);
    form.set('file', new Blob([Buffer.from(pdf)], { type: INVOICE.mimeType }), INVOICE.fileName);
    const uploaded = await uploadDocument.withRuntime(a)(
      new Request('http://127.0.0.1:3000/api/documents', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      }),
    );
    const document = UploadDocumentResponse.parse(await uploaded.json()).document;

    const started = await createExtraction.withRuntime(a)(
      request('/api/extractions', { method: 'POST', key, body: { documentId: document.id } }),
    );
    expect(started.status).toBe(200);
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
});
