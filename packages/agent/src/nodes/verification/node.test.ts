import type { CorrectionRecord, SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../deps';
import { createScriptedLlm } from '@tandem/llm/testing';
import { semanticSkeleton } from '../../page/page-state';
import type { PreviousAction } from '../../state';
import {
  applyUpdate,
  costOf,
  nodeDeps,
  pageOf,
  pageWith,
  pendingOf,
  pendingOn,
  planOf,
  stateWith,
  recordingTracing,
} from '../../testing/state';
import { chainBreakVerdict, isChainBreak, tierFor, velocityStreak, verification } from './node';
import { fullPrompt, lightPrompt, verificationSystem } from './prompt';

const URL = 'https://crm.example/contacts/new';
const form: SemanticNodeV3[] = [
  { i: 'first', r: 'inp', n: 'First name' },
  { i: 'save', r: 'btn', n: 'Save' },
];
const before = pageOf(form, { url: URL });
/** The page after a click that changed something (the client saw the DOM mutate). */
const changed = pageOf(form, { url: URL, observations: { didDomMutate: true } });
/** The page after an action that changed nothing. */
const unchanged = pageOf(form, { url: URL });

const clickSave = pendingOn('click("save")', before, { thought: 'Save the contact' });
const QUERY = 'Add a contact named Jas';

/** A COMPLEX task on step `current` of a two-step plan, the click on Save in flight. */
const complexState = (current: number, extra: Parameters<typeof stateWith>[0] = {}) =>
  stateWith({
    query: QUERY,
    complexity: 'COMPLEX',
    plan: planOf(['Type Jas into First name', 'Click Save'], current),
    currentStepIndex: current,
    pending: clickSave,
    page: changed,
    ...extra,
  });

const verdict = (
  output: { action_succeeded: boolean; task_completed: boolean; confidence: number },
  reason = 'The contact was saved',
) => ({
  node: 'verification' as const,
  output: { ...output, reason },
  usage: { inputTokens: 40, outputTokens: 10 },
});

const CLICK_OBSERVED = ['URL unchanged', 'page content changed'];

describe('tierFor', () => {
  const conclusive = { conclusive: true, success: true };
  const final = { llmConfigured: true, complex: true, finalStep: true };

  it('is tier 1 whenever no model is configured, whatever tier 1 found', () => {
    expect(tierFor({ conclusive: false, success: false }, { ...final, llmConfigured: false })).toBe(
      1,
    );
    expect(tierFor(conclusive, { ...final, llmConfigured: false })).toBe(1);
  });

  it('is tier 3 when tier 1 is inconclusive', () => {
    expect(tierFor({ conclusive: false, success: true }, { ...final, finalStep: false })).toBe(3);
    expect(tierFor({ conclusive: false, success: false }, { ...final, complex: false })).toBe(3);
  });

  it('is tier 2 only at the final step of a COMPLEX task whose mechanics checked out', () => {
    expect(tierFor(conclusive, final)).toBe(2);
    expect(tierFor(conclusive, { ...final, finalStep: false })).toBe(1);
    expect(tierFor(conclusive, { ...final, complex: false })).toBe(1);
    expect(tierFor({ conclusive: true, success: false }, final)).toBe(1);
  });
});

describe('verification: tier 1', () => {
  it('judges an intermediate step without a model and counts the tokens it saved', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const state = complexState(0);
    const update = await verification(nodeDeps({ llm }))(state);

    llm.assertDone();
    expect(llm.calls).toHaveLength(0);
    expect(update).toEqual({
      lastVerification: {
        success: true,
        confidence: 0.8,
        reason: 'the page responded to the click',
        actionSucceeded: true,
        taskCompleted: false,
        goalAchieved: false,
        verificationTier: 1,
        tokensSaved: expect.any(Number),
        observations: CLICK_OBSERVED,
      },
      tokens: { input: 0, output: 0, calls: 0, saved: expect.any(Number), costMicroUsd: 0 },
      // What a routine compiled from the task keeps of the verdict.
      routineTrace: [
        expect.objectContaining({
          stepIndex: 0,
          verified: true,
          partial: false,
          expect: expect.objectContaining({ tier: 1, reason: 'the page responded to the click' }),
        }),
      ],
      corrections: [],
      consecutiveFailures: 0,
      retryCount: 0,
      consecutiveSuccessWithoutTaskComplete: 0,
      previousActions: [
        {
          stepIndex: 0,
          action: 'click("save")',
          thought: 'Save the contact',
          success: true,
          reason: 'the page responded to the click',
        },
      ],
    });
    const after = applyUpdate(state, update);
    expect(after.lastVerification?.tokensSaved).toBeGreaterThan(0);
    expect(after.tokens.saved).toBe(after.lastVerification?.tokensSaved);
  });

  it('adds the saved tokens to what earlier steps saved', async () => {
    const state = complexState(0, { tokens: { input: 500, output: 50, saved: 1000, calls: 3 } });
    const llm = createScriptedLlm([], { zeroLatency: true });
    const after = applyUpdate(state, await verification(nodeDeps({ llm }))(state));
    const saved = after.lastVerification?.tokensSaved ?? 0;
    expect(saved).toBeGreaterThan(0);
    expect(after.tokens).toEqual({ input: 500, output: 50, calls: 3, saved: 1000 + saved });
  });

  it('without a model, a final COMPLEX step that worked and shows a success message completes', async () => {
    const page = pageOf(form, {
      url: URL,
      observations: { didDomMutate: true },
      hasSuccess: true,
      successMessages: ['Contact saved'],
    });
    const update = await verification(nodeDeps())(complexState(1, { page }));
    expect(update).toMatchObject({
      lastVerification: {
        success: true,
        taskCompleted: true,
        goalAchieved: true,
        verificationTier: 1,
        observations: [...CLICK_OBSERVED, 'success messages: Contact saved'],
      },
      status: 'completed',
      result: 'the page responded to the click',
    });
  });

  it('without a model and without a success message, the final step does not complete the task', async () => {
    const update = await verification(nodeDeps())(complexState(1));
    expect(update.lastVerification).toMatchObject({
      success: true,
      taskCompleted: false,
      goalAchieved: false,
      verificationTier: 1,
    });
    expect(update.status).toBeUndefined();
    expect(update.result).toBeUndefined();
  });

  it('a failed action counts a consecutive failure and keeps the retry count for correction', async () => {
    const state = complexState(0, { page: unchanged, retryCount: 2, consecutiveFailures: 1 });
    const update = await verification(nodeDeps())(state);
    expect(update).toMatchObject({
      lastVerification: {
        success: false,
        actionSucceeded: false,
        reason: 'nothing changed after the click',
        verificationTier: 1,
      },
      consecutiveFailures: 2,
      retryCount: 2,
      consecutiveSuccessWithoutTaskComplete: 0,
      previousActions: [
        { action: 'click("save")', success: false, reason: 'nothing changed after the click' },
      ],
    });
    expect(update.status).toBeUndefined();
  });

  it('a success resets the failure and retry counters', async () => {
    const state = complexState(0, { retryCount: 2, consecutiveFailures: 3 });
    const update = await verification(nodeDeps())(state);
    expect(update).toMatchObject({ consecutiveFailures: 0, retryCount: 0 });
  });
});

describe('verification: tier 2 and tier 3', () => {
  it('tier 2: a light prompt of the observations at the final COMPLEX step whose mechanics checked out', async () => {
    const llm = createScriptedLlm(
      [verdict({ action_succeeded: true, task_completed: true, confidence: 0.9 })],
      { zeroLatency: true },
    );
    const state = complexState(1);
    const update = await verification(nodeDeps({ llm }))(state);

    llm.assertDone();
    const [call] = llm.callsFor('verification');
    expect(call).toMatchObject({
      actionType: 'VERIFICATION',
      system: verificationSystem,
      prompt: lightPrompt({
        goal: QUERY,
        action: 'click("save")',
        observations: CLICK_OBSERVED,
        lastStep: 'Click Save',
      }),
    });
    expect(update).toMatchObject({
      lastVerification: {
        success: true,
        confidence: 0.9,
        reason: 'The contact was saved',
        actionSucceeded: true,
        taskCompleted: true,
        goalAchieved: true,
        verificationTier: 2,
        observations: CLICK_OBSERVED,
      },
      status: 'completed',
      result: 'The contact was saved',
      consecutiveSuccessWithoutTaskComplete: 0,
    });
    // The light prompt saves what the full one would have cost; the call's tokens are counted.
    const saved = applyUpdate(state, update).lastVerification?.tokensSaved ?? 0;
    expect(saved).toBeGreaterThan(0);
    expect(update.tokens).toEqual({
      input: 40,
      output: 10,
      calls: 1,
      saved,
      costMicroUsd: costOf(40, 10),
    });
  });

  it("the step's own prediction settles the goal at tier 1 when the page shows its evidence", async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const predicted = {
      ...clickSave,
      expectedOutcome: {
        description: 'The contact is saved',
        completesGoal: true,
        answer: 'Jas is added.',
        source: 'llm' as const,
      },
    };
    const saved = pageOf(form, {
      url: URL,
      observations: { didDomMutate: true },
      hasSuccess: true,
      successMessages: ['Contact saved'],
    });
    const confirmedState = complexState(1, { pending: predicted, page: saved });
    const update = await verification(nodeDeps({ llm }))(confirmedState);
    expect(llm.calls).toHaveLength(0);
    expect(update).toMatchObject({
      lastVerification: { verificationTier: 1, taskCompleted: true, goalAchieved: true },
      status: 'completed',
    });
    expect(applyUpdate(confirmedState, update).lastVerification?.reason).toContain(
      'the page confirms the goal: “Contact saved”',
    );

    // Without the evidence (no success message, no text it named), the model judges the goal.
    const judged = createScriptedLlm(
      [verdict({ action_succeeded: true, task_completed: true, confidence: 0.9 })],
      { zeroLatency: true },
    );
    const plainState = complexState(1, { pending: predicted });
    const plain = await verification(nodeDeps({ llm: judged }))(plainState);
    judged.assertDone();
    expect(applyUpdate(plainState, plain).lastVerification?.verificationTier).toBe(2);
    // A step that did not say it completes the goal is judged by the model too.
    const unsaid = createScriptedLlm(
      [verdict({ action_succeeded: true, task_completed: true, confidence: 0.9 })],
      { zeroLatency: true },
    );
    await verification(nodeDeps({ llm: unsaid }))(complexState(1, { page: saved }));
    unsaid.assertDone();
  });

  it('a last-step action that said it does not finish the goal is verified without a model', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const scrolling = {
      ...clickSave,
      expectedOutcome: { description: 'More rows', completesGoal: false, source: 'llm' as const },
    };
    const state = complexState(1, { pending: scrolling });
    const update = await verification(nodeDeps({ llm }))(state);
    expect(llm.calls).toHaveLength(0);
    expect(applyUpdate(state, update).lastVerification).toMatchObject({
      verificationTier: 1,
      success: true,
      goalAchieved: false,
    });
  });

  it('tier 3: the full prompt with the page when tier 1 is inconclusive, and no tokens saved', async () => {
    // Nothing changed after pressing Enter: tier 1 cannot tell (a search may run in place).
    const pending = pendingOn('press("Enter")', before, { thought: 'Submit' });
    const llm = createScriptedLlm(
      [
        verdict(
          { action_succeeded: true, task_completed: false, confidence: 0.8 },
          'the search ran',
        ),
      ],
      { zeroLatency: true },
    );
    const update = await verification(nodeDeps({ llm }))(
      complexState(0, { pending, page: unchanged }),
    );

    llm.assertDone();
    expect(llm.callsFor('verification')[0]?.prompt).toBe(
      fullPrompt({
        goal: QUERY,
        action: 'press("Enter")',
        expected: '',
        before: semanticSkeleton(form),
        observations: ['URL unchanged', 'no change in the interactive elements'],
        page: unchanged,
      }),
    );
    expect(update).toMatchObject({
      lastVerification: {
        success: true,
        confidence: 0.8,
        reason: 'the search ran',
        taskCompleted: false,
        goalAchieved: false,
        verificationTier: 3,
        tokensSaved: 0,
      },
      tokens: { input: 40, output: 10, calls: 1, saved: 0, costMicroUsd: costOf(40, 10) },
      consecutiveFailures: 0,
    });
    expect(update.status).toBeUndefined();
  });

  it('tier 3 sides with the model when it says the action failed', async () => {
    const pending = pendingOn('press("Enter")', before);
    const llm = createScriptedLlm(
      [
        verdict(
          { action_succeeded: false, task_completed: false, confidence: 0.9 },
          'still on the form',
        ),
      ],
      { zeroLatency: true },
    );
    const update = await verification(nodeDeps({ llm }))(
      complexState(0, { pending, page: unchanged, consecutiveFailures: 2 }),
    );
    expect(update).toMatchObject({
      lastVerification: { success: false, reason: 'still on the form', verificationTier: 3 },
      consecutiveFailures: 3,
    });
  });
});

describe('verification: look-ahead', () => {
  const expecting = (text: string) =>
    pendingOn('press("Enter")', before, {
      expectedOutcome: {
        description: 'the results appear',
        nextGoal: { description: 'the Results table', textContent: text, required: true },
      },
    });

  it('a required next goal that is missing outweighs the model, caps confidence at 50% and is counted as caught', async () => {
    const llm = createScriptedLlm(
      [verdict({ action_succeeded: true, task_completed: false, confidence: 0.9 }, 'it ran')],
      { zeroLatency: true },
    );
    const update = await verification(nodeDeps({ llm }))(
      complexState(0, { pending: expecting('Results'), page: unchanged }),
    );
    expect(update).toMatchObject({
      lastVerification: {
        success: false,
        confidence: 0.5,
        reason: 'it ran, but next goal "Results" is not on the page',
        verificationTier: 3,
        nextGoalCheck: { available: false },
      },
      kpiCounts: { lookAheadChecks: 1, lookAheadHits: 0, lookAheadCaught: 1 },
      consecutiveFailures: 1,
    });
  });

  it('a next goal on the page is a hit; a step without one counts nothing', async () => {
    const hit = await verification(nodeDeps())(
      complexState(0, { pending: expecting('Save'), page: changed }),
    );
    expect(hit.kpiCounts).toEqual({ lookAheadChecks: 1, lookAheadHits: 1, lookAheadCaught: 0 });
    expect(hit).toMatchObject({ lastVerification: { success: true } });
    const none = await verification(nodeDeps())(complexState(0));
    expect(none.kpiCounts).toBeUndefined();
  });
});

describe('verification: goalAchieved needs confidence ≥ limits.goalConfidence', () => {
  it.each([
    { confidence: 0.69, goalConfidence: 0.7, achieved: false },
    { confidence: 0.7, goalConfidence: 0.7, achieved: true },
    { confidence: 0.8, goalConfidence: 0.9, achieved: false },
    { confidence: 0.95, goalConfidence: 0.9, achieved: true },
  ])(
    'task_completed at $confidence with a threshold of $goalConfidence: achieved $achieved',
    async ({ confidence, goalConfidence, achieved }) => {
      const llm = createScriptedLlm(
        [verdict({ action_succeeded: true, task_completed: true, confidence })],
        { zeroLatency: true },
      );
      const deps = nodeDeps({ llm, limits: { ...DEFAULT_LIMITS, goalConfidence } });
      const update = await verification(deps)(complexState(1));
      expect(update.lastVerification).toMatchObject({
        taskCompleted: true,
        goalAchieved: achieved,
        confidence,
      });
      expect(update.status).toBe(achieved ? 'completed' : undefined);
      expect(update.result).toBe(achieved ? 'The contact was saved' : undefined);
    },
  );
});

describe('verification: SIMPLE commands', () => {
  const simple = (page = changed) =>
    stateWith({
      query: 'click Save',
      complexity: 'SIMPLE',
      pending: pendingOn('click("save")', before, {
        thought: 'Click btn "Save" (id save).',
        source: 'direct_action',
      }),
      page,
    });

  it('a verified SIMPLE command completes the task with "Done: …", with no model call', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const update = await verification(nodeDeps({ llm }))(simple());
    llm.assertDone();
    expect(llm.calls).toHaveLength(0);
    expect(update).toMatchObject({
      lastVerification: {
        success: true,
        taskCompleted: true,
        goalAchieved: true,
        verificationTier: 1,
      },
      status: 'completed',
      result: 'Done: Click btn "Save" (id save).',
    });
  });

  it('a failed SIMPLE command does not end the task', async () => {
    const update = await verification(nodeDeps())(simple(unchanged));
    expect(update.lastVerification).toMatchObject({ success: false, taskCompleted: false });
    expect(update).toMatchObject({ consecutiveFailures: 1 });
    expect(update.status).toBeUndefined();
  });
});

describe('verification: chain breaks', () => {
  const chain = pendingOf('setValue("0", "x")', { chain: true });
  const broken = pageWith({
    lastExecutedActionIndex: 0,
    lastActionStatus: 'failure',
    chainActionError: 'element 1 is detached',
  });

  it('isChainBreak: a chain stopped before its last action, with a failure or an error', () => {
    expect(isChainBreak({ pending: chain, page: broken })).toBe(true);
    expect(
      isChainBreak({
        pending: chain,
        page: pageWith({ lastExecutedActionIndex: 1, chainActionError: 'boom' }),
      }),
    ).toBe(true);
    // The whole chain ran, the report is missing, the chain reported no failure, or no chain.
    expect(
      isChainBreak({
        pending: chain,
        page: pageWith({ lastExecutedActionIndex: 2, lastActionStatus: 'failure' }),
      }),
    ).toBe(false);
    expect(isChainBreak({ pending: chain, page: pageWith({ lastActionStatus: 'failure' }) })).toBe(
      false,
    );
    expect(
      isChainBreak({
        pending: chain,
        page: pageWith({ lastExecutedActionIndex: 0, lastActionStatus: 'success' }),
      }),
    ).toBe(false);
    expect(isChainBreak({ pending: pendingOf('click("1")'), page: broken })).toBe(false);
    expect(isChainBreak({ pending: null, page: broken })).toBe(false);
  });

  it('chainBreakVerdict names the action after the last executed one and the error', () => {
    expect(chainBreakVerdict(chain, broken)).toEqual({
      success: false,
      confidence: 0.95,
      reason: 'the chain stopped at action 1 (setValue("1", "x")): element 1 is detached',
      actionSucceeded: false,
      taskCompleted: false,
      goalAchieved: false,
      verificationTier: 1,
      tokensSaved: 0,
    });
    const noMessage = pageWith({ lastExecutedActionIndex: 1, lastActionStatus: 'failure' });
    expect(chainBreakVerdict(chain, noMessage).reason).toBe(
      'the chain stopped at action 2 (setValue("2", "x")): failed',
    );
  });

  it('the node answers with the chain-break verdict alone, without a model', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const state = complexState(0, { pending: chain, page: broken, consecutiveFailures: 1 });
    const update = await verification(nodeDeps({ llm }))(state);
    llm.assertDone();
    expect(update).toEqual({
      lastVerification: chainBreakVerdict(chain, broken),
      // Part of the chain ran unverified: a routine cannot be compiled from it as it stands.
      routineTrace: [expect.objectContaining({ partial: true, verified: false })],
    });
  });
});

describe('verification: velocity check', () => {
  const plan = planOf(['Open the list', 'Read the rows'], 1);
  const ok = { success: true, goalAchieved: false };

  it('velocityStreak: progress through the plan resets it, revealing or acting past the plan counts', () => {
    const at = (streak: number, p = plan, current = 1) => ({
      plan: p,
      currentStepIndex: current,
      consecutiveSuccessWithoutTaskComplete: streak,
    });
    const click = pendingOf('click("1")');
    expect(velocityStreak(at(3), click, ok)).toBe(0);
    expect(velocityStreak(at(3), pendingOf('scroll("down")'), ok)).toBe(4);
    expect(velocityStreak(at(3), pendingOf('wait(1)'), ok)).toBe(4);
    expect(velocityStreak(at(3), pendingOf('hover("1")'), ok)).toBe(4);
    const exhausted = {
      ...plan,
      steps: plan.steps.map((s) => ({ ...s, status: 'completed' as const })),
    };
    expect(velocityStreak(at(3, exhausted), click, ok)).toBe(4);
    expect(
      velocityStreak(
        { plan: null, currentStepIndex: 0, consecutiveSuccessWithoutTaskComplete: 1 },
        click,
        ok,
      ),
    ).toBe(2);
    expect(velocityStreak(at(3), pendingOf('scroll("down")'), { ...ok, success: false })).toBe(0);
    expect(velocityStreak(at(3), pendingOf('scroll("down")'), { ...ok, goalAchieved: true })).toBe(
      0,
    );
  });

  it('fails the task when the streak reaches limits.velocityLimit', async () => {
    const list: SemanticNodeV3[] = [{ i: 'rows', r: 'link', n: 'Row 1' }];
    const page = pageOf(list, { url: URL });
    const state = stateWith({
      query: 'Read every row',
      complexity: 'COMPLEX',
      plan: planOf(['Open the list', 'Read the rows'], 0),
      currentStepIndex: 0,
      pending: pendingOn('scroll("down")', page),
      page,
      consecutiveSuccessWithoutTaskComplete: 4,
    });
    const update = await verification(nodeDeps())(state);
    expect(update).toMatchObject({
      lastVerification: { success: true, reason: 'scroll done', verificationTier: 1 },
      consecutiveSuccessWithoutTaskComplete: 5,
      status: 'failed',
      result:
        'Stopped after 5 successful steps in a row without reaching the goal "Read every row". ' +
        'The agent may be repeating itself (e.g. paging forever); check the page and restate the goal more specifically.',
    });

    const below = await verification(nodeDeps())({
      ...state,
      consecutiveSuccessWithoutTaskComplete: 3,
    });
    expect(below.consecutiveSuccessWithoutTaskComplete).toBe(4);
    expect(below.status).toBeUndefined();

    const stricter = await verification(
      nodeDeps({ limits: { ...DEFAULT_LIMITS, velocityLimit: 4 } }),
    )({ ...state, consecutiveSuccessWithoutTaskComplete: 3 });
    expect(stricter).toMatchObject({ consecutiveSuccessWithoutTaskComplete: 4, status: 'failed' });
  });
});

describe('verification: corrections and history', () => {
  const record = (id: string): CorrectionRecord => ({
    id,
    stepIndex: 0,
    attempt: 1,
    failedAction: 'click("old")',
    correctedAction: 'click("save")',
    strategy: 'ALTERNATIVE_SELECTOR',
    reason: 'the element re-rendered under a new id',
    createdAt: '2025-01-01T00:00:00.000Z',
  });
  const corrected = pendingOn('click("save")', before, { source: 'correction' });

  it.each([
    { page: changed, succeeded: true },
    { page: unchanged, succeeded: false },
  ])("sets the last correction's succeeded flag to $succeeded", async ({ page, succeeded }) => {
    const state = complexState(0, {
      pending: corrected,
      page,
      corrections: [record('c1'), record('c2')],
    });
    const update = await verification(nodeDeps())(state);
    expect(update.corrections).toEqual([record('c1'), { ...record('c2'), succeeded }]);
  });

  it('leaves the corrections alone when the action was not a correction', async () => {
    const corrections = [record('c1')];
    const update = await verification(nodeDeps())(complexState(0, { corrections }));
    expect(update.corrections).toEqual(corrections);
  });

  it('appends the verified action to the history, folding the oldest past 10', async () => {
    const old: PreviousAction[] = Array.from({ length: 10 }, (_, k) => ({
      stepIndex: 0,
      action: `click("r${k}")`,
      thought: '',
      success: true,
      reason: null,
    }));
    const update = await verification(nodeDeps())(
      complexState(0, { previousActions: old, earlierActionCount: 4 }),
    );
    expect(update.previousActions).toEqual([
      ...old.slice(1),
      {
        stepIndex: 0,
        action: 'click("save")',
        thought: 'Save the contact',
        success: true,
        reason: 'the page responded to the click',
      },
    ]);
    expect(update.earlierActionCount).toBe(5);
  });
});

describe('verification: trace scores', () => {
  it("scores the verdict, and a correction's success only for a correction", async () => {
    const plain = recordingTracing();
    await verification(nodeDeps({ tracing: plain.tracing }))(complexState(0));
    expect(plain.scores).toEqual([
      { name: 'verification_success', value: 1, dataType: 'BOOLEAN' },
      { name: 'verification_confidence', value: 0.8 },
    ]);

    const ofCorrection = recordingTracing();
    const pending = pendingOn('click("save")', before, { source: 'correction' });
    await verification(nodeDeps({ tracing: ofCorrection.tracing }))(
      complexState(0, { pending, page: unchanged }),
    );
    expect(ofCorrection.scores).toEqual([
      { name: 'verification_success', value: 0, dataType: 'BOOLEAN' },
      { name: 'verification_confidence', value: 0.7 },
      { name: 'correction_success', value: 0, dataType: 'BOOLEAN' },
    ]);
  });
});
