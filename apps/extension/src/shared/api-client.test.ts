import { describe, expect, it } from 'vitest';
import type { TaskEvent } from '@tandem/contracts';
import { ApiError, createApiClient, readEventStream } from './api-client';

const TASK = '11111111-1111-4111-8111-111111111111';

/** A body that arrives in arbitrary chunks, as a real network stream does. */
function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('readEventStream', () => {
  it('parses events split across chunks, skips heartbeats and junk, and stops at done', async () => {
    const collected = JSON.stringify({
      event: 'collected',
      taskId: TASK,
      type: 'job',
      count: 1,
      item: {
        id: 'item-1',
        seq: 1,
        type: 'job',
        uniqueKey: 'job:J-1',
        data: { jobId: 'J-1' },
        sourceUrl: null,
        createdAt: '2026-11-22T06:00:00.000Z',
      },
    });
    const done = JSON.stringify({
      event: 'done',
      taskId: TASK,
      status: 'completed',
      result: 'ok',
      counts: { job: 1 },
    });
    const text = `: heartbeat\n\nevent: collected\nid: 1\ndata: ${collected}\n\ndata: not json\n\nevent: done\ndata: ${done}\n\ndata: ${collected}\n\n`;
    const chunks = [text.slice(0, 17), text.slice(17, 90), text.slice(90)];
    const events: TaskEvent[] = [];
    await readEventStream(streamOf(chunks), (e) => events.push(e));
    expect(events.map((e) => e.event)).toEqual(['collected', 'done']);
    expect(events[0]).toMatchObject({ type: 'job', count: 1 });
  });
});

describe('createApiClient', () => {
  const settings = { serverUrl: 'http://tandem.test', apiKey: 'k-1' };

  /** A fetch answering `status` with `body` (and headers), recording what it was asked. */
  function server(status: number, body: unknown, headers: Record<string, string> = {}) {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const fetchFn: typeof fetch = async (input, init) => {
      calls.push({ url: String(input), init });
      return new Response(JSON.stringify(body), { status, headers });
    };
    return { api: createApiClient(settings, fetchFn), calls };
  }

  it('cancels a task with POST /api/tasks/:taskId/cancel and no body', async () => {
    const { api, calls } = server(200, { taskId: TASK, status: 'cancelled' });
    expect(await api.cancel(TASK)).toEqual({ taskId: TASK, status: 'cancelled' });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(`http://tandem.test/api/tasks/${TASK}/cancel`);
    expect(calls[0]?.init).toMatchObject({ method: 'POST' });
    expect(calls[0]?.init?.body).toBeUndefined();
  });

  it("throws the server's refusal of a cancel (a task that already ended)", async () => {
    const { api } = server(409, { error: { code: 'TASK_COMPLETED', message: 'done' } });
    await expect(api.cancel(TASK)).rejects.toMatchObject({ status: 409, code: 'TASK_COMPLETED' });
  });

  it('sends interact with the signal it was given, and reads Retry-After of a 429', async () => {
    const { api, calls } = server(
      429,
      { error: { code: 'RATE_LIMITED', message: 'slow down' } },
      { 'retry-after': '12' },
    );
    const controller = new AbortController();
    const body = { url: 'https://a.example/', query: 'q', interactiveTree: [] };
    const error: unknown = await api.interact(body, controller.signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 12_000, retryable: true });
    expect(calls[0]?.url).toBe('http://tandem.test/api/agent/interact');
    expect(calls[0]?.init?.signal).toBe(controller.signal);
  });

  it("asks for the routines of a site with the user's key, the site in the query", async () => {
    const offer = {
      id: 'r-1',
      name: 'Add patient',
      goalTemplate: 'Add {firstName}',
      parameters: [{ name: 'firstName', example: 'Jas' }],
      version: 1,
      savedAt: '2026-11-12T12:00:00.000Z',
      runs: 0,
    };
    const { api, calls } = server(200, { items: [offer] });
    expect(await api.routineOffers('emr.test:8080')).toEqual({ items: [offer] });
    expect(calls[0]?.url).toBe('http://tandem.test/api/routines/offers?site=emr.test%3A8080');
    expect(calls[0]?.init).toMatchObject({
      method: 'GET',
      headers: { authorization: 'Bearer k-1' },
    });
  });
});

describe('extractionFile', () => {
  const settings = { serverUrl: 'http://tandem.test', apiKey: 'k-1' };
  const products = [
    { name: 'Kettle', price: 25 },
    { name: 'Mug', price: 8 },
  ];
  const aggregate = (extractionId: string, data: unknown) => ({
    extractionId,
    data,
    items: Array.isArray(data) ? data.length : null,
    pages: 2,
    isPartial: false,
    schemaUsed: null,
    summary: `${extractionId}, extraction_id=${extractionId}`,
    truncated: false,
  });

  /** A fetch answering with `answer`, recording each URL and its headers. */
  function server(answer: () => Response) {
    const calls: { url: string; headers: Headers }[] = [];
    const fetchFn: typeof fetch = async (input, init) => {
      calls.push({ url: String(input), headers: new Headers(init?.headers) });
      return answer();
    };
    return { api: createApiClient(settings, fetchFn), calls };
  }

  it("downloads the server's CSV of one extraction with the key", async () => {
    const csv = 'name,price\r\nKettle,25\r\nMug,8\r\n';
    const { api, calls } = server(
      () => new Response(csv, { headers: { 'content-type': 'text/csv; charset=utf-8' } }),
    );
    const blob = await api.extractionFile(TASK, 'products', 'csv');
    expect(await blob.text()).toBe(csv);
    expect(blob.type).toMatch(/^text\/csv/);
    expect(calls).toHaveLength(1);
    const url = new URL(calls[0]?.url ?? '');
    expect(url.pathname).toBe(`/api/tasks/${TASK}/extractions`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      format: 'csv',
      extractionId: 'products',
    });
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer k-1');
  });

  it('makes a pretty-printed JSON file of the data of the extraction asked for', async () => {
    const body = { taskId: TASK, aggregates: [aggregate('products', products)], results: [] };
    const { api, calls } = server(() => Response.json(body));
    const blob = await api.extractionFile(TASK, 'products', 'json');
    expect(blob.type).toBe('application/json');
    const text = await blob.text();
    expect(JSON.parse(text)).toEqual(products);
    expect(text).toBe(`${JSON.stringify(products, null, 2)}\n`);
    expect(Object.fromEntries(new URL(calls[0]?.url ?? '').searchParams)).toEqual({
      format: 'json',
      extractionId: 'products',
    });
  });

  it("says why the server refused, with its code, in the collected CSV's kind of error", async () => {
    const { api } = server(() =>
      Response.json(
        { error: { code: 'VALIDATION_ERROR', message: 'The data of shop is not a list.' } },
        { status: 400 },
      ),
    );
    const error: unknown = await api.extractionFile(TASK, 'shop', 'csv').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Download failed (400): The data of shop is not a list.',
    });
    const { api: proxied } = server(
      () => new Response('<html>Bad gateway</html>', { status: 502 }),
    );
    await expect(proxied.extractionFile(TASK, 'shop', 'json')).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_ERROR',
      message: 'Download failed (502).',
    });
  });

  it('fails clearly when the answer has no such extraction or is not the contract', async () => {
    const other = { taskId: TASK, aggregates: [aggregate('other', {})], results: [] };
    await expect(
      server(() => Response.json(other)).api.extractionFile(TASK, 'products', 'json'),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'The server has no data for extraction products.',
    });
    await expect(
      server(() => Response.json({ rows: [] })).api.extractionFile(TASK, 'products', 'json'),
    ).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('says the server cannot be reached rather than what fetch threw', async () => {
    const fetchFn: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(
      createApiClient(settings, fetchFn).extractionFile(TASK, 'products', 'csv'),
    ).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK',
      message: 'Cannot reach the Tandem server at http://tandem.test (fetch failed).',
    });
  });
});
