// The skills library across tasks (docs/specs.md, "episodic memory"): task 1's first click fails,
// the correction that works is kept as a lesson for the tenant and the site; task 2, with a similar
// goal on the same site, reads the lesson before its first action and needs no correction.
import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { createTestAgent, pageContextStep, pageRequest, type TestAgent } from '../testing/harness';

const EMR = 'https://emr.example/';
const home: SemanticNodeV3[] = [
  { i: 'patients', r: 'btn', n: 'Patients' },
  { i: 'new-search', r: 'link', n: 'New/Search' },
];
const form: SemanticNodeV3[] = [...home, { i: 'first', r: 'inp', n: 'First name' }];
const noAction = { thought: '', confidence: 0.9, chain: null };
const plan = {
  node: 'planning' as const,
  output: {
    goal: 'open the form',
    steps: [{ description: 'Open the patient form', refinable: false }],
  },
};
const outcome = {
  node: 'outcome_prediction' as const,
  output: { description: 'The patient form opens', urlShouldChange: false, nextGoal: null },
};
const opened = {
  node: 'verification' as const,
  output: {
    action_succeeded: true,
    task_completed: true,
    confidence: 0.95,
    reason: 'the form is open',
  },
};
const finalized = { node: 'finalize' as const, output: { answer: 'The patient form is open.' } };

async function runTask(
  agent: TestAgent,
  goal: string,
  firstClick: string,
): Promise<{ taskId: string; sessionId: string; lastActionStatus: 'success' }> {
  const first = await agent.act(pageRequest(EMR, home, { query: goal }));
  expect(first.action).toBe(firstClick);
  return { taskId: first.taskId, sessionId: first.sessionId, lastActionStatus: 'success' };
}

describe('skills library', () => {
  it('a correction that worked in task 1 is a lesson in task 2, which needs no correction', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep(),
        plan,
        { node: 'action_generation', output: { ...noAction, action: 'click("patients")' } },
        outcome,
        {
          node: 'correction',
          output: {
            strategy: 'ALTERNATIVE_SELECTOR',
            action: 'click("new-search")',
            reason: 'the form is under New/Search',
          },
        },
        outcome,
        opened,
        finalized,
      ],
    });
    const same = await runTask(agent, 'Add a new patient named Jas Patel', 'click("patients")');
    // Nothing changed after clicking Patients: tier 1 says it failed; the correction works.
    const corrected = await agent.act(pageRequest(EMR, home, same));
    expect(corrected.action).toBe('click("new-search")');
    const done = await agent.act(pageRequest(EMR, form, same));
    expect(done.status).toBe('completed');
    const [skill] = await agent.store.skills.find(agent.caller.tenantId, { domain: 'emr.example' });
    expect(skill).toMatchObject({
      goal: 'Add a new patient named Jas Patel',
      failedState: { action: 'click("patients")', elementDescription: 'Clicked “Patients”' },
      successfulAction: {
        action: 'click("new-search")',
        elementDescription: 'Clicked “New/Search”',
      },
      successCount: 1,
    });

    agent.scripted?.push(
      pageContextStep(),
      plan,
      { node: 'action_generation', output: { ...noAction, action: 'click("new-search")' } },
      outcome,
      opened,
      finalized,
    );
    const task2 = await runTask(
      agent,
      'Add a new patient named Maria Lopez',
      'click("new-search")',
    );
    const prompt = agent.scripted?.callsFor('action_generation').at(-1)?.prompt ?? '';
    expect(prompt).toContain('Lessons from earlier tasks on this site');
    expect(prompt).toContain(
      'clicked “Patients” did not work (VERIFICATION_FAILED); clicked “New/Search” worked instead.',
    );
    const finished = await agent.act(pageRequest(EMR, form, task2));
    expect(finished.status).toBe('completed');
    expect(agent.scripted?.callsFor('correction')).toHaveLength(1);
    // The lesson helped: its effectiveness counts the step it was shown for.
    expect(await agent.store.skills.get(agent.caller.tenantId, skill?.id ?? '')).toMatchObject({
      successCount: 2,
      failureCount: 0,
    });
    // Counted for the skill hit rate: task 2's one generated step was shown the lesson.
    const task = await agent.store.tasks.get(agent.caller.tenantId, task2.taskId);
    expect(task?.metrics).toMatchObject({ skillHintSteps: 1 });
  });
});
