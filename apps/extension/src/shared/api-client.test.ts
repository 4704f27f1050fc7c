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
});
