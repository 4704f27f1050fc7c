import {
  emptyTaskMetrics,
  type NextActionResponse,
  type VerificationResult,
} from '@tandem/contracts';
import type { Task } from '@tandem/store';
import { describe, expect, it } from 'vitest';
import { addKpiCounts } from '../state';
import { pageWith, pendingOf, stateWith } from '../testing/state';
import {
  metricsAfter,
  newTaskFrom,
  stepEventsFrom,
  taskActionFrom,
  taskPatchFrom,
  verdictPatchFrom,
} from './task-record';

const verdict = (success: boolean): VerificationResult => ({
  success,
  confidence: 0.9,
  reason: success ? 'saved' : 'nothing changed',
  actionSucceeded: success,
  taskCompleted: false,
  goalAchieved: false,
  verificationTier: 1,
  tokensSaved: 0,
});

const running = stateWith({
  status: 'executing',
  complexity: 'COMPLEX',
  stepCount: 3,
  requestCount: 4,
  currentStepIndex: 1,
  tokens: { input: 100, output: 20, saved: 5, calls: 2 },
  page: pageWith({ url: 'https://emr.example/patients' }),
  pending: pendingOf('click("4")', { stepIndex: 1, thought: 'Open the form' }),
  lastVerification: verdict(true),
});

const existing = {
  id: running.taskId,
  metrics: {
    ...emptyTaskMetrics(),
    totalDurationMs: 40,
    verificationsPassed: 2,
    verificationsFailed: 1,
  },
} as Task;

const response = (extra: Partial<NextActionResponse> = {}): NextActionResponse => ({
  thought: 'Open the form',
  taskId: running.taskId,
  sessionId: running.sessionId,
  stepIndex: 1,
  status: 'executing',
  action: 'click("4")',
  actionDetails: { name: 'click', args: { id: '4' } },
  ...extra,
});

describe('metricsAfter', () => {
  it('takes counts from the state and adds this request to the sums', () => {
    expect(
      metricsAfter(running, existing.metrics, { durationMs: 7, verifiedPrevious: true }),
    ).toEqual({
      ...emptyTaskMetrics(),
      totalSteps: 3,
      totalRequests: 4,
      totalDurationMs: 47,
      inputTokens: 100,
      outputTokens: 20,
      totalTokens: 120,
      verificationsPassed: 3,
      verificationsFailed: 1,
      corrections: 0,
    });
  });

  it('counts a verdict only when this run verified the previous step', () => {
    const failed = { ...running, lastVerification: verdict(false) };
    expect(
      metricsAfter(failed, existing.metrics, { durationMs: 1, verifiedPrevious: true }),
    ).toMatchObject({
      verificationsPassed: 2,
      verificationsFailed: 2,
    });
    expect(
      metricsAfter(failed, existing.metrics, { durationMs: 1, verifiedPrevious: false }),
    ).toMatchObject({
      verificationsPassed: 2,
      verificationsFailed: 1,
    });
    expect(metricsAfter(running, null, { durationMs: 9, verifiedPrevious: false })).toMatchObject({
      totalDurationMs: 9,
      verificationsPassed: 0,
    });
  });

  it("copies the task's KPI counters, which the state keeps as totals (increments are summed)", () => {
    const counted = {
      ...running,
      kpiCounts: addKpiCounts(addKpiCounts({}, { actionsSent: 3, criticReviews: 1 }), {
        actionsSent: 1,
        criticReviews: 1,
        criticRejections: 1,
        lookAheadCaught: 0,
      }),
    };
    expect(counted.kpiCounts).toEqual({ actionsSent: 4, criticReviews: 2, criticRejections: 1 });
    const first = metricsAfter(counted, existing.metrics, {
      durationMs: 1,
      verifiedPrevious: false,
    });
    expect(first).toMatchObject({ actionsSent: 4, criticReviews: 2, criticRejections: 1 });
    // The next request's totals replace the row's: nothing is counted twice.
    const next = metricsAfter(counted, first, { durationMs: 1, verifiedPrevious: false });
    expect(next).toMatchObject({ actionsSent: 4, criticReviews: 2, criticRejections: 1 });
    expect(
      metricsAfter(running, null, { durationMs: 1, verifiedPrevious: false }),
    ).not.toHaveProperty('criticReviews');
  });
});

describe('taskPatchFrom / newTaskFrom', () => {
  it('copies the progress the checkpoint holds onto the task row', () => {
    const chained = {
      ...running,
      status: 'active' as const,
      pending: pendingOf('setValue("0", "x")', { chain: true, stepIndex: 1 }),
      webSearchSummary: 'found it',
      result: null,
    };
    const patch = taskPatchFrom(chained, existing, { durationMs: 1, verifiedPrevious: false });
    expect(patch).toMatchObject({
      status: 'executing',
      complexity: 'COMPLEX',
      currentStepIndex: 1,
      corrections: [],
      result: null,
      consecutiveFailures: 0,
      webSearchResult: 'found it',
      lastChain: { stepIndex: 1, metadata: { totalActions: 3 } },
    });
    expect(patch.lastChain?.actions).toHaveLength(3);
    expect(
      taskPatchFrom(running, existing, { durationMs: 1, verifiedPrevious: false }).lastChain,
    ).toBeNull();
  });

  it('a new task adds who asked what, where, with its collect limit', () => {
    const first = { ...running, query: 'Extract 5 jobs', collectLimit: 5 };
    const patch = taskPatchFrom(first, null, { durationMs: 1, verifiedPrevious: false });
    expect(newTaskFrom(first, { userId: 'user-9' }, patch)).toMatchObject({
      id: running.taskId,
      userId: 'user-9',
      sessionId: running.sessionId,
      url: 'https://emr.example/patients',
      query: 'Extract 5 jobs',
      collectLimit: 5,
      status: 'executing',
    });
  });
});

describe('verdictPatchFrom', () => {
  it('writes the verdict and its status, or nothing without one', () => {
    expect(verdictPatchFrom(running)).toEqual({ verification: verdict(true), status: 'success' });
    expect(verdictPatchFrom({ ...running, lastVerification: verdict(false) })).toMatchObject({
      status: 'failure',
    });
    expect(verdictPatchFrom({ ...running, lastVerification: null })).toBeNull();
  });
});

describe('taskActionFrom', () => {
  it('records the action sent, pending until verified', () => {
    expect(taskActionFrom(running, response(), 12)).toEqual({
      taskId: running.taskId,
      stepIndex: 1,
      thought: 'Open the form',
      action: 'click("4")',
      expectedOutcome: null,
      beforeState: running.pending?.beforeState,
      verification: null,
      status: 'pending',
      metrics: { durationMs: 12, inputTokens: 100, outputTokens: 20 },
    });
  });

  it('a chain is recorded as its actions; a terminal action as success or failure', () => {
    const chained = { ...running, pending: pendingOf('setValue("0", "x")', { chain: true }) };
    expect(taskActionFrom(chained, response(), 1)?.action).toBe(
      'setValue("0", "x"); setValue("1", "x"); setValue("2", "x")',
    );
    expect(taskActionFrom({ ...running, status: 'completed' }, response(), 1)?.status).toBe(
      'success',
    );
    expect(taskActionFrom({ ...running, status: 'failed' }, response(), 1)?.status).toBe('failure');
  });

  it('records nothing for a correction (it reuses its step’s record) or a page read', () => {
    const corrected = { ...running, pending: pendingOf('click("5")', { source: 'correction' }) };
    expect(taskActionFrom(corrected, response(), 1)).toBeNull();
    expect(
      taskActionFrom(running, response({ needs_snapshot: { mode: 'outline' } }), 1),
    ).toBeNull();
    expect(taskActionFrom({ ...running, pending: null }, response(), 1)).toBeNull();
  });
});

describe('stepEventsFrom', () => {
  const at = '2026-11-24T20:00:00.000Z';
  it('announces a pending step, or a page read by its mode', () => {
    expect(stepEventsFrom(running, response(), at)).toEqual([
      {
        event: 'step',
        taskId: running.taskId,
        stepIndex: 1,
        action: 'click("4")',
        status: 'pending',
        thought: 'Open the form',
        at,
      },
    ]);
    const read = response({
      action: undefined,
      actionDetails: undefined,
      needs_snapshot: { mode: 'content' },
    });
    expect(stepEventsFrom(running, read, at)[0]).toMatchObject({ action: 'readPage(content)' });
  });

  it('adds done, with the result and counts, when the task ended', () => {
    const ended = {
      ...running,
      status: 'completed' as const,
      result: 'Saved',
      collectedCounts: { job: 2 },
    };
    expect(stepEventsFrom(ended, response({ status: 'completed' }), at)).toEqual([
      expect.objectContaining({ event: 'step', status: 'success' }),
      {
        event: 'done',
        taskId: running.taskId,
        status: 'completed',
        result: 'Saved',
        counts: { job: 2 },
      },
    ]);
    const failed = { ...running, status: 'failed' as const, result: 'No form' };
    expect(stepEventsFrom(failed, response(), at).map((e) => e.event)).toEqual(['step', 'done']);
    expect(stepEventsFrom(failed, response(), at)[0]).toMatchObject({ status: 'failure' });
  });
});
