// The critic through the real graph and store (docs/specs.md, "critic loop"): an unsure proposal
// that types a date into a name field is rejected before the client ever sees it, and the model's
// second proposal is what the one response carries — no client round trip spent on the mistake.
import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { createTestAgent, pageContextStep, pageRequest } from '../testing/harness';

const form: SemanticNodeV3[] = [
  { i: 'first', r: 'inp', n: 'First name' },
  { i: 'dob', r: 'inp', n: 'Date of birth' },
  { i: 'save', r: 'btn', n: 'Save' },
];
const propose = (action: string, confidence: number) => ({
  node: 'action_generation' as const,
  output: { thought: 'Fill the form', action, chain: null, confidence },
});

describe('critic', () => {
  it('catches a date typed into a name field without a client round trip', async () => {
    const agent = await createTestAgent({
      steps: [
        pageContextStep(),
        {
          node: 'planning',
          output: {
            goal: 'add Jas',
            steps: [{ description: 'Fill in the form', refinable: false }],
          },
        },
        propose('setValue("first", "03/12/1990")', 0.6),
        {
          node: 'critic',
          output: {
            approve: false,
            reason: 'a date typed into the First name field',
            evidence: '',
          },
        },
        propose('setValue("first", "Jas")', 0.95),
        {
          node: 'outcome_prediction',
          output: { description: 'First name holds Jas', urlShouldChange: false, nextGoal: null },
        },
      ],
    });
    const response = await agent.act(
      pageRequest('https://emr.example/patients/new', form, {
        query: 'Add a new patient named Jas born 03/12/1990',
      }),
    );
    expect(response.action).toBe('setValue("first", "Jas")');
    expect(agent.scripted?.callsFor('critic')).toHaveLength(1);
    expect(agent.scripted?.callsFor('action_generation')[1]?.prompt).toContain(
      'setValue("first", "03/12/1990") was rejected by a reviewer: a date typed into the First name field',
    );
    // One request, one step recorded: the rejected proposal never reached the client.
    const actions = await agent.store.taskActions.listByTask(
      agent.caller.tenantId,
      response.taskId,
    );
    expect(actions.map((a) => a.action)).toEqual(['setValue("first", "Jas")']);
    const usage = await agent.store.tokenUsage.list(agent.caller.tenantId, {
      taskId: response.taskId,
    });
    expect(usage.filter((u) => u.actionType === 'CRITIC')).toHaveLength(1);
    // The catch is counted on the task for the admin KPIs (critic catch rate).
    const task = await agent.store.tasks.get(agent.caller.tenantId, response.taskId);
    expect(task?.metrics).toMatchObject({ criticReviews: 1, criticRejections: 1, actionsSent: 1 });
  });
});
