import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  COLLECT_LIMITS,
  CollectCall,
  CollectData,
  CollectedItemsQuery,
  CollectedItemsResponse,
  CollectType,
  TaskEvent,
  TaskEventsQuery,
} from './collect';
import { endpoints } from './endpoints';
import { NextActionResponse } from './interact';

const TASK_ID = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const SESSION_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const messageOf = (result: z.ZodSafeParseResult<unknown>): string =>
  result.success ? '' : z.prettifyError(result.error);

describe('CollectType', () => {
  it('normalizes case and surrounding space so "Job " and "job" count together', () => {
    expect(CollectType.parse(' Job ')).toBe('job');
    expect(CollectType.parse('search_result')).toBe('search_result');
  });

  it('refuses empty, long and sentence-like types with a message saying what to send', () => {
    expect(messageOf(CollectType.safeParse('  '))).toMatch(/type must not be empty/);
    expect(messageOf(CollectType.safeParse('x'.repeat(41)))).toMatch(/at most 40 characters/);
    expect(messageOf(CollectType.safeParse('job listing'))).toMatch(/single word/);
    expect(CollectType.safeParse(7).success).toBe(false);
  });
});

describe('CollectData', () => {
  it('accepts a plain JSON object, nested values included', () => {
    const data = { title: 'Engineer', salary: { min: 1, max: 2 }, tags: ['a'], remote: null };
    expect(CollectData.parse(data)).toStrictEqual(data);
  });

  it('refuses arrays, scalars, null and empty objects', () => {
    for (const value of [[{ a: 1 }], 'job', 3, null]) {
      expect(CollectData.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
    expect(messageOf(CollectData.safeParse({}))).toMatch(/at least one field/);
  });

  it('refuses values JSON cannot carry', () => {
    expect(messageOf(CollectData.safeParse({ n: Number.NaN }))).toMatch(/only JSON values/);
    expect(messageOf(CollectData.safeParse({ at: new Date(0) }))).toMatch(/only JSON values/);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(messageOf(CollectData.safeParse(cyclic))).toMatch(/only JSON values/);
  });

  it('enforces the size, key and depth limits', () => {
    const big = { description: 'é'.repeat(COLLECT_LIMITS.dataBytes / 2) };
    expect(messageOf(CollectData.safeParse(big))).toMatch(
      /data is 32,7\d\d bytes as JSON; at most 32,768/,
    );
    const wide = Object.fromEntries(
      Array.from({ length: COLLECT_LIMITS.dataKeys + 1 }, (_, i) => [`k${i}`, i]),
    );
    expect(messageOf(CollectData.safeParse(wide))).toMatch(/101 fields; at most 100/);
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < COLLECT_LIMITS.dataDepth; i++) deep = { next: deep };
    expect(messageOf(CollectData.safeParse(deep))).toMatch(/nested 7 levels deep; at most 6/);
  });
});

describe('CollectCall', () => {
  it('is the spec\'s action shape (docs/specs.md, "Streaming Extraction"): type optional, data required', () => {
    expect(CollectCall.parse({ data: { title: 'x' } })).toStrictEqual({ data: { title: 'x' } });
    expect(CollectCall.parse({ type: 'Job', data: { jobId: 1 } })).toStrictEqual({
      type: 'job',
      data: { jobId: 1 },
    });
    expect(CollectCall.safeParse({ type: 'job' }).success).toBe(false);
  });
});

describe('collected items query and response', () => {
  it('coerces query strings and applies defaults', () => {
    expect(CollectedItemsQuery.parse({})).toStrictEqual({
      format: 'json',
      afterSeq: 0,
      limit: COLLECT_LIMITS.pageSize,
    });
    expect(
      CollectedItemsQuery.parse({ type: 'Job', format: 'csv', afterSeq: '12', limit: '5' }),
    ).toStrictEqual({ type: 'job', format: 'csv', afterSeq: 12, limit: 5 });
  });

  it('refuses bad paging values with field messages', () => {
    expect(messageOf(CollectedItemsQuery.safeParse({ afterSeq: '-1' }))).toMatch(/afterSeq/);
    expect(messageOf(CollectedItemsQuery.safeParse({ afterSeq: 'abc' }))).toMatch(
      /must be a number/,
    );
    expect(CollectedItemsQuery.safeParse({ limit: '1001' }).success).toBe(false);
    expect(CollectedItemsQuery.safeParse({ format: 'xml' }).success).toBe(false);
    expect(TaskEventsQuery.parse({ afterSeq: '3' })).toStrictEqual({ afterSeq: 3 });
  });

  it('describes a page', () => {
    const page = {
      taskId: TASK_ID,
      items: [
        {
          id: 'i1',
          type: 'job',
          uniqueKey: 'job:1',
          data: { title: 'Engineer' },
          sourceUrl: 'http://127.0.0.1/jobs/',
          seq: 1,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ],
      counts: { job: 1 },
      total: 1,
      nextSeq: 1,
      hasMore: false,
    };
    expect(CollectedItemsResponse.parse(page)).toStrictEqual(page);
  });
});

describe('TaskEvent', () => {
  it('discriminates step, collected and done events', () => {
    const step = {
      event: 'step',
      taskId: TASK_ID,
      stepIndex: 2,
      action: 'click("14")',
      status: 'pending',
      thought: 'Open the next job.',
      at: '2026-01-01T00:00:00.000Z',
    };
    expect(TaskEvent.parse(step)).toStrictEqual(step);
    const done = { event: 'done', taskId: TASK_ID, status: 'completed', result: null, counts: {} };
    expect(TaskEvent.parse(done)).toStrictEqual(done);
    expect(TaskEvent.safeParse({ ...done, event: 'progress' }).success).toBe(false);
    expect(
      TaskEvent.safeParse({ event: 'collected', taskId: TASK_ID, type: 'job', count: 0 }).success,
    ).toBe(false);
  });
});

describe('registry and task result', () => {
  it('declares the collected and events endpoints, the latter as a stream', () => {
    expect(endpoints.collectedItems).toMatchObject({
      path: '/api/tasks/:taskId/collected',
      method: 'GET',
      auth: 'apiKey',
    });
    expect(endpoints.taskEvents).toMatchObject({
      path: '/api/tasks/:taskId/events',
      stream: 'sse',
    });
    expect(endpoints.taskEvents.response).toBe(TaskEvent);
  });

  it('lets an action response carry collected counts, and only counts', () => {
    const response = {
      thought: 'Next page.',
      action: 'click("14")',
      actionDetails: { name: 'click', args: { id: '14' } },
      taskId: TASK_ID,
      sessionId: SESSION_ID,
      stepIndex: 3,
      status: 'executing',
      collected: { job: 12 },
    };
    expect(NextActionResponse.parse(response).collected).toStrictEqual({ job: 12 });
    expect(NextActionResponse.safeParse({ ...response, collected: { job: -1 } }).success).toBe(
      false,
    );
  });
});
