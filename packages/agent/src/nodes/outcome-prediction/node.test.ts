import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../deps';
import { createScriptedLlm, type ScriptedStep } from '@tandem/llm/testing';
import {
  applyUpdate,
  costOf,
  nodeDeps,
  pageOf,
  pendingOf,
  pendingOn,
  planOf,
  stateWith,
} from '../../testing/state';
import { outcomePrediction } from './node';

const tree: SemanticNodeV3[] = [
  { i: 'country', r: 'combo', n: 'Country' },
  { i: 'first', r: 'inp', n: 'First name' },
  { i: 'next', r: 'btn', n: 'Next' },
];
const page = pageOf(tree, { url: 'https://crm.example/signup' });
const STEPS = ['Click Next', 'Type Jas into First name'];

const predicting = (action: string, extra: Parameters<typeof stateWith>[0] = {}) =>
  stateWith({
    query: 'Sign up as Jas',
    complexity: 'COMPLEX',
    plan: planOf(STEPS),
    page,
    pending: pendingOn(action, page, { thought: 'Go on' }),
    stepCount: 3,
    nextActionReady: true,
    pageReadsThisStep: 1,
    ...extra,
  });

const predicted = (output: {
  description: string;
  urlShouldChange: boolean;
  nextGoal: { description: string; textContent: string | null; required: boolean } | null;
}): ScriptedStep => ({
  node: 'outcome_prediction',
  output,
  usage: { inputTokens: 90, outputTokens: 30 },
});

describe('outcome_prediction', () => {
  it('refuses with MAX_STEPS_EXCEEDED, failing the task, once limits.maxStepsPerTask steps were sent', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const update = await outcomePrediction(nodeDeps({ llm }))(
      predicting('click("next")', { stepCount: 50 }),
    );
    llm.assertDone();
    expect(update).toEqual({
      outcome: {
        kind: 'refused',
        code: 'MAX_STEPS_EXCEEDED',
        message: 'The task reached the maximum of 50 steps.',
        failTask: true,
      },
    });
    const lower = nodeDeps({ limits: { ...DEFAULT_LIMITS, maxStepsPerTask: 3 } });
    expect((await outcomePrediction(lower)(predicting('click("next")'))).outcome).toMatchObject({
      code: 'MAX_STEPS_EXCEEDED',
      message: 'The task reached the maximum of 3 steps.',
    });
  });

  it.each([
    {
      action: 'navigate("https://crm.example/home")',
      expected: {
        description: 'The browser opens https://crm.example/home',
        urlShouldChange: true,
        source: 'template',
      },
    },
    {
      action: 'click("country")',
      expected: {
        description: '"Country" opens its menu (aria-expanded becomes true and menu items appear)',
        urlShouldChange: false,
        domChanges: { attributeChanges: [{ attribute: 'aria-expanded', expectedValue: 'true' }] },
        source: 'template',
      },
    },
    {
      action: 'setValue("first", "Jas")',
      expected: {
        description: '"First name" holds "Jas"',
        urlShouldChange: false,
        source: 'template',
      },
    },
    {
      action: 'scroll("down")',
      expected: {
        description: 'More of the page comes into view',
        urlShouldChange: false,
        source: 'template',
      },
    },
  ])(
    '$action: a fixed template, no model even for a COMPLEX task',
    async ({ action, expected }) => {
      const llm = createScriptedLlm([], { zeroLatency: true });
      const state = predicting(action);
      const update = await outcomePrediction(nodeDeps({ llm }))(state);
      llm.assertDone();
      expect(update).toEqual({
        pending: { ...state.pending, expectedOutcome: expected },
        tokens: state.tokens,
        status: 'executing',
        stepCount: 4,
        kpiCounts: { actionsSent: 1 },
        nextActionReady: false,
        pageReadsThisStep: 0,
        outcome: { kind: 'action' },
      });
    },
  );

  it('a chain expects every field to hold its value', async () => {
    const state = predicting('click("next")', {
      pending: pendingOf('setValue("0", "x")', { chain: true }),
    });
    const update = await outcomePrediction(nodeDeps())(state);
    expect(update.pending).toMatchObject({
      expectedOutcome: {
        description: 'All 3 fields hold their new values',
        urlShouldChange: false,
        source: 'template',
      },
    });
  });

  it("a chain ended by the form's button expects the button's effect, with no model", async () => {
    const chained = {
      ...pendingOf('setValue("first", "Jas")'),
      chain: {
        actions: [
          { action: 'setValue("first", "Jas")', description: 'first name', index: 0 },
          { action: 'click("next")', description: 'next', index: 1 },
        ],
        metadata: { totalActions: 2, safeToChain: true },
      },
    };
    const llm = createScriptedLlm([], { zeroLatency: true });
    const update = await outcomePrediction(nodeDeps({ llm }))(
      predicting('click("next")', { pending: chained }),
    );
    llm.assertDone();
    expect(update.pending).toMatchObject({
      expectedOutcome: {
        description: '1 field is filled, then “Next” is pressed and the page responds',
        source: 'template',
      },
    });
    expect(update.pending).not.toHaveProperty('expectedOutcome.urlShouldChange');
  });

  it('takes the outcome the action answer stated: no call; a template keeps its fixed parts', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const stated = {
      description: 'The profile step appears',
      urlShouldChange: true,
      completesGoal: true,
      answer: 'Signed up.',
      source: 'llm' as const,
    };
    const click = predicting('click("next")');
    const clicked = {
      ...click,
      pending: click.pending && { ...click.pending, expectedOutcome: stated },
    };
    const update = await outcomePrediction(nodeDeps({ llm }))(clicked);
    expect(llm.calls).toHaveLength(0);
    expect(applyUpdate(clicked, update).pending?.expectedOutcome).toEqual(stated);
    // A field edit has a template: its description and URL expectation, the model's verdict parts.
    const edit = predicting('setValue("first", "Jas")');
    const edited = {
      ...edit,
      pending: edit.pending && { ...edit.pending, expectedOutcome: stated },
    };
    const merged = await outcomePrediction(nodeDeps({ llm }))(edited);
    expect(applyUpdate(edited, merged).pending?.expectedOutcome).toMatchObject({
      source: 'template',
      urlShouldChange: false,
      completesGoal: true,
      answer: 'Signed up.',
    });
    expect(llm.calls).toHaveLength(0);
  });

  it('asks the model for other actions of a COMPLEX task, with the next plan step as look-ahead', async () => {
    const llm = createScriptedLlm(
      [
        predicted({
          description: 'The profile step appears',
          urlShouldChange: true,
          nextGoal: {
            description: 'the First name field',
            textContent: 'First name',
            required: true,
          },
        }),
      ],
      { zeroLatency: true },
    );
    const state = predicting('click("next")');
    const update = await outcomePrediction(nodeDeps({ llm }))(state);

    llm.assertDone();
    const [call] = llm.callsFor('outcome_prediction');
    expect(call?.actionType).toBe('OUTCOME_PREDICTION');
    expect(call?.prompt).toContain('Action: click("next") (Go on)');
    expect(call?.prompt).toContain('Next plan step: Type Jas into First name');
    expect(update).toEqual({
      pending: {
        ...state.pending,
        expectedOutcome: {
          description: 'The profile step appears',
          urlShouldChange: true,
          nextGoal: {
            description: 'the First name field',
            textContent: 'First name',
            required: true,
          },
          source: 'llm',
        },
      },
      tokens: { input: 90, output: 30, saved: 0, calls: 1, costMicroUsd: costOf(90, 30) },
      status: 'executing',
      stepCount: 4,
      kpiCounts: { actionsSent: 1 },
      nextActionReady: false,
      pageReadsThisStep: 0,
      outcome: { kind: 'action' },
    });
  });

  it('on the last plan step says so, and drops an empty nextGoal text or a null nextGoal', async () => {
    const llm = createScriptedLlm(
      [
        predicted({
          description: 'A confirmation shows',
          urlShouldChange: false,
          nextGoal: { description: 'Welcome text', textContent: null, required: false },
        }),
        predicted({ description: 'Saved', urlShouldChange: false, nextGoal: null }),
      ],
      { zeroLatency: true },
    );
    const last = predicting('click("next")', { plan: planOf(STEPS, 1), currentStepIndex: 1 });
    const first = await outcomePrediction(nodeDeps({ llm }))(last);
    expect(llm.callsFor('outcome_prediction')[0]?.prompt).toContain('This is the last plan step.');
    expect(first.pending).toMatchObject({
      expectedOutcome: {
        description: 'A confirmation shows',
        urlShouldChange: false,
        nextGoal: { description: 'Welcome text', required: false },
        source: 'llm',
      },
    });
    expect(applyUpdate(last, first).pending?.expectedOutcome?.nextGoal).not.toHaveProperty(
      'textContent',
    );

    const second = await outcomePrediction(nodeDeps({ llm }))(last);
    expect(applyUpdate(last, second).pending?.expectedOutcome).toEqual({
      description: 'Saved',
      urlShouldChange: false,
      source: 'llm',
    });
    llm.assertDone();
  });

  it.each([
    { why: 'for a SIMPLE command', complexity: 'SIMPLE' as const, configured: true },
    { why: 'without a model', complexity: 'COMPLEX' as const, configured: false },
  ])('falls back to a generic template $why', async ({ complexity, configured }) => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const deps = configured ? nodeDeps({ llm }) : nodeDeps();
    const update = await outcomePrediction(deps)(predicting('click("next")', { complexity }));
    llm.assertDone();
    expect(update.pending).toMatchObject({
      expectedOutcome: { description: 'The page responds to click("next")', source: 'template' },
    });
    expect(update.tokens).toEqual({ input: 0, output: 0, saved: 0, calls: 0, costMicroUsd: 0 });
  });
});
