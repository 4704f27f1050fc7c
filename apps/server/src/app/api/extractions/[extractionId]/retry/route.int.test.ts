// Extraction runs as jobs, through the routes: a web process that runs no jobs (RUN_JOBS=false)
// starts a run that a worker on the same store runs, and its stream still ends with the run's
// `complete` (a correction while it waits in the queue is 409); POST /api/extractions/{id}/retry runs a failed extraction again to completion, is
// 409 for one that has not failed and 404 for another tenant's. Two runtimes on one libSQL file,
// the model a loopback Gemini API answering with the scripted document model.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ErrorResponse, ExtractionStreamEvent } from '@tandem/contracts';
import { startFakeHttpServer, type FakeHttpServer } from '@tandem/agent/testing';
import {
  geminiTurnResponse,
  isToolCallingRequest,
  type GeminiToolRequest,
  type ModelTurn,
} from '@tandem/documents/testing';
import { createLibsqlStore } from '@tandem/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../../server/runtime';
import { uploadInvoice as uploadInvoiceAs } from '../../../../../test/documents';
import { request, sseMessages, tenantWithKey, testRuntime } from '../../../../../test/harness';
import { POST as createExtraction } from '../../route';
import { POST as correct } from '../correct/route';
import { GET as getExtraction } from '../route';
import { POST as retry } from './route';

const dir = mkdtempSync(path.join(tmpdir(), 'tandem-extraction-retry-'));
const url = `file:${path.join(dir, 'tandem.db')}`;
let gemini: FakeHttpServer;
const runtimes: Runtime[] = [];
/** Turns the loopback model gives instead of its own, in order. */
const overrides: ((body: GeminiToolRequest) => ModelTurn)[] = [];

beforeAll(async () => {
  gemini = await startFakeHttpServer((r) => {
    if (!isToolCallingRequest(r.body))
      return { status: 400, body: { error: { message: 'not a tool call' } } };
    return { body: geminiTurnResponse(r.body, overrides.shift()?.(r.body)) };
  });
});

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  await gemini.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = async (runJobs: boolean) => {
  const runtime = await testRuntime(
    {
      GEMINI_API_KEY: 'fake-key-for-a-loopback-gemini',
      GEMINI_BASE_URL: gemini.url,
      RUN_JOBS: String(runJobs),
    },
    await createLibsqlStore({ url }),
  );
  runtimes.push(runtime);
  return runtime;
};

const events = async (res: Response): Promise<ExtractionStreamEvent[]> =>
  (await sseMessages(res)).map((message) => ExtractionStreamEvent.parse(message.data));

const uploadInvoice = async (runtime: Runtime, key: string): Promise<string> =>
  (await uploadInvoiceAs(runtime, key)).id;

const start = (runtime: Runtime, key: string, documentId: string) =>
  createExtraction.withRuntime(runtime)(
    request('/api/extractions', { method: 'POST', key, body: { documentId } }),
  );

const retryRun = (runtime: Runtime, key: string, id: string) =>
  retry.withRuntime(runtime)(request(`/api/extractions/${id}/retry`, { method: 'POST', key }), {
    params: Promise.resolve({ extractionId: id }),
  });

const stored = async (runtime: Runtime, key: string, id: string) => {
  const res = await getExtraction.withRuntime(runtime)(request(`/api/extractions/${id}`, { key }), {
    params: Promise.resolve({ extractionId: id }),
  });
  return (await res.json()) as { status: string; error: string | null; fields: object };
};

describe('extraction runs as jobs', () => {
  it('a run a web process queues is run by a worker; the stream ends with its complete', async () => {
    const web = await open(false);
    const { key } = await tenantWithKey(web.store);
    const documentId = await uploadInvoice(web, key);
    const res = await start(web, key, documentId);
    expect(res.status).toBe(200);
    const id = res.headers.get('tandem-extraction-id') ?? '';
    expect(id).not.toBe('');
    // Queued, not running yet: it holds the extraction all the same.
    const correction = await correct.withRuntime(web)(
      request(`/api/extractions/${id}/correct`, {
        method: 'POST',
        key,
        body: { message: 'The total is 10.' },
      }),
      { params: Promise.resolve({ extractionId: id }) },
    );
    expect(correction.status).toBe(409);
    expect(ErrorResponse.parse(await correction.json()).error.message).toBe(
      'The agent is already working on this; wait for its run to end, then try again.',
    );
    expect((await retryRun(web, key, id)).status).toBe(409);
    // Only now a process serves the queue: the web process never runs the job itself.
    const worker = await open(true);
    const stream = await events(res);
    expect(stream.some((e) => 'tool' in e && e.tool === 'extract_fields')).toBe(true);
    expect(stream.at(-1)).toEqual({ complete: true, extraction_id: id, cost: expect.any(Number) });
    expect(await stored(worker, key, id)).toMatchObject({ status: 'completed', error: null });
  });

  it('retries a failed extraction to completion; 409 when not failed, 404 for another tenant', async () => {
    const runtime = await open(true);
    const { key } = await tenantWithKey(runtime.store);
    const other = await tenantWithKey(runtime.store);
    const documentId = await uploadInvoice(runtime, key);

    // The agent gives up at once: the extraction fails, with the reason on the record.
    overrides.push(() => ({ text: 'I cannot make sense of this document.' }));
    const first = await start(runtime, key, documentId);
    const id = first.headers.get('tandem-extraction-id') ?? '';
    expect((await events(first)).at(-1)).toMatchObject({ complete: true, extraction_id: id });
    const failed = await stored(runtime, key, id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'The agent ended without completing the extraction.',
    });

    const foreign = await retryRun(runtime, other.key, id);
    expect(foreign.status).toBe(404);
    expect(ErrorResponse.parse(await foreign.json()).error.code).toBe('NOT_FOUND');

    const again = await retryRun(runtime, key, id);
    expect(again.status).toBe(200);
    const stream = await events(again);
    expect(stream.at(-1)).toEqual({ complete: true, extraction_id: id, cost: expect.any(Number) });
    const done = await stored(runtime, key, id);
    expect(done).toMatchObject({ status: 'completed', error: null });
    expect(Object.keys(done.fields).length).toBeGreaterThan(0);

    const conflict = await retryRun(runtime, key, id);
    expect(conflict.status).toBe(409);
    expect(ErrorResponse.parse(await conflict.json()).error.message).toBe(
      'The extraction is completed, not failed: there is nothing to retry.',
    );
  });
});
