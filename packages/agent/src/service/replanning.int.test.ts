// Dynamic re-planning through the real graph and store (docs/specs.md, "dynamic re-planning"): a
// page that re-renders into a different form under the plan (here a sign-in form after the session
// expired) has the planner plan the rest from it, and the response says rePlanning; a cosmetic
// change (ids renumbered, a value typed) does not cost a call.
import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { createTestAgent, pageContextStep, pageRequest } from '../testing/harness';

const EMR = 'https://emr.example/';
const home: SemanticNodeV3[] = [
  { i: 'patients', r: 'btn', n: 'Patients' },
  { i: 'dash', r: 'link', n: 'Dashboard' },
  { i: 'sched', r: 'link', n: 'Schedule' },
  { i: 'search', r: 'inp', n: 'Search patients' },
];
const signIn: SemanticNodeV3[] = [
  { i: 'user', r: 'inp', n: 'Username' },
  { i: 'pw', r: 'inp', n: 'Password' },
  { i: 'in', r: 'btn', n: 'Sign in' },
];
const outcome = {
  node: 'outcome_prediction' as const,
  output: { description: 'The page responds', urlShouldChange: false, nextGoal: null },
};
const verified = {
  node: 'verification' as const,
  output: { action_succeeded: true, task_completed: false, confidence: 0.9, reason: 'done' },
};
const planOf = (steps: string[]) => ({
  node: 'planning' as const,
  output: { goal: 'g', steps: steps.map((description) => ({ description, refinable: true })) },
});

describe('re-planning', () => {
  it('a page that re-renders into another form has the rest of the plan regenerated', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep(),
        planOf(["Click 'Patients'", 'Type Jas into First name', "Click 'Save'"]),
        outcome,
        verified,
        {
          node: 'replanning',
          output: {
            goal: 'sign in again, then add the patient',
            steps: [
              { description: 'Type admin into Username', refinable: true },
              { description: "Click 'Sign in'", refinable: true },
            ],
          },
        },
        outcome,
      ],
    });
    const first = await agent.act(pageRequest(EMR, home, { query: 'Add a new patient named Jas' }));
    expect(first.action).toBe('click("patients")');
    const next = await agent.act(
      pageRequest(EMR, signIn, {
        taskId: first.taskId,
        sessionId: first.sessionId,
        lastActionStatus: 'success',
      }),
    );
    expect(next.rePlanning).toBe(true);
    expect(next.action).toBe('setValue("user", "admin")');
    expect(next.plan?.steps.map((s) => s.description)).toEqual([
      "Click 'Patients'",
      'Type admin into Username',
      "Click 'Sign in'",
    ]);
    const usage = await agent.store.tokenUsage.list(agent.caller.tenantId, {
      taskId: first.taskId,
    });
    expect(usage.filter((u) => u.actionType === 'REPLANNING')).toHaveLength(1);
  });

  it('a cosmetic change (ids renumbered, a value typed) does not re-plan', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep(),
        planOf(["Click 'Patients'", "Click 'Schedule'"]),
        outcome,
        verified,
        outcome,
      ],
    });
    const first = await agent.act(pageRequest(EMR, home, { query: 'Add a new patient named Jas' }));
    expect(first.action).toBe('click("patients")');
    const cosmetic = home.map((n, k) => ({
      ...n,
      i: `n${k}`,
      ...(n.r === 'inp' ? { v: 'Jas' } : {}),
    }));
    const next = await agent.act(
      pageRequest(EMR, cosmetic, {
        taskId: first.taskId,
        sessionId: first.sessionId,
        lastActionStatus: 'success',
      }),
    );
    expect(next.rePlanning).toBeUndefined();
    expect(next.action).toBe('click("n2")');
    expect(agent.scripted?.callsFor('replanning')).toHaveLength(0);
  });
});
