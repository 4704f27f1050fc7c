// Hierarchical planning through the real graph and store (docs/specs.md, "conditional and
// hierarchical planning"): a goal of three parts is planned as three sub-tasks with input/output
// contracts. The last step of each is verified against its sub-task's contract, the step history is
// reset between them (a finished sub-task is one line of context), and the task row keeps the
// hierarchy for the admin trace.
import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { createTestAgent, pageContextStep, pageRequest } from '../testing/harness';

const EMR = 'https://emr.example';
const shell: SemanticNodeV3[] = [
  { i: 'patients', r: 'btn', n: 'Patients' },
  { i: 'sched', r: 'link', n: 'Schedule' },
  { i: 'dash', r: 'link', n: 'Dashboard' },
];
const GOAL = 'Open the patients list, then check the schedule, then go back to the dashboard';
const plan = {
  node: 'planning' as const,
  output: {
    goal: GOAL,
    steps: [
      { description: "Click 'Patients'", refinable: true, subTask: 'Patients' },
      { description: "Click 'Schedule'", refinable: true, subTask: 'Schedule' },
      { description: "Click 'Dashboard'", refinable: true, subTask: 'Dashboard' },
    ],
    subTasks: [
      {
        name: 'Patients',
        description: 'open the patients list',
        inputs: [],
        outputs: ['the patients list is shown'],
      },
      {
        name: 'Schedule',
        description: 'check the schedule',
        inputs: ['the patients list was seen'],
        outputs: ['the schedule is shown'],
      },
      { name: 'Dashboard', description: 'go back to the dashboard', inputs: [], outputs: [] },
    ],
  },
};
const done = (reason: string, taskCompleted: boolean) => ({
  node: 'verification' as const,
  output: { action_succeeded: true, task_completed: taskCompleted, confidence: 0.95, reason },
});

describe('hierarchical planning', () => {
  it('a 3-part goal runs as sub-tasks, each verified against its contract, with a context reset', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep(),
        plan,
        // Each step's outcome is the plan's (no outcome call). A sub-task's end is judged by
        // the model against its contract; the goal's last step, a link that was to lead to
        // another page, is settled by the navigation itself.
        done('the patients list is shown', true),
        done('the schedule is shown', true),
        { node: 'finalize', output: { answer: 'Saw the patients and the schedule.' } },
      ],
    });
    const first = await agent.act(pageRequest(`${EMR}/`, shell, { query: GOAL }));
    expect(first.action).toBe('click("patients")');
    expect(first.plan?.steps.map((s) => s.subTask)).toEqual([
      { index: 0, name: 'Patients' },
      { index: 1, name: 'Schedule' },
      { index: 2, name: 'Dashboard' },
    ]);
    const ids = {
      taskId: first.taskId,
      sessionId: first.sessionId,
      lastActionStatus: 'success' as const,
    };

    const second = await agent.act(pageRequest(`${EMR}/patients`, shell, ids));
    expect(second.verification?.subTaskCompleted).toBe(true);
    expect(second.action).toBe('click("sched")');
    const third = await agent.act(pageRequest(`${EMR}/schedule`, shell, ids));
    expect(third.verification?.subTaskCompleted).toBe(true);
    expect(third.action).toBe('click("dash")');
    const last = await agent.act(
      pageRequest(`${EMR}/dashboard`, shell, {
        ...ids,
        clientObservations: { didUrlChange: true },
      }),
    );
    expect(last.status).toBe('completed');
    expect(last.verification).toMatchObject({ verificationTier: 1, goalAchieved: true });

    // Sub-task verification: each sub-task's last step is judged against its own contract.
    const verifications = agent.scripted?.callsFor('verification').map((c) => c.prompt) ?? [];
    expect(verifications[0]).toContain(
      'Sub-task 1 of 3, "Patients": open the patients list. It must produce: the patients list is shown.',
    );
    expect(verifications[1]).toContain('Sub-task 2 of 3, "Schedule": check the schedule.');
    expect(verifications).toHaveLength(2);
    // Context reset: the final prompt carries one line per finished sub-task, and only the
    // last sub-task's own step.
    const history = agent.scripted?.callsFor('finalize')[0]?.prompt ?? '';
    expect(history).toContain(
      'Sub-task 1 "Patients" completed (the patients list is shown); outputs: the patients list is shown.',
    );
    expect(history).toContain('Sub-task 2 "Schedule" completed (the schedule is shown)');
    expect(history).toContain('click("dash")');
    expect(history).not.toContain('click("patients")');
    expect(history).not.toContain('click("sched")');

    const task = await agent.store.tasks.get(agent.caller.tenantId, first.taskId);
    expect(task?.hierarchicalPlan?.subTasks.map((t) => [t.name, t.status, t.stepIndexes])).toEqual([
      ['Patients', 'completed', [0]],
      ['Schedule', 'completed', [1]],
      ['Dashboard', 'completed', [2]],
    ]);
  });

  it('a goal of one part stays a flat plan', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep(),
        {
          node: 'planning',
          output: {
            goal: 'g',
            steps: [{ description: "Click 'Patients'", refinable: true, subTask: 'Only' }],
            subTasks: [{ name: 'Only', description: 'open it', inputs: [], outputs: [] }],
          },
        },
      ],
    });
    const first = await agent.act(pageRequest(`${EMR}/`, shell, { query: GOAL }));
    expect(first.plan?.steps[0]?.subTask).toBeUndefined();
    const task = await agent.store.tasks.get(agent.caller.tenantId, first.taskId);
    expect(task?.hierarchicalPlan).toBeNull();
  });
});
