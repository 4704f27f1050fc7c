import { InteractResponse, type InteractRequestInput } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../shared/api-client';
import { memoryStore } from '../shared/memory-store';
import { loadRun, writeRun, type RunState } from '../shared/run-state';
import {
  click,
  countingKeys,
  fakeTiming,
  scriptedApi,
  SESSION,
  step,
  TASK,
  URL,
  type Scripted,
} from './loop-fakes';
import { RETRY_BUDGET_MS } from './request-retry';
import { RunControl } from './run-control';
import { RunRecord } from './run-record';
import { sendInteract } from './send-request';

const TAB = 8;
const body: InteractRequestInput = {
  url: URL,
  taskId: TASK,
  sessionId: SESSION,
  interactiveTree: [{ i: '1', r: 'btn', n: 'Go' }],
};
const down = () => new ApiError(0, 'NETWORK', 'Cannot reach the Tandem server');

async function setup(responses: Scripted[], run: Partial<RunState> = {}) {
  const storage = memoryStore();
  const stored = await writeRun(storage, {
    tabId: TAB,
    goal: 'g',
    status: 'running',
    steps: [],
    ...run,
  });
  const api = scriptedApi(responses);
  const timing = fakeTiming();
  const record = new RunRecord(storage, stored);
  const sender = {
    api,
    run: record,
    control: new RunControl(),
    timing,
    newRequestKey: countingKeys(),
  };
  return { storage, api, timing, record, sender };
}

describe('sendInteract', () => {
  it('keeps the key in the run before sending, and sends it with the body', async () => {
    const s = await setup([]);
    let keyStoredWhenSent: string | undefined;
    s.api.interact = async (sent) => {
      s.api.requests.push(sent);
      keyStoredWhenSent = (await loadRun(s.storage, TAB))?.requestKey;
      return InteractResponse.parse(step(click('1')));
    };
    await sendInteract(s.sender, body);
    expect(keyStoredWhenSent).toBe('key-1');
    expect(s.api.requests[0]).toEqual({ ...body, idempotencyKey: 'key-1' });
  });

  it('reuses the key a worker that restarted left in the run', async () => {
    const s = await setup([step(click('1'))], { requestKey: 'key-before-restart' });
    await sendInteract(s.sender, body);
    expect(s.api.requests[0]?.idempotencyKey).toBe('key-before-restart');
  });

  it('waits Retry-After on a 429 with the wait recorded, then sends the same request again', async () => {
    const s = await setup([
      new ApiError(429, 'RATE_LIMITED', 'slow down', 30_000),
      step(click('1')),
    ]);
    const start = s.timing.now();
    let waitDuringSleep: RunState['wait'];
    const sleep = s.timing.sleep;
    s.sender.timing = {
      ...s.timing,
      sleep: async (ms, signal) => {
        waitDuringSleep = (await loadRun(s.storage, TAB))?.wait;
        return sleep(ms, signal);
      },
    };
    const res = await sendInteract(s.sender, body);
    expect(res).toMatchObject({ action: 'click("1")' });
    expect(s.timing.slept).toEqual([30_000]);
    expect(waitDuringSleep).toEqual({ reason: 'rate_limit', until: start + 30_000, attempt: 1 });
    expect(s.api.requests).toHaveLength(2);
    expect(s.api.requests[1]).toEqual(s.api.requests[0]);
    expect((await loadRun(s.storage, TAB))?.wait).toBeUndefined();
  });

  it('retries an unreachable or failing server with a doubling backoff, under one key', async () => {
    const s = await setup([
      down(),
      new ApiError(502, 'HTTP_ERROR', 'Server answered 502'),
      down(),
      step(click('1')),
    ]);
    await sendInteract(s.sender, body);
    expect(s.timing.slept).toEqual([1_000, 2_000, 4_000]);
    expect(new Set(s.api.requests.map((r) => r.idempotencyKey))).toEqual(new Set(['key-1']));
  });

  it('backs off on a busy task instead of resending at once', async () => {
    const s = await setup([new ApiError(409, 'TASK_BUSY', 'busy'), step(click('1'))]);
    const recorded: RunState['wait'][] = [];
    const sleep = s.timing.sleep;
    s.sender.timing = {
      ...s.timing,
      sleep: async (ms, signal) => {
        recorded.push((await loadRun(s.storage, TAB))?.wait);
        return sleep(ms, signal);
      },
    };
    await sendInteract(s.sender, body);
    expect(s.timing.slept).toEqual([1_000]);
    expect(recorded[0]).toMatchObject({ reason: 'busy', attempt: 1 });
  });

  it('gives up with the last error after about 3 minutes of retries', async () => {
    const s = await setup(Array.from({ length: 40 }, down));
    await expect(sendInteract(s.sender, body)).rejects.toMatchObject({ code: 'NETWORK' });
    const waited = s.timing.slept.reduce((a, b) => a + b, 0);
    expect(waited).toBeLessThanOrEqual(RETRY_BUDGET_MS);
    expect(waited).toBeGreaterThan(RETRY_BUDGET_MS - 10_000);
    expect(Math.max(...s.timing.slept)).toBe(10_000);
  });

  it('does not retry what no wait fixes', async () => {
    const s = await setup([new ApiError(409, 'TASK_CANCELLED', 'cancelled')]);
    await expect(sendInteract(s.sender, body)).rejects.toMatchObject({ code: 'TASK_CANCELLED' });
    expect(s.api.requests).toHaveLength(1);
    expect(s.timing.slept).toEqual([]);
  });

  it('resends at once under a fresh key when the kept key belonged to another body', async () => {
    const reused = new ApiError(
      409,
      'CONFLICT',
      'idempotencyKey was already used for a different request.',
    );
    const s = await setup([reused, step(click('1'))], { requestKey: 'key-before-restart' });
    await sendInteract(s.sender, body);
    expect(s.api.requests.map((r) => r.idempotencyKey)).toEqual(['key-before-restart', 'key-1']);
    expect(s.timing.slept).toEqual([]);
    expect(s.record.current.requestKey).toBe('key-1');
  });

  it('starts a new session when the one a new goal continues is unknown to the server', async () => {
    const unknown = new ApiError(404, 'NOT_FOUND', `Session ${SESSION} not found.`);
    const s = await setup([unknown, step(click('1'))], { sessionId: SESSION });
    const first = { url: URL, query: 'g', sessionId: SESSION, interactiveTree: [] };
    await sendInteract(s.sender, first);
    expect(s.api.requests[1]).not.toHaveProperty('sessionId');
    expect(s.api.requests[1]?.query).toBe('g');
    expect((await loadRun(s.storage, TAB))?.sessionId).toBeUndefined();
  });

  it('finishes a wait a stopped worker left in the run before sending', async () => {
    const s = await setup([step(click('1'))]);
    const until = s.timing.now() + 12_000;
    await s.record.save({ wait: { reason: 'rate_limit', until, attempt: 2 } });
    await sendInteract(s.sender, body);
    expect(s.timing.slept).toEqual([12_000]);
    expect((await loadRun(s.storage, TAB))?.wait).toBeUndefined();
  });
});
