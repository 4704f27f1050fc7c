import { describe, expect, it, vi } from 'vitest';
import type { UsageEvent } from '@tandem/observability';
import { z } from 'zod';
import { createLlmClient } from './create-llm-client';
import { LlmCallError, type LlmRequest } from './port';
import { ProviderError } from './provider';
import { ScriptedLlm, ScriptedLlmError, createScriptedLlm } from './scripted-client';

const Plan = z.object({ steps: z.array(z.string()) });
const Verdict = z.object({ success: z.boolean() });
const ask = <S extends z.ZodType>(
  node: LlmRequest<S>['node'],
  schema: S,
  prompt = 'p',
): LlmRequest<S> => ({
  node,
  actionType: 'PLANNING',
  system: 'sys',
  prompt,
  schema,
  context: { tenantId: 't1' },
});

describe('ScriptedLlm', () => {
  it('answers per node in FIFO order, records calls and reports synthetic usage', async () => {
    const events: UsageEvent[] = [];
    const llm = createScriptedLlm(
      [
        { node: 'planning', output: { steps: ['a'] } },
        { node: 'verification', output: { success: true } },
        { node: 'planning', output: (request) => ({ steps: [request.prompt] }) },
      ],
      { usageHook: (e) => void events.push(e), zeroLatency: true },
    );
    expect(llm.configured).toBe(true);
    expect(llm.provider).toBe('SCRIPTED');

    const first = await llm.generate(ask('planning', Plan, '12345678'));
    expect(first.output).toEqual({ steps: ['a'] });
    expect(first.provider).toBe('SCRIPTED');
    // ceil(("sys" + "12345678").length / 4) = 3 input; ceil('{"steps":["a"]}'.length / 4) = 4 output.
    expect(first.usage).toMatchObject({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });

    // Independent nodes may interleave: the second planning step is reachable before verification.
    expect((await llm.generate(ask('planning', Plan, 'echo'))).output).toEqual({ steps: ['echo'] });
    expect((await llm.generate(ask('verification', Verdict))).output).toEqual({ success: true });

    expect(llm.calls.map((c) => c.node)).toEqual(['planning', 'planning', 'verification']);
    expect(llm.callsFor('planning')).toHaveLength(2);
    expect(llm.usageEvents).toHaveLength(3);
    await vi.waitFor(() => expect(events).toHaveLength(3));
    llm.assertDone();
  });

  it('validates scripted outputs with the request schema, with the real repair path', async () => {
    const llm = new ScriptedLlm([
      { node: 'planning', text: 'not json' },
      { node: 'planning', output: { steps: ['ok'] } },
    ]);
    await expect(llm.generate(ask('planning', Plan))).resolves.toMatchObject({
      output: { steps: ['ok'] },
    });
    expect(llm.attempts).toHaveLength(2);
    expect(llm.attempts[1]?.repairReason).toMatch(/not valid JSON/);
    llm.assertDone();
  });

  it('fails clearly when a scripted output is invalid and no repair is scripted', async () => {
    const llm = new ScriptedLlm([{ node: 'planning', output: { steps: 'wrong' } }]);
    const error = await llm.generate(ask('planning', Plan)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptedLlmError);
    expect((error as Error).message).toMatch(/output scripted for node planning failed validation/);
  });

  it('throws a clear error on an unexpected call, and assertDone reports it even if swallowed', async () => {
    const llm = new ScriptedLlm([{ node: 'planning', output: { steps: [] } }]);
    const error = await llm.generate(ask('verification', Verdict)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptedLlmError);
    expect(error).not.toBeInstanceOf(LlmCallError);
    expect((error as Error).message).toBe(
      'scripted LLM: unexpected call to node verification; remaining script: [planning]',
    );
    expect(() => llm.assertDone()).toThrow(/unexpected call to node verification/);
  });

  it('assertDone lists leftover steps', () => {
    const llm = new ScriptedLlm([{ node: 'verification', output: { success: true } }]);
    expect(() => llm.assertDone()).toThrow(/1 scripted step\(s\) never called: \[verification\]/);
  });

  it('simulates provider failures that go through the retry policy', async () => {
    const llm = new ScriptedLlm([
      { node: 'verification', error: new ProviderError('HTTP 429', { kind: 'http', status: 429 }) },
      { node: 'verification', output: { success: false } },
    ]);
    await expect(llm.generate(ask('verification', Verdict))).resolves.toMatchObject({
      output: { success: false },
    });
    llm.assertDone();
  });

  it('has a small simulated latency unless zeroLatency is set', async () => {
    const slow = new ScriptedLlm([{ node: 'verification', output: { success: true } }], {
      latencyMs: 30,
    });
    const started = performance.now();
    await slow.generate(ask('verification', Verdict));
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);

    const fast = new ScriptedLlm([{ node: 'verification', output: { success: true } }], {
      zeroLatency: true,
    });
    const result = await fast.generate(ask('verification', Verdict));
    expect(result.latencyMs).toBeLessThan(25);
  });

  it('push() extends the script', async () => {
    const llm = new ScriptedLlm().push({ node: 'verification', output: { success: true } });
    await llm.generate(ask('verification', Verdict));
    expect(llm.remaining).toHaveLength(0);
  });

  it('answers unscripted structured calls from the fallback, with the models it is told', async () => {
    const bug = new RangeError('not answered');
    const llm = createScriptedLlm([{ node: 'planning', output: { steps: [] }, model: 'm-001' }], {
      modelFor: (node) => `m-${node}`,
      fallback: (request) =>
        request.prompt === 'fail' ? { error: bug } : { output: { success: true } },
    });
    await expect(llm.generate(ask('planning', Plan))).resolves.toMatchObject({ model: 'm-001' });
    await expect(llm.generate(ask('verification', Verdict))).resolves.toMatchObject({
      output: { success: true },
      model: 'm-verification',
    });
    await expect(llm.generate(ask('verification', Verdict, 'fail'))).rejects.toBe(bug);
    expect(llm.attempts.map((attempt) => attempt.model)).toEqual([
      'm-planning',
      'm-verification',
      'm-verification',
    ]);
    llm.assertDone();
  });

  it('exposes its provider for tests of the client itself', async () => {
    const llm = createScriptedLlm([{ node: 'verification', text: '{"success":false}' }]);
    const client = createLlmClient(llm.modelProvider, { maxRetries: 0 });
    await expect(client.generate(ask('verification', Verdict))).resolves.toMatchObject({
      output: { success: false },
      model: 'scripted',
    });
    expect(llm.attempts).toHaveLength(1);
  });
});

describe('ScriptedLlm tool-calling turns', () => {
  const turn = (text: string) => ({
    node: 'document_extraction' as const,
    actionType: 'DOCUMENT_EXTRACTION' as const,
    system: 'sys',
    messages: [{ role: 'user' as const, text }],
    tools: [{ name: 'get_document_text', description: 'Read.', schema: z.object({}) }],
    context: { tenantId: 't1' },
  });

  it('answers from the conversation, with call ids, usage and one usage event per turn', async () => {
    const events: UsageEvent[] = [];
    const llm = new ScriptedLlm(
      [
        {
          node: 'document_extraction',
          reply: (request) => ({
            text: `You said: ${request.messages[0]?.role === 'user' ? request.messages[0].text : ''}`,
            toolCalls: [{ name: 'get_document_text', args: {} }],
          }),
        },
      ],
      { usageHook: (event) => void events.push(event) },
    );
    const result = await llm.converse(turn('extract it'));
    expect(result.text).toBe('You said: extract it');
    expect(result.toolCalls).toEqual([{ id: 'scripted-1-0', name: 'get_document_text', args: {} }]);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(llm.conversations).toHaveLength(1);
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({ actionType: 'DOCUMENT_EXTRACTION', provider: 'SCRIPTED' });
    llm.assertDone();
  });

  it('tells a structured-output step from a tool-calling turn', async () => {
    const llm = new ScriptedLlm([{ node: 'document_extraction', output: { a: 1 } }]);
    await expect(llm.converse(turn('x'))).rejects.toThrow(ScriptedLlmError);
    expect(() => llm.assertDone()).toThrow(/tool-calling turn/);
  });
});
