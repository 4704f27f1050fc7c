// GET /api/tasks/{taskId}/events end to end in-process: real route, real libSQL store, the
// runtime's hub. Frames are read off the Response body as a browser's EventSource would.
import { TaskEvent, type StepEvent } from '@tandem/contracts';
import { TaskEventHub } from '@tandem/agent';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../../server/runtime';
import { createLogger } from '../../../../../server/logger';
import { tenantWithKey, testRuntime } from '../../../../../test/harness';
import { taskEventStream } from '../../_lib/event-stream';
import { GET } from './route';

interface Frame {
  event?: string;
  id?: string;
  data?: string;
  comment?: string;
  retry?: string;
}

/** Reads SSE frames off a body; `next` waits (bounded) for the next frame that matches. */
function frameReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const frames: Frame[] = [];
  let ended = false;
  const pull = async () => {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      return;
    }
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const frame: Frame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = line.slice(1).trim();
        else {
          const colon = line.indexOf(':');
          const name = line.slice(0, colon) as keyof Frame;
          frame[name] = line.slice(colon + 1).trimStart();
        }
      }
      frames.push(frame);
    }
  };
  return {
    frames,
    get ended() {
      return ended;
    },
    async next(match: (f: Frame) => boolean = () => true, timeoutMs = 3_000): Promise<Frame> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = frames.findIndex(match);
        if (index !== -1) return frames.splice(index, 1)[0] as Frame;
        if (ended) throw new Error('stream ended');
        if (Date.now() > deadline) throw new Error('no matching frame in time');
        await Promise.race([pull(), new Promise((r) => setTimeout(r, deadline - Date.now()))]);
      }
    },
    /** Resolves once the server closed the stream. */
    async closed(timeoutMs = 3_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!ended) {
        if (Date.now() > deadline) throw new Error('stream still open');
        await Promise.race([pull(), new Promise((r) => setTimeout(r, deadline - Date.now()))]);
      }
    },
    cancel: () => reader.cancel(),
  };
}

const eventOf = (frame: Frame): TaskEvent => TaskEvent.parse(JSON.parse(frame.data ?? 'null'));

let runtime: Runtime;
let key: string;
let tenantId: string;
let taskId: string;

function open(options: { key?: string; headers?: Record<string, string>; query?: string } = {}) {
  const controller = new AbortController();
  const req = new Request(
    `http://127.0.0.1:3000/api/tasks/${taskId}/events${options.query ?? ''}`,
    {
      headers: { authorization: `Bearer ${options.key ?? key}`, ...options.headers },
      signal: controller.signal,
    },
  );
  const response = GET.withRuntime(runtime)(req, { params: Promise.resolve({ taskId }) });
  return { response, controller };
}

const collect = (data: Record<string, unknown>, type = 'job') =>
  runtime.collect.collect({ tenantId, taskId, type, data, sourceUrl: 'http://127.0.0.1/jobs/' });

beforeEach(async () => {
  runtime = await testRuntime();
  ({ key, tenantId } = await tenantWithKey(runtime.store));
  taskId = (
    await runtime.store.tasks.create(tenantId, {
      userId: 'user-1',
      url: 'http://127.0.0.1/jobs/',
      query: 'Collect every job',
      status: 'executing',
    })
  ).id;
});
afterEach(async () => {
  await runtime.close();
});

describe('GET /api/tasks/{taskId}/events', () => {
  it('replays collected items, streams new ones, steps and done, then closes', async () => {
    await collect({ jobId: 'J-1', title: 'Engineer' });
    await collect({ jobId: 'J-2', title: 'Designer' });
    const { response } = open();
    const res = await response;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toContain('no-transform');
    const stream = frameReader(res.body as ReadableStream<Uint8Array>);

    expect((await stream.next()).retry).toBe('2000');
    const replay = [await stream.next(), await stream.next()];
    expect(replay.map((f) => [f.event, f.id])).toStrictEqual([
      ['collected', '1'],
      ['collected', '2'],
    ]);
    expect(eventOf(replay[0] as Frame)).toMatchObject({
      event: 'collected',
      taskId,
      type: 'job',
      count: 2,
      item: { seq: 1, uniqueKey: 'job:J-1', data: { jobId: 'J-1', title: 'Engineer' } },
    });

    // Live: the hub rings at once, well before the 1 s poll.
    const started = Date.now();
    await collect({ jobId: 'J-3', title: 'Nurse' });
    const live = await stream.next((f) => f.event === 'collected', 900);
    expect(Date.now() - started).toBeLessThan(900);
    expect(eventOf(live)).toMatchObject({ count: 3, item: { seq: 3, uniqueKey: 'job:J-3' } });

    // A duplicate is not an event.
    await collect({ jobId: 'J-3', title: 'Nurse' });

    const step: StepEvent = {
      event: 'step',
      taskId,
      stepIndex: 4,
      action: 'click("12")',
      status: 'pending',
      thought: 'Open page 2.',
      at: new Date().toISOString(),
    };
    runtime.events.publish(tenantId, taskId, step);
    const stepFrame = await stream.next((f) => f.event === 'step', 900);
    expect(stepFrame.id).toBeUndefined();
    expect(eventOf(stepFrame)).toStrictEqual(step);

    await runtime.store.tasks.update(tenantId, taskId, {
      status: 'completed',
      result: 'Collected 3 jobs',
    });
    const done = await stream.next((f) => f.event === 'done', 2_500);
    expect(eventOf(done)).toStrictEqual({
      event: 'done',
      taskId,
      status: 'completed',
      result: 'Collected 3 jobs',
      counts: { job: 3 },
    });
    await stream.closed();
    expect(stream.frames.filter((f) => f.event === 'collected')).toStrictEqual([]);
    expect(runtime.events.listenerCount()).toBe(0);
  });

  it('picks up items another process stored (no hub event) by polling the store', async () => {
    const res = await open().response;
    const stream = frameReader(res.body as ReadableStream<Uint8Array>);
    await stream.next((f) => f.retry !== undefined);
    // Straight into the store, as a second server process sharing the database would.
    await runtime.store.collectedItems.insert(tenantId, {
      taskId,
      type: 'job',
      uniqueKey: 'job:J-77',
      data: { jobId: 'J-77' },
    });
    const frame = await stream.next((f) => f.event === 'collected', 2_500);
    expect(eventOf(frame)).toMatchObject({ item: { uniqueKey: 'job:J-77', seq: 1 } });
    await stream.cancel();
  });

  it('resumes after Last-Event-ID (or afterSeq) without repeating items', async () => {
    for (let n = 1; n <= 4; n++) await collect({ jobId: `J-${n}` });
    const resumed = frameReader(
      (await open({ headers: { 'last-event-id': '2' } }).response)
        .body as ReadableStream<Uint8Array>,
    );
    const ids = [
      (await resumed.next((f) => f.event === 'collected')).id,
      (await resumed.next((f) => f.event === 'collected')).id,
    ];
    expect(ids).toStrictEqual(['3', '4']);
    await resumed.cancel();

    const byQuery = frameReader(
      (await open({ query: '?afterSeq=3' }).response).body as ReadableStream<Uint8Array>,
    );
    expect((await byQuery.next((f) => f.event === 'collected')).id).toBe('4');
    await byQuery.cancel();
  });

  it('replays recent steps to a fresh connection only', async () => {
    runtime.events.publish(tenantId, taskId, {
      event: 'step',
      taskId,
      stepIndex: 0,
      action: 'scroll("down")',
      status: 'success',
      thought: 'Looking for jobs.',
      at: new Date().toISOString(),
    });
    const fresh = frameReader((await open().response).body as ReadableStream<Uint8Array>);
    expect(eventOf(await fresh.next((f) => f.event === 'step'))).toMatchObject({ stepIndex: 0 });
    await fresh.cancel();
    const resumed = frameReader(
      (await open({ query: '?afterSeq=0' }).response).body as ReadableStream<Uint8Array>,
    );
    await resumed.next((f) => f.retry !== undefined);
    await expect(resumed.next((f) => f.event === 'step', 300)).rejects.toThrow(/no matching/);
    await resumed.cancel();
  });

  it('sends done at once for a finished task, after its items', async () => {
    await collect({ jobId: 'J-1' });
    await runtime.store.tasks.update(tenantId, taskId, { status: 'failed', result: 'captcha' });
    const stream = frameReader((await open().response).body as ReadableStream<Uint8Array>);
    const order: string[] = [];
    await stream.closed();
    for (const frame of stream.frames) if (frame.event) order.push(frame.event);
    expect(order).toStrictEqual(['collected', 'done']);
  });

  it('stops and unsubscribes when the client aborts', async () => {
    const { response, controller } = open();
    const stream = frameReader((await response).body as ReadableStream<Uint8Array>);
    await stream.next((f) => f.retry !== undefined);
    expect(runtime.events.listenerCount(tenantId, taskId)).toBe(1);
    controller.abort();
    await stream.closed();
    expect(runtime.events.listenerCount(tenantId, taskId)).toBe(0);
  });

  it("404 for another tenant's task, 401 without a key", async () => {
    const other = await tenantWithKey(runtime.store);
    const res = await open({ key: other.key }).response;
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('NOT_FOUND');
    const anonymous = await open({ key: '' }).response;
    expect(anonymous.status).toBe(401);
    expect(runtime.events.listenerCount()).toBe(0);
  });
});

describe('taskEventStream', () => {
  it('sends heartbeat comments while idle', async () => {
    const stream = frameReader(
      taskEventStream({
        store: runtime.store,
        hub: runtime.events,
        tenantId,
        taskId,
        afterSeq: 0,
        replaySteps: false,
        signal: new AbortController().signal,
        log: createLogger('silent'),
        heartbeatMs: 20,
      }),
    );
    expect((await stream.next((f) => f.comment !== undefined, 1_000)).comment).toBe('heartbeat');
    await stream.cancel();
    expect(runtime.events.listenerCount()).toBe(0);
  });

  it('closes at its maximum duration so the client reconnects', async () => {
    const stream = frameReader(
      taskEventStream({
        store: runtime.store,
        hub: runtime.events,
        tenantId,
        taskId,
        afterSeq: 0,
        replaySteps: false,
        signal: new AbortController().signal,
        log: createLogger('silent'),
        maxDurationMs: 50,
      }),
    );
    await stream.closed(1_000);
    expect(runtime.events.listenerCount()).toBe(0);
  });

  it('refuses with 429 when the task already has the most listeners', () => {
    const hub = new TaskEventHub({ maxSubscribersPerTask: 1 });
    hub.subscribe(tenantId, taskId, () => {});
    expect(() =>
      taskEventStream({
        store: runtime.store,
        hub,
        tenantId,
        taskId,
        afterSeq: 0,
        replaySteps: false,
        signal: new AbortController().signal,
        log: createLogger('silent'),
      }),
    ).toThrow(expect.objectContaining({ status: 429, code: 'RATE_LIMITED' }));
  });
});
