// The usage service against a real store (libSQL in memory) and the real LangFuse SDK talking
// to a capture server, a closed port or a server that never answers.
import { LangfuseOtelSpanAttributes as A } from '@langfuse/tracing';
import { createStore, type Store } from '@tandem/store';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LogWriter } from '../log';
import {
  closedPortUrl,
  startLangfuseCaptureServer,
  type LangfuseCaptureServer,
} from '../testing/langfuse-capture-server';
import { createTracing } from '../tracing/create-tracing';
import type { Tracing } from '../tracing/port';
import type { UsageEvent } from './usage-event';
import { createUsageService } from './usage-service';

function recordingLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const at =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      lines.push({ level, message, fields });
    };
  const log: LogWriter = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
  return { log, lines };
}

let seq = 0;
function event(tenantId: string, overrides: Partial<UsageEvent> = {}): UsageEvent {
  seq += 1;
  return {
    generationId: `gen-${seq}-${Date.now()}`,
    node: 'planning',
    actionType: 'PLANNING',
    provider: 'GOOGLE',
    model: 'gemini-2.5-flash',
    usage: {
      inputTokens: 1500,
      outputTokens: 500,
      cachedInputTokens: 0,
      thinkingTokens: 100,
      totalTokens: 2100,
    },
    latencyMs: 850,
    context: { tenantId, userId: 'user-1', sessionId: 'session-1', taskId: 'task-1' },
    startedAt: new Date(Date.now() - 850).toISOString(),
    input: { system: 'You are a planner.', prompt: 'Goal: add a patient' },
    output: { steps: ['a', 'b'] },
    ...overrides,
  };
}

const fast = (ms: number) => ({
  timeoutMs: ms,
  flushTimeoutMs: ms * 2,
  flushIntervalMs: 50,
});

describe('usage service', () => {
  let store: Store;
  let tenantId: string;
  let tracing: Tracing | undefined;

  beforeEach(async () => {
    store = await createStore({ libsqlUrl: ':memory:' });
    tenantId = (await store.tenants.create({ name: 'usage-test' })).id;
  });
  afterEach(async () => {
    await tracing?.shutdown();
    tracing = undefined;
    await store.close();
  });

  describe('with LangFuse up', () => {
    let server: LangfuseCaptureServer;
    beforeAll(async () => {
      server = await startLangfuseCaptureServer();
    });
    afterEach(() => server.reset());
    afterAll(async () => {
      await server.close();
    });

    /** A usage service tracing to the capture server, its logs kept out of the way. */
    const usageTracedByCapture = () => {
      const traced = createTracing({
        publicKey: 'pk',
        secretKey: 'sk',
        baseUrl: server.baseUrl,
        log: recordingLogger().log,
        ...fast(2000),
      });
      tracing = traced;
      return {
        traced,
        usage: createUsageService({ store, tracing: traced, log: recordingLogger().log }),
      };
    };

    it('prices the call once and writes the usage log and a nested LangFuse generation', async () => {
      const { log, lines } = recordingLogger();
      tracing = createTracing({
        publicKey: 'pk',
        secretKey: 'sk',
        baseUrl: server.baseUrl,
        log,
        ...fast(2000),
      });
      const usage = createUsageService({ store, tracing, log });

      let traceId: string | null = null;
      await tracing.startTrace(
        'interact-request-task-1',
        { tenantId, taskId: 'task-1' },
        async (trace) => {
          traceId = trace.traceId;
          await tracing?.span('planning', {}, async () => {
            // The agent's LLM port calls the hook detached, in a microtask of the node's context.
            await Promise.resolve().then(() => usage.recordUsage(event(tenantId)));
          });
        },
      );
      await usage.drain();
      expect(usage.pending).toBe(0);

      const [row] = await store.tokenUsage.list(tenantId);
      // 1,500 × 0.30 + 500 × 2.50 + 100 × 2.50 µUSD = 450 + 1,250 + 250
      expect(row).toMatchObject({
        model: 'gemini-2.5-flash',
        actionType: 'PLANNING',
        inputTokens: 1500,
        outputTokens: 500,
        thinkingTokens: 100,
        totalTokens: 2100,
        costMicroUsd: 1950,
        durationMs: 850,
        userId: 'user-1',
        taskId: 'task-1',
        traceId,
      });

      await tracing.flush();
      await server.waitFor((s) => s.spans.some((x) => x.name === 'generatePlan'));
      const gen = server.spans.find((s) => s.name === 'generatePlan');
      const planning = server.spans.find((s) => s.name === 'planning');
      expect(gen?.traceId).toBe(traceId);
      expect(gen?.parentSpanId).toBe(planning?.spanId);
      if (!gen) throw new Error('no generation');
      expect(server.json(gen, A.OBSERVATION_USAGE_DETAILS)).toEqual({
        input: 1500,
        input_cached_tokens: 0,
        output: 500,
        output_reasoning_tokens: 100,
        total: 2100,
      });
      expect(server.json(gen, A.OBSERVATION_COST_DETAILS)).toEqual({
        input: 0.00045,
        input_cached_tokens: 0,
        output: 0.00125,
        output_reasoning_tokens: 0.00025,
        total: 0.00195,
      });
      expect(gen.endTimeMs - gen.startTimeMs).toBe(850);
      expect(gen.attributes[`${A.OBSERVATION_METADATA}.costMicroUsd`]).toBe('1950');
      expect(lines.filter((l) => l.level !== 'debug')).toEqual([]);
    });

    it('is idempotent on the generation id: one log row, one generation', async () => {
      const { traced, usage } = usageTracedByCapture();
      const e = event(tenantId, { context: { tenantId, traceId: null } });

      const first = await usage.record(e);
      const second = await usage.record(e);
      expect(first).toMatchObject({ stored: 'inserted', traced: 'recorded', costMicroUsd: 1950 });
      expect(second).toMatchObject({
        stored: 'duplicate',
        traced: 'duplicate',
        costMicroUsd: 1950,
      });
      // Even a fresh service (a restarted process) leaves the billing log unchanged.
      const third = await createUsageService({
        store,
        tracing: traced,
        log: recordingLogger().log,
      }).record(e);
      expect(third.stored).toBe('duplicate');
      expect(await store.tokenUsage.list(tenantId)).toHaveLength(1);

      await traced.flush();
      await server.waitFor((s) => s.spans.length >= 2);
      // The same service never sends an id twice; a restarted one has no memory of it, so a
      // replay across processes reaches LangFuse again (billing, above, stays exact).
      expect(server.spans.filter((s) => s.name === 'generatePlan')).toHaveLength(2);
    });

    it('names a call that answered for two nodes after both, and prices each its share', async () => {
      const { traced, usage } = usageTracedByCapture();
      const call = event(tenantId, {
        node: 'context_analysis',
        alsoFor: [{ node: 'planning', actionType: 'PLANNING', field: 'plan' }],
        actionType: 'CONTEXT_ANALYSIS',
        context: { tenantId, traceId: null, taskId: 'task-merged' },
        output: { source: 'PAGE', reasoning: 'The form is open.', plan: { steps: ['a', 'b'] } },
      });
      const outcome = await usage.record(call);
      await traced.flush();
      await server.waitFor((s) => s.spans.length >= 1);
      const gen = server.spans[0];
      expect(gen?.name).toBe('analyzeContext + generatePlan');
      expect(gen?.attributes[`${A.OBSERVATION_METADATA}.alsoFor`]).toBe('planning');
      const logs = await store.tokenUsage.list(tenantId, { taskId: 'task-merged' });
      expect(logs.map((l) => [l.id, l.actionType, l.partOf])).toEqual([
        [call.generationId, 'CONTEXT_ANALYSIS', null],
        [`${call.generationId}:planning`, 'PLANNING', call.generationId],
      ]);
      // Both shares add up to exactly the call: nothing billed twice, nothing lost.
      const sum = (key: 'inputTokens' | 'outputTokens' | 'totalTokens' | 'costMicroUsd') =>
        logs.reduce((n, l) => n + l[key], 0);
      expect([sum('inputTokens'), sum('outputTokens'), sum('totalTokens')]).toEqual([
        1500, 500, 2100,
      ]);
      expect(sum('costMicroUsd')).toBe(outcome.costMicroUsd);
      expect(logs[1]?.totalTokens).toBeGreaterThan(0);
      const [task] = await store.tokenUsage.totalsByTask(tenantId, ['task-merged']);
      expect(task?.calls).toBe(1);
    });

    it('records a failed call as an ERROR generation and still bills its tokens', async () => {
      const { traced, usage } = usageTracedByCapture();
      const outcome = await usage.record(
        event(tenantId, { error: 'GOOGLE call for planning failed: 503', output: undefined }),
      );
      expect(outcome.stored).toBe('inserted');
      await traced.flush();
      await server.waitFor((s) => s.spans.length >= 1);
      const gen = server.spans[0];
      expect(gen?.attributes[A.OBSERVATION_LEVEL]).toBe('ERROR');
      expect(gen?.attributes[A.OBSERVATION_STATUS_MESSAGE]).toBe(
        'GOOGLE call for planning failed: 503',
      );
      expect((await store.tokenUsage.list(tenantId))[0]?.costMicroUsd).toBe(1950);
    });

    it('keeps billing and tracing when the store write throws: resolves, logs, never throws', async () => {
      const { log, lines } = recordingLogger();
      tracing = createTracing({
        publicKey: 'pk',
        secretKey: 'sk',
        baseUrl: server.baseUrl,
        log,
        ...fast(2000),
      });
      const broken = {
        tokenUsage: {
          append: async (): Promise<boolean> => {
            throw new Error('database is locked');
          },
        },
      };
      const usage = createUsageService({ store: broken, tracing, log });
      const started = performance.now();
      await expect(usage.recordUsage(event(tenantId))).resolves.toBeUndefined();
      expect(performance.now() - started).toBeLessThan(250);
      const outcome = await usage.record(event(tenantId));
      expect(outcome).toMatchObject({ stored: 'failed', traced: 'recorded' });
      await usage.drain();
      const errors = lines.filter((l) => l.level === 'error');
      expect(errors).toHaveLength(2);
      expect(errors[0]).toMatchObject({
        message: 'usage log write failed',
        fields: { tenantId, costMicroUsd: 1950, error: 'database is locked' },
      });
      // LangFuse still got both generations.
      await tracing.flush();
      await server.waitFor((s) => s.spans.filter((x) => x.name === 'generatePlan').length === 2);
    });
  });

  describe('with LangFuse down', () => {
    it('closed port: recordUsage resolves at once, the log is written, one rate-limited warning', async () => {
      const { log, lines } = recordingLogger();
      tracing = createTracing({
        publicKey: 'pk',
        secretKey: 'sk',
        baseUrl: await closedPortUrl(),
        log,
        ...fast(500),
      });
      const usage = createUsageService({ store, tracing, log });
      const t = tracing;

      const started = performance.now();
      await t.startTrace('interact-request-x', { tenantId }, async () => {
        for (let i = 0; i < 5; i++) {
          await t.span('action_generation', {}, () => usage.recordUsage(event(tenantId)));
        }
        t.score({ name: 'verification_success', value: 1 });
      });
      expect(performance.now() - started).toBeLessThan(250);

      await usage.drain();
      expect(await store.tokenUsage.list(tenantId)).toHaveLength(5);

      const flushStarted = performance.now();
      await t.flush();
      await t.flush();
      expect(performance.now() - flushStarted).toBeLessThan(3000);
      const warnings = lines.filter((l) => l.level === 'warn');
      expect(warnings.map((w) => w.message).sort()).toEqual([
        'LangFuse score batch failed; scores dropped',
        'LangFuse span export failed; spans dropped',
      ]);
      expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    });

    it('hanging server: requests stay fast, flush and shutdown are bounded by their timeouts', async () => {
      const hanging = await startLangfuseCaptureServer({ mode: 'hang' });
      try {
        const { log, lines } = recordingLogger();
        tracing = createTracing({
          publicKey: 'pk',
          secretKey: 'sk',
          baseUrl: hanging.baseUrl,
          log,
          // Exports would wait 5 s for an answer; flush/shutdown give up after 600 ms.
          timeoutMs: 5000,
          flushTimeoutMs: 600,
          flushIntervalMs: 50,
        });
        const usage = createUsageService({ store, tracing, log });
        const t = tracing;

        const durations: number[] = [];
        for (let i = 0; i < 20; i++) {
          const started = performance.now();
          await t.startTrace(`interact-request-${i}`, { tenantId }, () =>
            t.span('planning', {}, () => usage.recordUsage(event(tenantId))),
          );
          durations.push(performance.now() - started);
        }
        // Far below the 5 s export timeout: nothing on the request path waits for LangFuse.
        expect(Math.max(...durations)).toBeLessThan(250);
        await usage.drain();
        expect(await store.tokenUsage.list(tenantId)).toHaveLength(20);

        const flushStarted = performance.now();
        await t.flush();
        expect(performance.now() - flushStarted).toBeLessThan(1500);
        await hanging.waitFor((s) => s.requests.length >= 1, 3000);
        const shutdownStarted = performance.now();
        await t.shutdown();
        expect(performance.now() - shutdownStarted).toBeLessThan(1500);
        // Late calls after shutdown are ignored, not thrown.
        t.score({ name: 'verification_success', value: 1, traceId: 'a'.repeat(32) });
        expect(lines.filter((l) => l.level === 'error')).toEqual([]);
      } finally {
        await hanging.close();
      }
    });
  });
});
