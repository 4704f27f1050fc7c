// The dynamic interrupt through the real graph and store (docs/specs.md, "dynamic interrupt"): a
// required "Middle name" field the goal does not fill. The model reports MISSING_INFO instead of
// inventing a value; the task pauses on a question; the answer resumes action generation,
// which now has the value in its prompt.
import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { createTestAgent, pageContextStep, pageRequest } from '../testing/harness';

const EMR = 'https://emr.example/patients/new';
const form: SemanticNodeV3[] = [
  { i: 'first', r: 'inp', n: 'First name', v: 'Jas' },
  { i: 'middle', r: 'inp', n: 'Middle name', s: 'required' },
  { i: 'last', r: 'inp', n: 'Last name', v: 'Patel' },
  { i: 'save', r: 'btn', n: 'Save' },
];

describe('MISSING_INFO', () => {
  it('asks the user for a required value the goal does not give, and resumes with it', async () => {
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
        {
          node: 'action_generation',
          output: {
            thought: 'Middle name is required and the goal does not give it.',
            action: 'wait(1)',
            chain: null,
            confidence: 0.9,
            missingInfo: [{ what: 'middle name', kind: 'PRIVATE_DATA', searchQuery: null }],
          },
        },
        {
          node: 'action_generation',
          output: {
            thought: 'The user gave the middle name.',
            action: 'setValue("middle", "Kaur")',
            chain: null,
            confidence: 0.95,
          },
        },
        {
          node: 'outcome_prediction',
          output: { description: 'Middle name holds Kaur', urlShouldChange: false, nextGoal: null },
        },
      ],
    });
    const asked = await agent.interact(
      pageRequest(EMR, form, { query: 'Add a new patient named Jas Patel' }),
    );
    if (!asked.needsUserInput || !asked.taskId) throw new Error('expected a question');
    expect(asked.message).toBe('I need the following information to continue: middle name.');
    expect(asked.missingInformation).toEqual(['middle name']);
    const task = await agent.store.tasks.get(agent.caller.tenantId, asked.taskId);
    expect(task?.status).toBe('needs_user_input');

    const next = await agent.act(
      pageRequest(EMR, form, { taskId: asked.taskId, sessionId: asked.sessionId, answer: 'Kaur' }),
    );
    expect(next.action).toBe('setValue("middle", "Kaur")');
    const prompts = agent.scripted?.callsFor('action_generation') ?? [];
    expect(prompts).toHaveLength(2);
    expect(prompts[1]?.prompt).toContain('Kaur');
    // No value was typed before the user gave it.
    const actions = await agent.store.taskActions.listByTask(agent.caller.tenantId, asked.taskId);
    expect(actions.map((a) => a.action)).toEqual(['setValue("middle", "Kaur")']);
  });
});
