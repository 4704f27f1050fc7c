// What a call starts with, and the one usage event built from it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callFailure, startCall, usageEventOf } from './llm-call';
import type { LlmRequest } from './port';
import { zeroUsage } from './provider';
import { createScriptedLlm } from './scripted-client';

const request: LlmRequest<z.ZodType> = {
  node: 'correction',
  actionType: 'SELF_CORRECTION',
  system: 'sys',
  prompt: 'the caller prompt',
  schema: z.object({}),
  context: { tenantId: 't1', taskId: 'task-1' },
};
const { modelProvider: provider } = createScriptedLlm([], {
  modelFor: (node) => `model-${node}`,
});

describe('startCall', () => {
  it("starts with the node's model, no tokens and the whole budget", () => {
    const call = startCall(provider, request, 2);
    expect(call).toMatchObject({ model: 'model-correction', usage: zeroUsage(), retriesLeft: 2 });
    expect(call.generationId).not.toBe(startCall(provider, request, 2).generationId);
    expect(Date.parse(call.startedAt)).not.toBeNaN();
  });
});

describe('callFailure', () => {
  it('names the model the call is at when it fails', () => {
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
  const call = startCall(provider, request, 0);
  const usage = { ...zeroUsage(), inputTokens: 42, totalTokens: 42 };
  call.usage = usage;

  it("carries the output on success, the caller's prompt and the call's totals", () => {
    const event = usageEventOf(call, 12.5, { output: { ok: true } });
    expect(event).toStrictEqual({
      generationId: call.generationId,
      node: 'correction',
      actionType: 'SELF_CORRECTION',
      provider: 'SCRIPTED',
      model: 'model-correction',
      usage,
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
