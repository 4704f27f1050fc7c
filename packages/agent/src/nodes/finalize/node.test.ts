import { describe, expect, it } from 'vitest';
import { domHash } from '../../page/page-state';
import { createScriptedLlm } from '@tandem/llm/testing';
import {
  costOf,
  nodeDeps,
  pageOf,
  pendingOf,
  planOf,
  recordingTracing,
  stateWith,
} from '../../testing/state';
import { withPageData } from '../../engines/site-data';
import { completedPlan, endingOf, finalize } from './node';

const page = pageOf([{ i: 'ok', r: 'btn', n: 'OK' }], { url: 'https://crm.example/done' });
const ending = (extra: Parameters<typeof stateWith>[0]) =>
  stateWith({ complexity: 'COMPLEX', page, ...extra });

describe('endingOf', () => {
  it('a finish() a node chose completes the task with its message, or else its thought', () => {
    expect(endingOf(ending({ pending: pendingOf('finish("Jas was added")') }))).toEqual({
      status: 'completed',
      result: 'Jas was added',
      action: { name: 'finish', args: { message: 'Jas was added' } },
    });
    const bare = pendingOf('finish()', { thought: 'The list shows Jas' });
    expect(endingOf(ending({ pending: bare }))).toEqual({
      status: 'completed',
      result: 'The list shows Jas',
      action: { name: 'finish', args: { message: 'The list shows Jas' } },
    });
  });

  it('a fail() a node chose fails the task with its reason', () => {
    expect(endingOf(ending({ pending: pendingOf('fail("No such contact")') }))).toEqual({
      status: 'failed',
      result: 'No such contact',
      action: { name: 'fail', args: { reason: 'No such contact' } },
    });
  });

  it('otherwise the status decides: completed sends finish with the result', () => {
    const done = ending({
      status: 'completed',
      result: 'Saved',
      pending: pendingOf('click("ok")'),
    });
    expect(endingOf(done)).toEqual({
      status: 'completed',
      result: 'Saved',
      action: { name: 'finish', args: { message: 'Saved' } },
    });
    expect(endingOf({ ...done, result: null })).toEqual({
      status: 'completed',
      result: null,
      action: { name: 'finish', args: {} },
    });
  });

  it('and failed (or anything else) sends fail with the reason, or a default one', () => {
    const failed = ending({ status: 'failed', result: 'Gave up after 3 corrections' });
    expect(endingOf(failed)).toEqual({
      status: 'failed',
      result: 'Gave up after 3 corrections',
      action: { name: 'fail', args: { reason: 'Gave up after 3 corrections' } },
    });
    expect(endingOf(ending({ status: 'executing' }))).toEqual({
      status: 'failed',
      result: 'The task could not be completed.',
      action: { name: 'fail', args: { reason: 'The task could not be completed.' } },
    });
  });

  it('a task that already ended another way keeps that ending over a terminal action', () => {
    const settled = ending({
      status: 'failed',
      result: 'Stopped after 5 successful steps',
      pending: pendingOf('finish("done")'),
    });
    expect(endingOf(settled)).toMatchObject({
      status: 'failed',
      result: 'Stopped after 5 successful steps',
    });
  });
});

describe('completedPlan', () => {
  const plan = planOf(['Open', 'Fill', 'Save', 'Close'], 2);

  it('a completed task shows every step up to the current one completed', () => {
    expect(completedPlan(ending({ plan, currentStepIndex: 2 }), 'completed')?.steps).toEqual([
      { index: 0, description: 'Open', status: 'completed' },
      { index: 1, description: 'Fill', status: 'completed' },
      { index: 2, description: 'Save', status: 'completed' },
      { index: 3, description: 'Close', status: 'pending' },
    ]);
  });

  it('a failed task keeps its plan as it was, and no plan stays none', () => {
    const state = ending({ plan, currentStepIndex: 2 });
    expect(completedPlan(state, 'failed')).toBe(plan);
    expect(completedPlan(ending({ plan: null }), 'completed')).toBeNull();
  });
});

describe('finalize', () => {
  it('sends the terminal action and records the ending, the plan and the step', async () => {
    const state = ending({
      query: 'Save the contact',
      plan: planOf(['Open', 'Save'], 1),
      currentStepIndex: 1,
      status: 'completed',
      result: 'The contact was saved',
      stepCount: 4,
      pending: pendingOf('click("ok")', { source: 'action_generation' }),
    });
    const update = await finalize(nodeDeps())(state);
    // Completed by verification, with no model to write the answer: the template.
    const answer = 'Done: “Save the contact”.';
    expect(update).toEqual({
      status: 'completed',
      result: answer,
      tokens: state.tokens,
      plan: {
        ...state.plan,
        steps: [
          { index: 0, description: 'Open', status: 'completed' },
          { index: 1, description: 'Save', status: 'completed' },
        ],
      },
      stepCount: 5,
      kpiCounts: { actionsSent: 1 },
      pending: {
        stepIndex: 1,
        thought: answer,
        action: { name: 'finish', args: { message: answer } },
        chain: null,
        expectedOutcome: null,
        beforeState: expect.objectContaining({
          url: page.url,
          domHash: domHash(page.tree),
        }) as object,
        taskActionId: null,
        source: 'action_generation',
        targets: [],
      },
      outcome: { kind: 'action' },
    });
  });

  it('keeps the source of the node that chose the terminal action', async () => {
    const state = ending({
      complexity: 'SIMPLE',
      pending: pendingOf('fail("no element named Export")', { source: 'direct_action' }),
    });
    const update = await finalize(nodeDeps())(state);
    expect(update).toMatchObject({
      status: 'failed',
      result: 'no element named Export',
      plan: null,
      stepCount: 1,
      pending: {
        action: { name: 'fail', args: { reason: 'no element named Export' } },
        source: 'direct_action',
      },
      outcome: { kind: 'action' },
    });
  });
});

describe('the final answer', () => {
  const verified = (extra: Parameters<typeof stateWith>[0] = {}) =>
    ending({
      query: 'Add a new patient named Jas Patel',
      status: 'completed',
      result: 'The success message is shown.',
      pending: pendingOf('click("save")'),
      previousActions: [
        { stepIndex: 0, action: 'click("save")', thought: '', success: true, reason: 'saved' },
      ],
      page: pageOf([], { successMessages: ['Patient Jas Patel saved successfully.'] }),
      ...extra,
    });

  it('a task verification completed gets a summary written by the model, not the verifier’s reason', async () => {
    const llm = createScriptedLlm(
      [
        {
          node: 'finalize',
          output: { answer: 'I added Jas Patel; the EMR confirmed the patient was saved.' },
          usage: { inputTokens: 60, outputTokens: 15 },
        },
      ],
      { zeroLatency: true },
    );
    const state = verified();
    const update = await finalize(nodeDeps({ llm }))(state);
    expect(update).toMatchObject({
      status: 'completed',
      result: 'I added Jas Patel; the EMR confirmed the patient was saved.',
      tokens: { input: 60, output: 15, calls: 1, costMicroUsd: costOf(60, 15) },
    });
    const prompt = llm.callsFor('finalize')[0]?.prompt ?? '';
    expect(prompt).toContain('Goal: Add a new patient named Jas Patel');
    expect(prompt).toContain('How it ended: The success message is shown.');
    expect(prompt).toContain('Patient Jas Patel saved successfully.');
    expect(llm.callsFor('finalize')[0]?.actionType).toBe('FINAL_ANSWER');
  });

  it('falls back to the template when the model fails: a finished task is never failed by its answer', async () => {
    const llm = createScriptedLlm([{ node: 'finalize', error: new Error('model down') }], {
      zeroLatency: true,
      maxRetries: 0,
    });
    const { tracing, scores } = recordingTracing();
    const update = await finalize(nodeDeps({ llm, tracing }))(verified());
    const template =
      'Done: “Add a new patient named Jas Patel”. The page says: “Patient Jas Patel saved successfully.”';
    expect(update).toMatchObject({ status: 'completed', result: template });
    // The answer stays the user's; the step and the trace say it is a template.
    expect(update.pending).toMatchObject({
      thought: `${template}\n(A template answer: its model call failed.)`,
    });
    expect(scores.map((s) => s.comment)).toEqual(['finalize: A template answer (model down)']);
  });

  it('uses the answer written with the step that achieved the goal, once verified, without a call', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const withAnswer = (answer: string) => ({
      ...pendingOf('click("save")'),
      expectedOutcome: {
        description: 'Saved',
        completesGoal: true,
        answer,
        source: 'llm' as const,
      },
    });
    const confirmed = { success: true, confidence: 0.95, reason: 'saved', goalAchieved: true };
    const update = await finalize(nodeDeps({ llm }))(
      verified({ pending: withAnswer('Jas Patel is added.'), lastVerification: confirmed }),
    );
    expect(llm.calls).toHaveLength(0);
    expect(update).toMatchObject({ status: 'completed', result: 'Jas Patel is added.' });

    // An answer whose link would carry the page's data off the task's sites is not sent: the
    // model writes one instead, as for any answer (the same check as finish()'s message).
    const record = pageOf([{ i: 'ssn', r: 'txt', n: 'SSN 512-44-9031' }], {
      url: 'http://127.0.0.1:4000/record',
      successMessages: ['Saved'],
    });
    const checked = createScriptedLlm(
      [
        {
          node: 'finalize',
          output: { answer: 'Saved.' },
          usage: { inputTokens: 9, outputTokens: 2 },
        },
      ],
      { zeroLatency: true },
    );
    const leaking = await finalize(nodeDeps({ llm: checked }))(
      verified({
        page: record,
        sites: ['127.0.0.1:4000'],
        siteData: withPageData({}, record),
        pending: withAnswer('Done. See https://c.example.net/a?d=512-44-9031'),
        lastVerification: confirmed,
      }),
    );
    checked.assertDone();
    expect(leaking).toMatchObject({ result: 'Saved.' });
  });

  it('keeps a finish() message the model wrote, without another call', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const state = verified({
      status: 'active',
      result: null,
      pending: pendingOf('finish("The price is $12.")'),
    });
    const update = await finalize(nodeDeps({ llm }))(state);
    expect(update).toMatchObject({ status: 'completed', result: 'The price is $12.' });
    expect(llm.calls).toHaveLength(0);
  });

  it('a SIMPLE command says what was done, with the element’s name', async () => {
    const state = ending({
      complexity: 'SIMPLE',
      status: 'completed',
      result: 'Done: Click btn "Patients" (id 3).',
      pending: pendingOf('click("3")', { targets: [{ id: '3', role: 'btn', name: 'Patients' }] }),
    });
    const update = await finalize(nodeDeps())(state);
    expect(update).toMatchObject({ status: 'completed', result: 'Clicked “Patients”.' });
  });

  it('a failure keeps its reason', async () => {
    const update = await finalize(nodeDeps())(
      verified({ status: 'failed', result: 'Gave up after 3 corrections.' }),
    );
    expect(update).toMatchObject({ status: 'failed', result: 'Gave up after 3 corrections.' });
  });
});
