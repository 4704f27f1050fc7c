// Conditional planning through the real graph and store (docs/specs.md, "conditional and
// hierarchical planning"): the planner foresaw that a cookie banner may cover the page. When it
// does, the failed click is handled by the step's contingency (dismiss the banner), without the
// correction model, and the step itself is then tried again.
import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { createTestAgent, pageContextStep, pageRequest } from '../testing/harness';

const EMR = 'https://emr.example/';
const home: SemanticNodeV3[] = [
  { i: 'patients', r: 'btn', n: 'Patients' },
  { i: 'dash', r: 'link', n: 'Dashboard' },
  { i: 'sched', r: 'link', n: 'Schedule' },
];
/** The consent banner came up over the page just as the click landed. */
const withBanner: SemanticNodeV3[] = [
  { i: 'patients', r: 'btn', n: 'Patients', occ: true },
  { i: 'dash', r: 'link', n: 'Dashboard', occ: true },
  { i: 'sched', r: 'link', n: 'Schedule', occ: true },
  { i: 'consent', r: 'dialog', n: 'We use cookies' },
  { i: 'accept', r: 'btn', n: 'Accept cookies' },
  { i: 'settings', r: 'btn', n: 'Cookie settings' },
];
const outcome = {
  node: 'outcome_prediction' as const,
  output: { description: 'The page responds', urlShouldChange: false, nextGoal: null },
};
const plan = {
  node: 'planning' as const,
  output: {
    goal: 'open the patients menu',
    steps: [
      {
        description: "Click 'Patients'",
        refinable: true,
        contingencies: [
          { condition: 'a session dialog says "Session expired"', action: "Click 'Sign in'" },
          { condition: 'a banner asks "We use cookies"', action: "Click 'Accept cookies'" },
        ],
      },
      { description: "Click 'Schedule'", refinable: true },
    ],
  },
};

describe('conditional planning', () => {
  it('a contingency handles an optional cookie banner without the correction model', async () => {
    const agent = await createTestAgent({
      steps: [pageContextStep(), plan, outcome, outcome, outcome],
    });
    const first = await agent.act(pageRequest(EMR, home, { query: 'Add a new patient named Jas' }));
    expect(first.action).toBe('click("patients")');
    expect(first.plan?.steps[0]?.contingencies).toHaveLength(2);
    const ids = { taskId: first.taskId, sessionId: first.sessionId };

    // The click hit the banner: the step's contingency answers, not the correction model.
    const covered = await agent.act(
      pageRequest(EMR, withBanner, {
        ...ids,
        lastActionStatus: 'failure',
        lastActionError: 'the element is covered by another element',
      }),
    );
    expect(covered.verification?.success).toBe(false);
    expect(covered.action).toBe('click("accept")');
    expect(covered.thought).toContain('the plan foresaw this');
    expect(agent.scripted?.callsFor('correction')).toHaveLength(0);

    // The banner is gone: the same step is tried again, then the plan moves on.
    const retried = await agent.act(
      pageRequest(EMR, home, { ...ids, lastActionStatus: 'success' }),
    );
    expect(retried.verification?.success).toBe(true);
    expect(retried.action).toBe('click("patients")');
    expect(retried.plan?.currentStepIndex).toBe(0);

    const task = await agent.store.tasks.get(agent.caller.tenantId, first.taskId);
    expect(task?.corrections).toEqual([
      expect.objectContaining({
        strategy: 'CONTINGENCY',
        failedAction: 'click("patients")',
        correctedAction: 'click("accept")',
        contingencyAction: "Click 'Accept cookies'",
        succeeded: true,
      }),
    ]);
    // A foreseen obstacle is not a lesson for the skills library.
    expect(await agent.store.skills.count(agent.caller.tenantId)).toBe(0);
    const usage = await agent.store.tokenUsage.list(agent.caller.tenantId, {
      taskId: first.taskId,
    });
    expect(usage.filter((u) => u.actionType === 'SELF_CORRECTION')).toHaveLength(0);
  });

  it('a contingency whose condition the page does not show is not acted on', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep(),
        plan,
        outcome,
        {
          node: 'correction',
          output: { action: 'click("dash")', strategy: 'ALTERNATIVE_SELECTOR', reason: 'try it' },
        },
        outcome,
      ],
    });
    const first = await agent.act(pageRequest(EMR, home, { query: 'Add a new patient named Jas' }));
    // "Accept cookies" is not on this page, and no "Session expired" dialog: the model corrects.
    const failed = await agent.act(
      pageRequest(EMR, home, {
        taskId: first.taskId,
        sessionId: first.sessionId,
        lastActionStatus: 'failure',
        lastActionError: 'nothing happened',
      }),
    );
    expect(failed.action).toBe('click("dash")');
    expect(agent.scripted?.callsFor('correction')).toHaveLength(1);
  });
});
