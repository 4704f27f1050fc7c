// The defaults both adapters store for omitted fields, checked without a store: each builder
// fills what is absent, keeps what is given, and never lets two records share a mutable default.
import { emptyTaskMetrics, type TaskMetrics } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { newTaskActionRecord, newTaskRecord, type NewTaskAction } from './record';

const NOW = '2025-03-04T05:06:07.089Z';
const EARLIER = '2025-01-01T00:00:00.000Z';
const T = 'tenant-1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newTaskRecord', () => {
  const ask = { userId: 'u1', url: 'https://a.example/', query: 'find the price' };

  it('starts a task active at step 0, version 1, with empty corrections and metrics', () => {
    expect(newTaskRecord(T, ask, NOW)).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      ...ask,
      sessionId: null,
      status: 'active',
      complexity: null,
      plan: null,
      hierarchicalPlan: null,
      currentStepIndex: 0,
      corrections: [],
      metrics: emptyTaskMetrics(),
      lastChain: null,
      webSearchResult: null,
      result: null,
      collectLimit: null,
      consecutiveFailures: 0,
      consecutiveSuccessWithoutTaskComplete: 0,
      version: 1,
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('keeps every given field, falsy ones included', () => {
    const metrics: TaskMetrics = { ...emptyTaskMetrics(), totalSteps: 3 };
    const given = {
      ...ask,
      id: 'task-1',
      sessionId: 's1',
      status: 'executing' as const,
      complexity: 'SIMPLE' as const,
      currentStepIndex: 2,
      metrics,
      webSearchResult: { hits: 0 },
      result: '',
      collectLimit: 0,
      consecutiveFailures: 1,
      consecutiveSuccessWithoutTaskComplete: 4,
    };
    expect(newTaskRecord(T, given, NOW)).toMatchObject(given);
  });

  it('never lets a field of the input override version or the times', () => {
    const sneaky = { ...ask, version: 7, createdAt: EARLIER } as typeof ask;
    expect(newTaskRecord(T, sneaky, NOW)).toMatchObject({ version: 1, createdAt: NOW });
  });

  it('gives each task its own mutable defaults', () => {
    const a = newTaskRecord(T, ask, NOW);
    const b = newTaskRecord(T, ask, NOW);
    expect(b.corrections).not.toBe(a.corrections);
    a.metrics.totalSteps = 9;
    expect(b.metrics).toEqual(emptyTaskMetrics());
    expect(b.id).not.toBe(a.id);
  });
});

describe('newTaskActionRecord', () => {
  const step: NewTaskAction = {
    taskId: 'task-1',
    stepIndex: 0,
    thought: 't',
    action: 'click(1)',
    status: 'pending',
    expectedOutcome: null,
    beforeState: null,
    verification: null,
    metrics: null,
  };

  it('stamps now and a fresh id unless given', () => {
    const action = newTaskActionRecord(T, step, NOW);
    expect(action).toEqual({
      ...step,
      id: expect.stringMatching(UUID),
      tenantId: T,
      createdAt: NOW,
    });
    expect(newTaskActionRecord(T, { ...step, id: 'a1' }, NOW).id).toBe('a1');
  });

  it('stores null, never undefined, for parts a plain-JS caller left out', () => {
    const bare = { taskId: 'task-1', stepIndex: 0, thought: 't', action: 'a', status: 'pending' };
    const action = newTaskActionRecord(T, bare as NewTaskAction, NOW);
    expect(action).toMatchObject({
      expectedOutcome: null,
      beforeState: null,
      verification: null,
      metrics: null,
    });
  });

  it('keeps given parts and time, the time normalised to UTC', () => {
    const given = {
      ...step,
      status: 'success' as const,
      beforeState: { url: 'https://a.example/', domHash: 'h' },
      metrics: { durationMs: 5, inputTokens: 1, outputTokens: 2 },
      createdAt: '2025-01-01T02:00:00+02:00',
    };
    expect(newTaskActionRecord(T, given, NOW)).toMatchObject({ ...given, createdAt: EARLIER });
  });

  it('rejects a time that is not one', () => {
    expect(() => newTaskActionRecord(T, { ...step, createdAt: 'soon' }, NOW)).toThrow(
      'Invalid timestamp: soon',
    );
  });
});
