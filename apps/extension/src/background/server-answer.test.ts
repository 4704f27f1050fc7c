import { NextActionResponse } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type { StepView } from '../shared/run-state';
import { nextMove, recordedStep, stepView } from './server-answer';

const TASK = '11111111-1111-4111-8111-111111111111';
const SESSION = '22222222-2222-4222-8222-222222222222';

/** A contract-valid answer (checked with the real schema). */
const answer = (extra: Record<string, unknown>) =>
  NextActionResponse.parse({
    thought: 'because',
    taskId: TASK,
    sessionId: SESSION,
    stepIndex: 0,
    status: 'executing',
    ...extra,
  });
const click = { action: 'click("1")', actionDetails: { name: 'click', args: { id: '1' } } };
const chain = ['setValue("1", "a")', 'setValue("2", "b")'];
const chained = {
  action: chain[0],
  actionDetails: { name: 'setValue', args: { id: '1', text: 'a' } },
  actions: chain.map((action, index) => ({ action, description: 'f', index })),
};

describe('stepView', () => {
  it('shows a single action with its status and time, and no chain', () => {
    expect(stepView(answer(click), 3, 99)).toEqual({
      index: 3,
      thought: 'because',
      action: 'click("1")',
      status: 'executing',
      at: 99,
    });
  });

  it("lists a chain's actions and the verdict on the previous step when sent", () => {
    const verification = { success: true, confidence: 0.9, reason: 'saw it' };
    const view = stepView(answer({ ...chained, verification }), 0, 1);
    expect(view.chain).toEqual(chain);
    expect(view.verification).toEqual(verification);
  });

  it('has no action at all for a request for page state', () => {
    const view = stepView(answer({ needs_full_dom: true }), 0, 1);
    expect(view).not.toHaveProperty('action');
    expect(view).not.toHaveProperty('chain');
    expect(view).not.toHaveProperty('verification');
  });
});

describe('recordedStep', () => {
  const earlier: StepView = { index: 0, thought: 'first', status: 'executing', at: 1 };

  it('appends the step at the next index, keeps the task and clears the delivered report', () => {
    const patch = recordedStep({ steps: [earlier] }, answer(click), 5);
    expect(patch).toMatchObject({ taskId: TASK, sessionId: SESSION });
    expect(patch.steps).toEqual([earlier, expect.objectContaining({ index: 1, at: 5 })]);
    expect(patch).toHaveProperty('pending', undefined);
    // Absent, not undefined: a step without counts must not erase the counts already shown.
    expect(patch).not.toHaveProperty('collected');
  });

  it('keeps the collected counts the server sent', () => {
    expect(
      recordedStep({ steps: [] }, answer({ ...click, collected: { job: 2 } }), 1),
    ).toMatchObject({ collected: { job: 2 } });
  });
});

describe('nextMove', () => {
  it('resends the page with the full DOM when the server asks for it', () => {
    expect(nextMove(answer({ needs_full_dom: true }))).toEqual({
      kind: 'resend_page',
      pending: { captureMode: 'full' },
    });
  });

  it('resends the page with the snapshot the server asked for', () => {
    expect(nextMove(answer({ needs_snapshot: { mode: 'outline' } }))).toEqual({
      kind: 'resend_page',
      pending: { snapshotRequest: { mode: 'outline' } },
    });
  });

  it('answers a request for page state even on an answer that says the task ended', () => {
    expect(nextMove(answer({ needs_full_dom: true, status: 'completed' })).kind).toBe(
      'resend_page',
    );
  });

  it('finishes a completed or failed task with its result, else with the thought', () => {
    const done = {
      action: 'finish("ok")',
      actionDetails: { name: 'finish', args: { message: 'ok' } },
    };
    expect(nextMove(answer({ ...done, status: 'completed', result: 'ok' }))).toEqual({
      kind: 'finish',
      status: 'completed',
      result: 'ok',
    });
    expect(nextMove(answer({ ...done, status: 'failed' }))).toEqual({
      kind: 'finish',
      status: 'failed',
      result: 'because',
    });
  });

  it('executes anything else', () => {
    expect(nextMove(answer(click))).toEqual({ kind: 'execute' });
    expect(nextMove(answer(chained))).toEqual({ kind: 'execute' });
  });
});
