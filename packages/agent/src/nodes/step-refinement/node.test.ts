import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { domHash, semanticSkeleton } from '../../page/page-state';
import { nodeDeps, pageOf, planOf, stateWith } from '../../testing/state';
import { plannedOutcome, stepRefinement } from './node';

const URL = 'https://crm.example/contacts/new';
const tree: SemanticNodeV3[] = [
  { i: 'new', r: 'btn', n: 'New contact' },
  { i: 'first', r: 'inp', n: 'First name' },
  { i: 'del-1', r: 'link', n: 'Delete' },
  { i: 'del-2', r: 'link', n: 'Delete' },
];
const page = pageOf(tree, { url: URL });
const onStep = (descriptions: string[], current = 0, extra: Parameters<typeof stateWith>[0] = {}) =>
  stateWith({
    query: 'Add a contact named Jas',
    complexity: 'COMPLEX',
    plan: planOf(descriptions, current),
    currentStepIndex: current,
    page,
    ...extra,
  });

describe('step_refinement', () => {
  // No model is configured in any of these: refinement never calls one.
  const refine = stepRefinement(nodeDeps());

  it('turns a step that names its target into the action, without a model', async () => {
    const update = await refine(onStep(['Open the contacts', "Click 'New contact'"], 1));
    expect(update).toEqual({
      pending: {
        stepIndex: 1,
        thought: 'Step 2: Click \'New contact\'. Click btn "New contact" (id new).',
        action: { name: 'click', args: { id: 'new' } },
        chain: null,
        // The plan's last step: it completes the goal.
        expectedOutcome: {
          description: "Click 'New contact': done",
          completesGoal: true,
          source: 'llm',
        },
        beforeState: { url: URL, domHash: domHash(tree), semanticSkeleton: semanticSkeleton(tree) },
        taskActionId: null,
        source: 'step_refinement',
        targets: [
          expect.objectContaining({ id: 'new', role: 'btn', name: 'New contact' }) as object,
        ],
      },
    });
  });

  it('resolves typing into a named field', async () => {
    const update = await refine(onStep(['Type Jas into First name']));
    expect(update).toMatchObject({
      pending: { action: { name: 'setValue', args: { id: 'first', text: 'Jas' } } },
    });
  });

  it.each([
    { why: 'is not a single command', step: 'Find the cheapest plan and note its price' },
    { why: 'names an element that is not on the page', step: "Click 'Export'" },
    { why: 'names an ambiguous element', step: "Click 'Delete'" },
  ])('leaves a step that $why to action_generation', async ({ step }) => {
    expect(await refine(onStep([step]))).toEqual({ pending: null });
  });

  it('does nothing without a plan step to refine, or on a completed one', async () => {
    expect(await refine(onStep(["Click 'New contact'"], 0, { plan: null }))).toEqual({
      pending: null,
    });
    const done = onStep(["Click 'New contact'"]);
    const plan = done.plan && {
      ...done.plan,
      steps: done.plan.steps.map((s) => ({ ...s, status: 'completed' as const })),
    };
    expect(await refine({ ...done, plan })).toEqual({ pending: null });
    expect(await refine(onStep(["Click 'New contact'"], 0, { page: null }))).toEqual({
      pending: null,
    });
  });

  it("expects what the planner said: the step's text, the goal done at the last step, the next target", () => {
    const plan = {
      ...planOf(["Click 'New contact'", "Type Jas into 'First name'", 'Save it']),
      answer: 'Jas is added.',
    };
    const steps = plan.steps.map((s, i) => (i === 2 ? { ...s, expect: 'Contact saved' } : s));
    const planned = { ...plan, steps };
    expect(plannedOutcome(planned, 0)).toEqual({
      description: "Click 'New contact': done",
      completesGoal: false,
      nextGoal: {
        description: "Type Jas into 'First name'",
        textContent: 'First name',
        required: false,
      },
      source: 'llm',
    });
    expect(plannedOutcome(planned, 2)).toEqual({
      description: 'The page shows “Contact saved”',
      textShouldAppear: 'Contact saved',
      completesGoal: true,
      answer: 'Jas is added.',
      source: 'llm',
    });
  });
});
