// The usage hook is detached from the call: deferred, and its failures reported, not thrown.
import type { UsageEvent } from '@tandem/observability';
import { describe, expect, it, vi } from 'vitest';
import { createUsageEmitter } from './usage-emitter';
import { zeroUsage } from './provider';

const event: UsageEvent = {
  generationId: 'gen-1',
  node: 'planning',
  actionType: 'PLANNING',
  provider: 'SCRIPTED',
  model: 'm',
  usage: { ...zeroUsage(), inputTokens: 1, totalTokens: 1 },
  latencyMs: 1,
  context: { tenantId: 't1' },
  startedAt: '2026-01-01T00:00:00.000Z',
  input: { system: '', prompt: '' },
};

describe('createUsageEmitter', () => {
  it('runs the hook after the caller has moved on', async () => {
    const hook = vi.fn();
    createUsageEmitter(hook)(event);
    expect(hook).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(hook).toHaveBeenCalledWith(event));
  });

  it('reports a throwing hook and a rejecting hook through onHookError', async () => {
    const onHookError = vi.fn();
    const thrown = new Error('sync');
    createUsageEmitter(() => {
      throw thrown;
    }, onHookError)(event);
    createUsageEmitter(() => Promise.reject(new Error('db gone')), onHookError)(event);
    await vi.waitFor(() => expect(onHookError).toHaveBeenCalledTimes(2));
    expect(onHookError).toHaveBeenCalledWith(thrown, event);
    expect(onHookError.mock.calls.map(([error]) => (error as Error).message)).toContain('db gone');
  });

  it('swallows a failing error reporter (no unhandled rejection)', async () => {
    const onHookError = vi.fn(() => {
      throw new Error('reporter broken');
    });
    createUsageEmitter(() => Promise.reject(new Error('db gone')), onHookError)(event);
    await vi.waitFor(() => expect(onHookError).toHaveBeenCalledTimes(1));
  });

  it('logs to the console by default', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      createUsageEmitter(() => Promise.reject(new Error('db gone')))(event);
      await vi.waitFor(() =>
        expect(log).toHaveBeenCalledWith(
          '[llm] usage hook failed for generation gen-1',
          expect.any(Error),
        ),
      );
    } finally {
      log.mockRestore();
    }
  });

  it('does nothing without a hook', () => {
    expect(() => createUsageEmitter(undefined)(event)).not.toThrow();
  });
});
