// What a call starts with, and the one usage event built from it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callFailure, startCall, usageEventOf } from './llm-call';
import type { LlmRequest } from './port';
import { fakeProvider, tokens } from './test-support/fake-provider';

const request: LlmRequest<z.ZodType> = {
  node: 'correction',
  actionType: 'SELF_CORRECTION',
  system: 'sys',
  prompt: 'the caller prompt',
  schema: z.object({}),
  context: { tenantId: 't1', taskId: 'task-1' },
};

describe('startCall', () => {
  it("starts with the node's model, no tokens and the whole budget", () => {
    const { provider } = fakeProvider([]);
    const call = startCall(provider, request, 2);
    expect(call).toMatchObject({ model: 'model-correction', usage: tokens(0), retriesLeft: 2 });
    expect(call.generationId).not.toBe(startCall(provider, request, 2).generationId);
    expect(Date.parse(call.startedAt)).not.toBeNaN();
  });
});

describe('callFailure', () => {
  it('names the model the call is at when it fails', () => {
    const { provider } = fakeProvider([]);
    const call = startCall(provider, request, 0);
    call.model = 'model-correction-002';
    expect(callFailure(call, 'boom', true).details).toEqual({
      node: 'correction',
      provider: 'SCRIPTED',
      model: 'model-correction-002',
      retryable: true,
    });
  });
});

describe('usageEventOf', () => {
  const { provider } = fakeProvider([]);
  const call = startCall(provider, request, 0);
  call.usage = tokens(42);

  it("carries the output on success, the caller's prompt and the call's totals", () => {
    const event = usageEventOf(call, 12.5, { output: { ok: true } });
    expect(event).toStrictEqual({
      generationId: call.generationId,
      node: 'correction',
      actionType: 'SELF_CORRECTION',
      provider: 'SCRIPTED',
      model: 'model-correction',
      usage: tokens(42),
      latencyMs: 12.5,
      context: { tenantId: 't1', taskId: 'task-1' },
      startedAt: call.startedAt,
      input: { system: 'sys', prompt: 'the caller prompt' },
      output: { ok: true },
    });
  });

  it('carries the error and no output key on failure', () => {
    const event = usageEventOf(call, 3, { error: 'timed out' });
    expect(event.error).toBe('timed out');
    expect('output' in event).toBe(false);
  });
});
