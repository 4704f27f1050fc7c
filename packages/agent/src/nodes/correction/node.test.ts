import type { CorrectionRecord, SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../deps';
import { createScriptedLlm } from '@tandem/llm/testing';
import {
  costOf,
  nodeDeps,
  pageOf,
  pendingOf,
  pendingOn,
  planOf,
  stateWith,
} from '../../testing/state';
import { correction, correctionLimit, remappedFix } from './node';

const URL = 'https://crm.example/contacts/new';
const before = pageOf(
  [
    { i: 'first', r: 'inp', n: 'First name' },
    { i: 'save-1', r: 'btn', n: 'Save' },
  ],
  { url: URL },
);
/** The form re-rendered: Save is back under a new id. */
const rerendered = pageOf(
  [
    { i: 'first', r: 'inp', n: 'First name' },
    { i: 'save-2', r: 'btn', n: 'Save' },
    { i: 'cancel', r: 'btn', n: 'Cancel' },
  ],
  { url: URL },
);
/** Save is gone and nothing stands in for it. */
const without = pageOf(
  [
    { i: 'first', r: 'inp', n: 'First name' },
    { i: 'submit', r: 'btn', n: 'Submit form' },
  ],
  { url: URL },
);

const failedSave = pendingOn('click("save-1")', before, {
  thought: 'Save the contact',
  taskActionId: 'task-action-7',
});
const failure = {
  success: false,
  confidence: 0.9,
  reason: 'nothing changed after the click',
};

const failedState = (extra: Parameters<typeof stateWith>[0] = {}) =>
  stateWith({
    query: 'Add a contact named Jas',
    complexity: 'COMPLEX',
    plan: planOf(['Type Jas into First name', 'Click Save'], 1),
    currentStepIndex: 1,
    pending: failedSave,
    page: without,
    lastVerification: failure,
    ...extra,
  });

const modelFix = (action: string, strategy = 'ALTERNATIVE_SELECTOR', reason = 'Submit saves') => ({
  node: 'correction' as const,
  output: { strategy, action, reason },
  usage: { inputTokens: 120, outputTokens: 20 },
});

const record = (extra: Partial<CorrectionRecord>): CorrectionRecord => ({
  id: expect.any(String) as string,
  stepIndex: 1,
  attempt: 1,
  failedAction: 'click("save-1")',
  correctedAction: 'click("save-2")',
  strategy: 'ALTERNATIVE_SELECTOR',
  reason: 'the element re-rendered under a new id',
  createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
  ...extra,
});

describe('correctionLimit', () => {
  it('allows maxRetriesPerStep corrections of one step', () => {
    expect(correctionLimit({ retryCount: 0, consecutiveFailures: 1 }, DEFAULT_LIMITS)).toBeNull();
    expect(correctionLimit({ retryCount: 2, consecutiveFailures: 3 }, DEFAULT_LIMITS)).toBeNull();
    expect(correctionLimit({ retryCount: 3, consecutiveFailures: 1 }, DEFAULT_LIMITS)).toBe(
      '3 corrections of the same step',
    );
  });

  it('stops at maxConsecutiveFailures failed steps in a row', () => {
    expect(correctionLimit({ retryCount: 0, consecutiveFailures: 4 }, DEFAULT_LIMITS)).toBeNull();
    expect(correctionLimit({ retryCount: 0, consecutiveFailures: 5 }, DEFAULT_LIMITS)).toBe(
      '5 failed steps in a row',
    );
    const strict = { ...DEFAULT_LIMITS, maxRetriesPerStep: 1, maxConsecutiveFailures: 2 };
    expect(correctionLimit({ retryCount: 1, consecutiveFailures: 0 }, strict)).toBe(
      '1 corrections of the same step',
    );
    expect(correctionLimit({ retryCount: 0, consecutiveFailures: 2 }, strict)).toBe(
      '2 failed steps in a row',
    );
  });
});

describe('correction: limits', () => {
  it.each([
    { retryCount: 3, consecutiveFailures: 1, limit: '3 corrections of the same step' },
    { retryCount: 0, consecutiveFailures: 5, limit: '5 failed steps in a row' },
  ])(
    'refuses with MAX_RETRIES_EXCEEDED and fails the task after $limit',
    async ({ retryCount, consecutiveFailures, limit }) => {
      // Even a fix that needs no model is not tried past the limit.
      const llm = createScriptedLlm([], { zeroLatency: true });
      const state = failedState({ retryCount, consecutiveFailures, page: rerendered });
      const update = await correction(nodeDeps({ llm }))(state);

      llm.assertDone();
      const message = `Gave up after ${limit}. Last failure: nothing changed after the click`;
      expect(update).toEqual({
        status: 'failed',
        result: message,
        outcome: { kind: 'refused', code: 'MAX_RETRIES_EXCEEDED', message, failTask: true },
      });
    },
  );
});

describe('remappedFix', () => {
  it('re-finds a target that re-rendered under a new id by role and name', () => {
    expect(remappedFix(failedSave, rerendered)).toEqual({
      action: { name: 'click', args: { id: 'save-2' } },
      strategy: 'ALTERNATIVE_SELECTOR',
      deterministic: true,
      why: 'the element re-rendered under a new id',
    });
  });

  it('is null when the id is still there, nothing or several match, or the action was a chain', () => {
    expect(remappedFix(failedSave, before)).toBeNull();
    expect(remappedFix(failedSave, without)).toBeNull();
    const twoSaves: SemanticNodeV3[] = [
      { i: 'save-2', r: 'btn', n: 'Save' },
      { i: 'save-3', r: 'btn', n: 'Save' },
    ];
    expect(remappedFix(failedSave, pageOf(twoSaves))).toBeNull();
    const covered: SemanticNodeV3[] = [{ i: 'save-2', r: 'btn', n: 'Save', occ: true }];
    expect(remappedFix(failedSave, pageOf(covered))).toBeNull();
    const chain = pendingOf('setValue("0", "x")', { chain: true });
    expect(remappedFix(chain, rerendered)).toBeNull();
  });
});

describe('correction: fixes', () => {
  it('fixes a re-rendered target without a model: ALTERNATIVE_SELECTOR, zero LLM calls', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const state = failedState({ page: rerendered, retryCount: 0 });
    const update = await correction(nodeDeps({ llm }))(state);

    llm.assertDone();
    expect(llm.calls).toHaveLength(0);
    expect(update).toEqual({
      tokens: state.tokens,
      retryCount: 1,
      // In words too, for a lesson: here the same words, the target only re-rendered.
      corrections: [
        record({ failedSummary: 'Clicked “Save”', correctedSummary: 'Clicked “Save”' }),
      ],
      pending: {
        stepIndex: 1,
        thought: 'Correction (ALTERNATIVE_SELECTOR): the element re-rendered under a new id',
        action: { name: 'click', args: { id: 'save-2' } },
        chain: null,
        expectedOutcome: null,
        beforeState: expect.objectContaining({ url: URL }) as object,
        // A correction retries the step: it keeps the step's task action record.
        taskActionId: 'task-action-7',
        source: 'correction',
        deterministic: true,
        targets: [expect.objectContaining({ id: 'save-2', role: 'btn', name: 'Save' }) as object],
      },
      nextActionReady: true,
    });
  });

  it('asks the model otherwise, validates its fix against the page and records it', async () => {
    const earlier = record({ id: 'c-0', attempt: 1, succeeded: false });
    const llm = createScriptedLlm([modelFix('click("submit")')], { zeroLatency: true });
    const state = failedState({
      retryCount: 1,
      corrections: [earlier],
      tokens: { input: 1000, output: 100, saved: 50, calls: 4 },
    });
    const update = await correction(nodeDeps({ llm }))(state);

    llm.assertDone();
    const [call] = llm.callsFor('correction');
    expect(call?.actionType).toBe('SELF_CORRECTION');
    expect(call?.prompt).toContain('Current plan step: Click Save');
    expect(call?.prompt).toContain('Failed action (attempt 2): click("save-1")');
    expect(call?.prompt).toContain(
      'Why it failed:\n<page_content untrusted="true">\nnothing changed after the click\n</page_content>',
    );
    expect(update).toMatchObject({
      tokens: { input: 1120, output: 120, saved: 50, calls: 5, costMicroUsd: costOf(120, 20) },
      retryCount: 2,
      corrections: [
        earlier,
        record({ attempt: 2, correctedAction: 'click("submit")', reason: 'Submit saves' }),
      ],
      pending: {
        action: { name: 'click', args: { id: 'submit' } },
        thought: 'Correction (ALTERNATIVE_SELECTOR): Submit saves',
        source: 'correction',
        taskActionId: 'task-action-7',
        targets: [{ id: 'submit', role: 'btn', name: 'Submit form' }],
      },
      nextActionReady: true,
    });
  });

  it('keeps the strategy the model chose', async () => {
    const llm = createScriptedLlm([modelFix('scroll("down")', 'GATHER_INFORMATION', 'look')], {
      zeroLatency: true,
    });
    const update = await correction(nodeDeps({ llm }))(failedState());
    expect(update).toMatchObject({
      corrections: [
        record({
          correctedAction: 'scroll("down")',
          strategy: 'GATHER_INFORMATION',
          reason: 'look',
        }),
      ],
      pending: { action: { name: 'scroll', args: { direction: 'down' } } },
    });
  });

  it.each([
    { action: 'click("save-1")', why: 'an element not on the page' },
    { action: 'clik("submit")', why: 'text outside the grammar' },
  ])('fails the task when the model names $why', async ({ action }) => {
    const llm = createScriptedLlm([modelFix(action)], { zeroLatency: true });
    const update = await correction(nodeDeps({ llm }))(failedState());

    llm.assertDone();
    expect(update).toEqual({
      tokens: { input: 120, output: 20, saved: 0, calls: 1, costMicroUsd: costOf(120, 20) },
      status: 'failed',
      result:
        'Could not correct the failed action click("save-1"): nothing changed after the click',
    });
  });

  it('a fail() fix fails the task with its reason', async () => {
    const llm = createScriptedLlm([modelFix('fail("The record is locked")', 'UPDATE_PLAN')], {
      zeroLatency: true,
    });
    const update = await correction(nodeDeps({ llm }))(failedState());
    expect(update).toEqual({
      tokens: { input: 120, output: 20, saved: 0, calls: 1, costMicroUsd: costOf(120, 20) },
      status: 'failed',
      result: 'The record is locked',
    });
  });

  it('a finish() fix completes the task, with its message or else the model reason', async () => {
    const withMessage = createScriptedLlm([modelFix('finish("Jas is already saved")')], {
      zeroLatency: true,
    });
    expect(await correction(nodeDeps({ llm: withMessage }))(failedState())).toMatchObject({
      status: 'completed',
      result: 'Jas is already saved',
    });
    const bare = createScriptedLlm([modelFix('finish()', 'UPDATE_PLAN', 'The list shows Jas')], {
      zeroLatency: true,
    });
    const update = await correction(nodeDeps({ llm: bare }))(failedState());
    expect(update).toEqual({
      tokens: { input: 120, output: 20, saved: 0, calls: 1, costMicroUsd: costOf(120, 20) },
      status: 'completed',
      result: 'The list shows Jas',
    });
  });

  it('without a model, a failure it cannot remap fails the task', async () => {
    const state = failedState({ lastVerification: null });
    const update = await correction(nodeDeps())(state);
    expect(update).toEqual({
      tokens: state.tokens,
      status: 'failed',
      result: 'Could not correct the failed action click("save-1"): verification failed',
    });
  });

  it('without a model, a re-rendered target is still fixed', async () => {
    const update = await correction(nodeDeps())(failedState({ page: rerendered }));
    expect(update).toMatchObject({
      retryCount: 1,
      pending: { action: { name: 'click', args: { id: 'save-2' } } },
      nextActionReady: true,
    });
  });
});
