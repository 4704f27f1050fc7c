import { NeedsUserInputResponse, NextActionResponse } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type { StepView } from '../shared/run-state';
import {
  askedQuestion,
  nextMove,
  recordedStep,
  stepSummary,
  stepView,
  withVerdict,
} from './server-answer';

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
  it('shows a single action in plain language with its plan step, status and time', () => {
    expect(
      stepView(answer({ ...click, actionSummary: 'Clicked “Go”', stepIndex: 2 }), 3, 99),
    ).toEqual({
      index: 3,
      thought: 'because',
      summary: 'Clicked “Go”',
      planStep: 2,
      action: 'click("1")',
      status: 'executing',
      at: 99,
    });
  });

  it("lists a chain's actions, and never the verdict the answer carries (it judges the step before)", () => {
    const verification = { success: true, confidence: 0.9, reason: 'saw it' };
    const view = stepView(answer({ ...chained, verification }), 0, 1);
    expect(view.chain).toEqual(chain);
    expect(view).not.toHaveProperty('verification');
  });

  it('marks a request for page state as a read, with no action at all', () => {
    const view = stepView(answer({ needs_full_dom: true }), 0, 1);
    expect(view).toMatchObject({ read: true, summary: 'Read the whole page' });
    expect(view).not.toHaveProperty('action');
    expect(view).not.toHaveProperty('chain');
    expect(view).not.toHaveProperty('verification');
  });
});

describe('stepSummary', () => {
  it("uses the server's words when it sent them", () => {
    expect(stepSummary(answer({ ...click, actionSummary: 'Clicked “Patients”' }))).toBe(
      'Clicked “Patients”',
    );
  });

  it('names a page read by what was read', () => {
    expect(stepSummary(answer({ needs_snapshot: { mode: 'outline' } }))).toBe(
      'Read the page outline',
    );
  });

  it('describes the action or the chain itself when the server sent no summary', () => {
    expect(stepSummary(answer(click))).toBe('Clicked element 1');
    expect(stepSummary(answer(chained))).toBe(
      'Typed “a” into field 1, then typed “b” into field 2',
    );
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

  it('keeps the collected counts and skipped duplicates the server sent', () => {
    expect(
      recordedStep(
        { steps: [] },
        answer({ ...click, collected: { job: 2 }, duplicatesSkipped: 3 }),
        1,
      ),
    ).toMatchObject({ collected: { job: 2 }, duplicatesSkipped: 3 });
  });

  it('keeps the latest list of extractions the server sent, in place of the last one', () => {
    const products = {
      extractionId: 'products',
      items: 40,
      pages: 2,
      isPartial: false,
      summary: '40 unique products from 2 pages, extraction_id=products',
    };
    const patch = recordedStep({ steps: [] }, answer({ ...click, extractions: [products] }), 1);
    expect(patch.extractions).toEqual([products]);
    // Absent, not undefined: a response without the list keeps the one shown.
    expect(recordedStep({ steps: [] }, answer(click), 1)).not.toHaveProperty('extractions');
    expect(
      recordedStep({ steps: [] }, answer({ ...click, extractions: [] }), 1).extractions,
    ).toEqual([]);
  });

  it('keeps what the server says of the routine the task runs, and the last word once it stops', () => {
    const routine = {
      routineId: 'r-1',
      name: 'Add patient',
      version: 2,
      savedAt: '2026-11-12T10:00:00.000Z',
      done: 1,
      steps: 4,
      modelCalls: 0,
      healed: [],
      fellBack: null,
    };
    expect(recordedStep({ steps: [] }, answer({ ...click, routine }), 1).routine).toEqual(routine);
    // The answers after the hand-over send none: the banner keeps the last one.
    expect(recordedStep({ steps: [] }, answer(click), 1)).not.toHaveProperty('routine');
  });

  it('puts the verdict on the step it judges, not on the new one', () => {
    const verification = { success: false, confidence: 0.8, reason: 'no dialog' };
    const acted: StepView = { ...earlier, action: 'click("1")' };
    const patch = recordedStep({ steps: [acted] }, answer({ ...click, verification }), 5);
    expect(patch.steps?.[0]?.verification).toEqual(verification);
    expect(patch.steps?.[1]).not.toHaveProperty('verification');
  });

  it('counts the answered request, keeps plan, plan step and usage, and drops key and wait', () => {
    const plan = {
      goal: 'g',
      steps: [{ index: 0, description: 'open', status: 'active' }],
      currentStepIndex: 0,
    };
    const usage = { inputTokens: 10, outputTokens: 2, totalTokens: 12, costMicroUsd: 30 };
    const patch = recordedStep(
      { steps: [], requests: 4 },
      answer({ ...click, plan, usage, stepIndex: 1 }),
      1,
    );
    expect(patch).toMatchObject({ requests: 5, currentStep: 1, usage });
    expect(patch.plan).toMatchObject({ goal: 'g', currentStepIndex: 0 });
    expect(patch).toHaveProperty('requestKey', undefined);
    expect(patch).toHaveProperty('wait', undefined);
    expect(recordedStep({ steps: [] }, answer(click), 1).requests).toBe(1);
  });

  it('appends no step for the answer that ends the task, but judges the last step', () => {
    const verification = { success: true, confidence: 0.9, reason: 'saved' };
    const done = answer({
      action: 'finish("Saved Jas Patel")',
      actionDetails: { name: 'finish', args: { message: 'Saved Jas Patel' } },
      status: 'completed',
      result: 'Jas Patel is saved.',
      verification,
    });
    const acted: StepView = { ...earlier, action: 'click("1")' };
    const patch = recordedStep({ steps: [acted] }, done, 9);
    expect(patch.steps).toEqual([{ ...acted, verification }]);
  });

  it('still records a page read the answer that ends the task asks for', () => {
    const read = answer({ needs_snapshot: { mode: 'content' }, status: 'completed' });
    expect(recordedStep({ steps: [] }, read, 1).steps).toHaveLength(1);
  });
});

describe('withVerdict', () => {
  const verification = { success: true, confidence: 0.9, reason: 'ok' };
  const acted: StepView = {
    index: 0,
    thought: 't',
    action: 'click("1")',
    status: 'executing',
    at: 1,
  };
  const read: StepView = { index: 1, thought: 't', read: true, status: 'executing', at: 2 };

  it('judges the latest step that acted, past the page reads after it', () => {
    expect(withVerdict([acted, read], verification)).toEqual([{ ...acted, verification }, read]);
  });

  it('judges a chain', () => {
    const chainStep: StepView = { ...acted, action: undefined, chain };
    expect(withVerdict([chainStep], verification)[0]?.verification).toEqual(verification);
  });

  it('leaves the steps alone without a verdict, or with no step that acted', () => {
    const steps = [acted];
    expect(withVerdict(steps, undefined)).toBe(steps);
    expect(withVerdict([read], verification)).toEqual([read]);
    expect(withVerdict([], verification)).toEqual([]);
  });
});

describe('askedQuestion', () => {
  const question = (taskId: string | null) =>
    NeedsUserInputResponse.parse({
      needsUserInput: true,
      message: 'Which date of birth?',
      missingInformation: ['dob'],
      sessionId: SESSION,
      taskId,
      usage: { inputTokens: 5, outputTokens: 1, totalTokens: 6 },
    });

  it('waits for the answer with the question, its task and session, and counts the request', () => {
    const patch = askedQuestion({ requests: 2 }, question(TASK));
    expect(patch).toMatchObject({
      status: 'needs_input',
      question: 'Which date of birth?',
      taskId: TASK,
      sessionId: SESSION,
      requests: 3,
      usage: { totalTokens: 6 },
    });
    expect(patch).toHaveProperty('pending', undefined);
    expect(patch).toHaveProperty('requestKey', undefined);
  });

  it("keeps the run's taskId when the server sent none", () => {
    expect(askedQuestion({}, question(null))).not.toHaveProperty('taskId');
  });
});

describe('nextMove', () => {
  it('resends the page with the full DOM when the server asks for it', () => {
    expect(nextMove(answer({ needs_full_dom: true }))).toEqual({
      kind: 'resend_page',
      pending: { captureMode: 'full' },
    });
  });

  it('resends the page with a screenshot (hybrid capture) when the server asks for one', () => {
    expect(nextMove(answer({ needs_screenshot: true }))).toEqual({
      kind: 'resend_page',
      pending: { captureMode: 'hybrid' },
    });
    expect(stepView(answer({ needs_screenshot: true }), 0, 1)).toMatchObject({
      read: true,
      summary: 'Looked at a screenshot of the page',
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
