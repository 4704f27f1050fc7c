import { InteractResponse, NextActionResponse } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { pendingOf, stateWith } from '../testing/state';
import { questionResponse, stepMetrics, stepResponse } from './response';

const plan = {
  goal: 'Add a patient',
  currentStepIndex: 0,
  steps: [{ index: 0, description: 'Click New', status: 'active' as const }],
  createdAt: '2026-11-24T20:00:00.000Z',
};
const state = stateWith({
  status: 'executing',
  complexity: 'COMPLEX',
  plan,
  stepCount: 2,
  tokens: { input: 300, output: 40, saved: 120, calls: 3 },
  pending: pendingOf('click("4")', { stepIndex: 0, thought: 'Open the form' }),
});

describe('stepResponse', () => {
  it('sends the pending action with the task’s progress, valid by the contract', () => {
    const response = stepResponse(state, { kind: 'action' }, { metrics: stepMetrics(state, 8) });
    expect(NextActionResponse.parse(response)).toEqual(response);
    expect(response).toMatchObject({
      thought: 'Open the form',
      action: 'click("4")',
      actionDetails: { name: 'click', args: { id: '4' } },
      status: 'executing',
      stepIndex: 0,
      plan,
      complexity: 'COMPLEX',
      usage: { inputTokens: 300, outputTokens: 40, totalTokens: 340 },
      metrics: { requestDurationMs: 8, stepCount: 2, llmCalls: 3, tokensSaved: 120 },
    });
    expect(response).not.toHaveProperty('result');
  });

  it('sends a chain with its metadata, and the first request’s status as executing', () => {
    const chained = {
      ...state,
      status: 'active' as const,
      pending: pendingOf('setValue("0", "x")', { chain: true }),
    };
    const response = stepResponse(chained, { kind: 'action' });
    expect(NextActionResponse.safeParse(response).success).toBe(true);
    expect(response.status).toBe('executing');
    expect(response.actions).toHaveLength(3);
    expect(response.chainMetadata?.totalActions).toBe(3);
  });

  it('the terminal step carries the result and what the task collected', () => {
    const done = {
      ...state,
      status: 'completed' as const,
      result: 'Collected 2 items.',
      collectedCounts: { job: 2 },
      pending: pendingOf('finish("Collected 2 items.")'),
    };
    const response = stepResponse(
      done,
      { kind: 'action' },
      {
        collectedItems: { job: [{ id: 'J-1' }, { id: 'J-2' }] },
      },
    );
    expect(NextActionResponse.safeParse(response).success).toBe(true);
    expect(response).toMatchObject({
      status: 'completed',
      result: 'Collected 2 items.',
      collected: { job: 2 },
      collectedItems: { job: [{ id: 'J-1' }, { id: 'J-2' }] },
    });
  });

  it('a page read asks for the snapshot and carries no action', () => {
    const reading = { ...state, pageRequest: { mode: 'outline' as const } };
    const response = stepResponse(reading, { kind: 'read_page', thought: 'Look first' });
    expect(NextActionResponse.safeParse(response).success).toBe(true);
    expect(response).toMatchObject({ thought: 'Look first', needs_snapshot: { mode: 'outline' } });
    expect(response).not.toHaveProperty('action');
    expect(() => stepResponse(state, { kind: 'read_page', thought: '' })).toThrow(/page request/);
    expect(() => stepResponse({ ...state, pending: null }, { kind: 'action' })).toThrow(/pending/);
  });
});

describe('questionResponse', () => {
  it('asks the user, with the task it pauses, and the task’s tokens and cost so far', () => {
    const response = questionResponse(state, {
      kind: 'ask_user',
      message: 'Which patient?',
      missingInformation: ['patient name'],
      thought: 'The goal names no patient',
    });
    expect(InteractResponse.parse(response)).toEqual(response);
    expect(response).toEqual({
      needsUserInput: true,
      message: 'Which patient?',
      missingInformation: ['patient name'],
      sessionId: state.sessionId,
      taskId: state.taskId,
      thought: 'The goal names no patient',
      usage: { inputTokens: 300, outputTokens: 40, totalTokens: 340, costMicroUsd: 0 },
    });
  });
});
