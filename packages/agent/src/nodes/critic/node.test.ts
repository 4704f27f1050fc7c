// The critic's conditions and verdicts: which proposals get a review, an approval (a finish
// keeps the critic's evidence), a rejection sent back to action generation, and fail-open.
import { describe, expect, it } from 'vitest';
import { createScriptedLlm } from '@tandem/llm/testing';
import { ProviderError } from '@tandem/llm';
import {
  applyUpdate,
  nodeDeps,
  pageOf,
  pendingOn,
  recordingTracing,
  stateWith,
} from '../../testing/state';
import { critic, MAX_CRITIC_REJECTIONS, needsCritic } from './node';

const page = pageOf(
  [
    { i: 'first', r: 'inp', n: 'First name' },
    { i: 'pw', r: 'inp', n: 'Password' },
    { i: 'save', r: 'btn', n: 'Save' },
  ],
  { url: 'https://emr.example/patients/new' },
);
const proposal = (action: string, extra: Parameters<typeof stateWith>[0] = {}) =>
  stateWith({
    query: 'Add a new patient named Jas',
    page,
    pending: pendingOn(action, page),
    ...extra,
  });

describe('needsCritic', () => {
  it('reviews finish/fail, sensitive fields, unsure proposals and the step after a failure', () => {
    expect(needsCritic(proposal('finish("Jas was added")'))).toBe(true);
    expect(needsCritic(proposal('fail("no form")'))).toBe(true);
    expect(needsCritic(proposal('setValue("pw", "hunter2")'))).toBe(true);
    expect(needsCritic(proposal('setValue("first", "Jas")', { actionConfidence: 0.6 }))).toBe(true);
    expect(
      needsCritic(
        proposal('click("save")', {
          lastVerification: {
            success: false,
            confidence: 0.9,
            reason: 'nothing happened',
            actionSucceeded: false,
            taskCompleted: false,
            goalAchieved: false,
          },
        }),
      ),
    ).toBe(true);
  });

  it('lets a confident ordinary action through, and stops reviewing after the limit', () => {
    expect(needsCritic(proposal('setValue("first", "Jas")', { actionConfidence: 0.95 }))).toBe(
      false,
    );
    expect(
      needsCritic(proposal('finish("done")', { criticRejections: MAX_CRITIC_REJECTIONS })),
    ).toBe(false);
  });

  it("reviews the model's corrections, not those found without it", () => {
    const corrected = (deterministic: boolean) =>
      proposal('click("save")', {
        actionConfidence: 0.95,
        pending: {
          ...pendingOn('click("save")', page),
          source: 'correction',
          ...(deterministic ? { deterministic } : {}),
        },
      });
    expect(needsCritic(corrected(false))).toBe(true);
    expect(needsCritic(corrected(true))).toBe(false);
  });

  it('does not review the finish the collect count decided, only the model’s own', () => {
    const finish = (deterministic: boolean) =>
      proposal('finish("Collected 15 items.")', {
        pending: {
          ...pendingOn('finish("Collected 15 items.")', page),
          ...(deterministic ? { deterministic } : {}),
        },
      });
    expect(needsCritic(finish(false))).toBe(true);
    expect(needsCritic(finish(true))).toBe(false);
  });
});

describe('critic', () => {
  it('approves, and a finish carries the evidence the critic saw', async () => {
    const llm = createScriptedLlm(
      [
        {
          node: 'critic',
          output: { approve: true, reason: 'done', evidence: 'The list shows Jas.' },
        },
      ],
      { zeroLatency: true },
    );
    const before = proposal('finish("Jas was added")');
    const after = applyUpdate(before, await critic(nodeDeps({ llm }))(before));
    expect(after.pending?.thought).toContain('Critic: The list shows Jas.');
    expect(after.tokens.calls).toBe(1);
    expect(llm.calls[0]?.actionType).toBe('CRITIC');
  });

  it('rejects: the proposal is dropped and the reason goes back to action generation', async () => {
    const llm = createScriptedLlm(
      [
        {
          node: 'critic',
          output: { approve: false, reason: 'a date in a name field', evidence: '' },
        },
      ],
      { zeroLatency: true },
    );
    const before = proposal('setValue("first", "03/12/1990")', { actionConfidence: 0.5 });
    const after = applyUpdate(before, await critic(nodeDeps({ llm }))(before));
    expect(after.pending).toBeNull();
    expect(after.criticRejections).toBe(1);
    expect(after.criticFeedback).toBe(
      'setValue("first", "03/12/1990") was rejected by a reviewer: a date in a name field',
    );
  });

  it("rejects a model's correction: its record goes and action generation proposes anew", async () => {
    const llm = createScriptedLlm(
      [
        {
          node: 'critic',
          output: { approve: false, reason: 'Cancel loses the form', evidence: '' },
        },
      ],
      { zeroLatency: true },
    );
    const record = {
      id: 'c1',
      stepIndex: 0,
      attempt: 1,
      failedAction: 'click("save")',
      correctedAction: 'click("cancel")',
      strategy: 'ALTERNATIVE_SELECTOR' as const,
      reason: 'try another button',
      createdAt: new Date(0).toISOString(),
    };
    const before = proposal('click("save")', {
      pending: { ...pendingOn('click("save")', page), source: 'correction' },
      corrections: [record],
      nextActionReady: true,
    });
    const update = await critic(nodeDeps({ llm }))(before);
    expect(update).toMatchObject({
      pending: null,
      corrections: [],
      nextActionReady: false,
      kpiCounts: { criticReviews: 1, criticRejections: 1 },
    });
  });

  it('fails open: when the critic errors, the action runs unreviewed', async () => {
    const llm = createScriptedLlm(
      [
        {
          node: 'critic',
          error: new ProviderError('503 unavailable', {
            kind: 'http',
            status: 503,
            retryable: false,
          }),
        },
      ],
      { zeroLatency: true, maxRetries: 0 },
    );
    const before = proposal('finish("Jas was added")');
    const { tracing, scores } = recordingTracing();
    const update = await critic(nodeDeps({ llm, tracing }))(before);
    // It goes ahead, and says so in the step's thought and on the trace.
    expect(update).toEqual({
      pending: {
        ...before.pending,
        thought: `${before.pending?.thought}\n(Not reviewed: its model call failed.)`,
      },
    });
    expect(scores).toEqual([
      expect.objectContaining({ name: 'model_fallback', value: 1, dataType: 'BOOLEAN' }),
    ]);
    expect(scores[0]?.comment).toMatch(/^critic: Not reviewed \(.*503 unavailable/);
  });
});
