import { describe, expect, it } from 'vitest';
import { nodeDeps, pageWith, pendingOf, planOf, stateWith } from '../../testing/state';
import { advance, pressedNextStep } from './node';

const STEPS = ['Open the form', 'Type Jas into First name', 'Click Save'];
const at = (current: number, action: string | null = 'click("1")') =>
  stateWith({
    complexity: 'COMPLEX',
    plan: planOf(STEPS, current),
    currentStepIndex: current,
    pending: action === null ? null : pendingOf(action, { stepIndex: current }),
    page: pageWith(),
  });

describe('advance', () => {
  const step = advance(nodeDeps());

  it('completes the step and activates the next one', async () => {
    const update = await step(at(0));
    expect(update).toEqual({
      plan: {
        goal: 'the goal',
        currentStepIndex: 1,
        steps: [
          { index: 0, description: 'Open the form', status: 'completed' },
          { index: 1, description: 'Type Jas into First name', status: 'active' },
          { index: 2, description: 'Click Save', status: 'pending' },
        ],
      },
      currentStepIndex: 1,
      pending: null,
    });
  });

  it.each(['scroll("down")', 'wait(1)', 'hover("1")'])(
    'stays on the step after %s, which only reveals things',
    async (action) => {
      expect(await step(at(1, action))).toEqual({ pending: null });
    },
  );

  it('completes the step when nothing is pending (a chain whose optional rest was skipped)', async () => {
    const update = await step(at(1, null));
    expect(update).toMatchObject({ currentStepIndex: 2, plan: { currentStepIndex: 2 } });
  });

  it('never runs past the last step: it is completed and stays current', async () => {
    const update = await step(at(2));
    expect(update).toEqual({
      plan: {
        goal: 'the goal',
        currentStepIndex: 2,
        steps: [
          { index: 0, description: 'Open the form', status: 'completed' },
          { index: 1, description: 'Type Jas into First name', status: 'completed' },
          { index: 2, description: 'Click Save', status: 'completed' },
        ],
      },
      currentStepIndex: 2,
      pending: null,
    });
  });

  it('without a plan (a SIMPLE task) only clears the pending action', async () => {
    expect(await step({ ...at(0), plan: null })).toEqual({ pending: null });
  });
});

describe("a chain ended by the form's button", () => {
  const plan = planOf(['Fill in the name', "Click 'Save'", 'Check the list']);
  const chained = (button: { id: string; role: string; name: string }) => ({
    ...pendingOf('setValue("first", "Jas")'),
    chain: {
      actions: [
        { action: 'setValue("first", "Jas")', description: 'name', index: 0 },
        { action: `click("${button.id}")`, description: 'save', index: 1 },
      ],
      metadata: { totalActions: 2, safeToChain: true },
    },
    targets: [{ id: 'first', role: 'inp', name: 'First name' }, button],
  });

  it('pressedNextStep: the chain clicked the button the next step names', () => {
    const state = { currentStepIndex: 0 };
    expect(
      pressedNextStep(plan, { ...state, pending: chained({ id: 's', role: 'btn', name: 'Save' }) }),
    ).toBe(true);
    expect(
      pressedNextStep(plan, {
        ...state,
        pending: chained({ id: 'x', role: 'btn', name: 'Export' }),
      }),
    ).toBe(false);
    expect(pressedNextStep(plan, { ...state, pending: pendingOf('click("s")') })).toBe(false);
  });

  it('completes that step too and moves past it', async () => {
    const update = await advance(nodeDeps())(
      stateWith({
        plan,
        currentStepIndex: 0,
        pending: chained({ id: 's', role: 'btn', name: 'Save' }),
      }),
    );
    expect(update.currentStepIndex).toBe(2);
    expect(update).toMatchObject({
      plan: { steps: [{ status: 'completed' }, { status: 'completed' }, { status: 'active' }] },
    });
  });
});
