// The real LangFuse SDK (OTel span processor + OTLP exporter + ingestion client) against a
// local capture server: what arrives is what LangFuse would ingest.
import { LangfuseOtelSpanAttributes as A } from '@langfuse/tracing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LogWriter } from '../log';
import {
  startLangfuseCaptureServer,
  type CapturedSpan,
  type LangfuseCaptureServer,
} from '../testing/langfuse-capture-server';
import { createTracing } from './create-tracing';
import { interactTraceName, type Tracing } from './port';

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('LangFuse tracing (capture server)', () => {
  let server: LangfuseCaptureServer;
  let tracing: Tracing;

  beforeAll(async () => {
    server = await startLangfuseCaptureServer();
  });
  afterEach(async () => {
    await tracing.shutdown();
    server.reset();
  });
  afterAll(async () => {
    await server.close();
  });

  const make = (log: LogWriter) =>
    createTracing({
      publicKey: 'pk-lf-test',
      secretKey: 'sk-lf-test',
      baseUrl: server.baseUrl,
      environment: 'test',
      release: '1.2.3',
      log,
    });

  it('exports one trace per request: nested node spans, a generation with usage and cost, and scores', async () => {
    const { log, lines } = recordingLogger();
    tracing = make(log);
    expect(tracing.enabled).toBe(true);
    expect(tracing.currentTraceId()).toBeNull();

    let traceId: string | null = null;
    let verificationSpanId: string | null = null;
    const result = await tracing.startTrace(
      interactTraceName('task-1'),
      {
        tenantId: 'tenant-a',
        userId: 'user-1',
        sessionId: 'session-9',
        taskId: 'task-1',
        tags: ['new-task', 'complex'],
        input: { query: 'add patient Jas', url: 'https://emr.test/' },
        metadata: { requestId: 'req-42' },
      },
      async (trace) => {
        traceId = trace.traceId;
        expect(tracing.currentTraceId()).toBe(trace.traceId);
        await tracing.span(
          'complexity_check',
          { input: { query: 'add patient Jas', domLength: 5120 } },
          (span) => span.update({ output: { complexity: 'COMPLEX' } }),
        );
        await tracing.span(
          'planning',
          { input: { query: 'add patient Jas', complexity: 'COMPLEX' } },
          async (span) => {
            await sleep(2);
            // Inside the node, across an await: the generation nests under "planning".
            tracing.generation({
              name: 'generatePlan',
              model: 'gemini-2.5-flash',
              input: { system: 'You plan.', prompt: 'Goal: add patient Jas' },
              output: { steps: ['open form', 'fill name', 'save'] },
              usage: { input: 1200, cachedInput: 300, output: 200, thinking: 50, total: 1750 },
              cost: {
                input: 0.00036,
                cachedInput: 0.000009,
                output: 0.0005,
                thinking: 0.000125,
                total: 0.000994,
              },
              startTime: new Date(Date.now() - 25),
              endTime: new Date(),
              metadata: { generationId: 'gen-1', node: 'planning' },
            });
            span.update({ output: { stepCount: 3, goal: 'add patient Jas' } });
          },
        );
        await tracing.span(
          'verification',
          { input: { action: 'click(12)', stepIndex: 0 } },
          async (span) => {
            verificationSpanId = span.id;
            tracing.generation({
              name: 'verifyAction',
              model: 'gemini-2.5-flash-lite',
              input: { system: 's', prompt: 'p' },
              usage: { input: 10, cachedInput: 0, output: 0, thinking: 0, total: 10 },
              cost: { input: 0.000001, cachedInput: 0, output: 0, thinking: 0, total: 0.000001 },
              startTime: new Date(Date.now() - 5),
              endTime: new Date(),
              level: 'ERROR',
              statusMessage: 'output did not match the schema',
            });
            tracing.score({ name: 'verification_success', value: 1 });
            tracing.score({ name: 'verification_confidence', value: 0.92, observationId: span.id });
          },
        );
        await tracing.span(
          'correction',
          { input: { strategy: 'retry-alternative', attempt: 1 } },
          async () => {
            tracing.score({ name: 'correction_success', value: 0 });
          },
        );
        trace.setOutput({ action: 'click(12)' });
        return 'answered';
      },
    );
    expect(result).toBe('answered');
    expect(tracing.currentTraceId()).toBeNull();

    await tracing.flush();
    await server.waitFor((s) => s.spans.length >= 7 && s.scores.length >= 3);

    const spans = server.trace(traceId ?? '');
    expect(spans).toHaveLength(7);
    const byName = (name: string): CapturedSpan => {
      const found = spans.find((s) => s.name === name);
      if (!found) throw new Error(`no span ${name}`);
      return found;
    };
    const root = byName('interact-request-task-1');
    expect(root.parentSpanId).toBeNull();
    for (const node of ['complexity_check', 'planning', 'verification', 'correction']) {
      expect(byName(node).parentSpanId, node).toBe(root.spanId);
    }
    const plan = byName('generatePlan');
    expect(plan.parentSpanId).toBe(byName('planning').spanId);
    expect(byName('verifyAction').parentSpanId).toBe(byName('verification').spanId);

    // Trace-level attributes ride on every observation, as propagateAttributes would put them.
    for (const span of spans) {
      expect(span.scope).toBe('langfuse-sdk');
      expect(span.attributes[A.TRACE_NAME]).toBe('interact-request-task-1');
      expect(span.attributes[A.TRACE_USER_ID]).toBe('user-1');
      expect(span.attributes[A.TRACE_SESSION_ID]).toBe('session-9');
      expect(span.attributes[A.TRACE_TAGS]).toEqual(['new-task', 'complex']);
      expect(span.attributes[`${A.TRACE_METADATA}.tenantId`]).toBe('tenant-a');
      expect(span.attributes[`${A.TRACE_METADATA}.taskId`]).toBe('task-1');
      expect(span.attributes[`${A.TRACE_METADATA}.requestId`]).toBe('req-42');
      expect(span.attributes[A.ENVIRONMENT]).toBe('test');
      expect(span.attributes[A.RELEASE]).toBe('1.2.3');
    }
    expect(server.json(root, A.TRACE_INPUT)).toEqual({
      query: 'add patient Jas',
      url: 'https://emr.test/',
    });
    expect(server.json(root, A.TRACE_OUTPUT)).toEqual({ action: 'click(12)' });
    expect(server.json(byName('complexity_check'), A.OBSERVATION_INPUT)).toEqual({
      query: 'add patient Jas',
      domLength: 5120,
    });
    expect(server.json(byName('planning'), A.OBSERVATION_OUTPUT)).toEqual({
      stepCount: 3,
      goal: 'add patient Jas',
    });

    expect(plan.attributes[A.OBSERVATION_TYPE]).toBe('generation');
    expect(plan.attributes[A.OBSERVATION_MODEL]).toBe('gemini-2.5-flash');
    expect(server.json(plan, A.OBSERVATION_USAGE_DETAILS)).toEqual({
      input: 1200,
      input_cached_tokens: 300,
      output: 200,
      output_reasoning_tokens: 50,
      total: 1750,
    });
    expect(server.json(plan, A.OBSERVATION_COST_DETAILS)).toMatchObject({
      total: 0.000994,
      input: 0.00036,
    });
    expect(server.json(plan, A.OBSERVATION_INPUT)).toEqual({
      system: 'You plan.',
      prompt: 'Goal: add patient Jas',
    });
    expect(plan.endTimeMs - plan.startTimeMs).toBeGreaterThanOrEqual(20);
    expect(plan.attributes[`${A.OBSERVATION_METADATA}.generationId`]).toBe('gen-1');

    const verify = byName('verifyAction');
    expect(verify.attributes[A.OBSERVATION_LEVEL]).toBe('ERROR');
    expect(verify.attributes[A.OBSERVATION_STATUS_MESSAGE]).toBe('output did not match the schema');
    // Failures are an observation level, never exception events (those belong to Sentry).
    expect(
      spans.every((s) => !Object.keys(s.attributes).some((k) => k.startsWith('exception.'))),
    ).toBe(true);

    expect(server.scores).toHaveLength(3);
    const score = (name: string) => server.scores.find((s) => s.name === name);
    expect(score('verification_success')).toMatchObject({ traceId, value: 1, dataType: 'BOOLEAN' });
    expect(score('verification_confidence')).toMatchObject({
      traceId,
      value: 0.92,
      dataType: 'NUMERIC',
      observationId: verificationSpanId,
    });
    expect(score('correction_success')).toMatchObject({ traceId, value: 0, dataType: 'BOOLEAN' });

    // Basic auth with the project keys, on both endpoints.
    const auth = `Basic ${Buffer.from('pk-lf-test:sk-lf-test').toString('base64')}`;
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(server.requests.every((r) => r.authorization === auth)).toBe(true);
    expect(server.requests.find((r) => r.path.endsWith('/otel/v1/traces'))?.contentType).toContain(
      'json',
    );
    expect(lines.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
  });

  it('keeps concurrent traces apart and marks a failing node span as ERROR without exception events', async () => {
    tracing = make(recordingLogger().log);
    const ids = await Promise.all(
      ['a', 'b'].map((task) =>
        tracing.startTrace(
          interactTraceName(task),
          { tenantId: 't', taskId: task },
          async (trace) => {
            await sleep(task === 'a' ? 5 : 1);
            await tracing.span(`node-${task}`, {}, async () => {
              await sleep(3);
              expect(tracing.currentTraceId()).toBe(trace.traceId);
            });
            return trace.traceId;
          },
        ),
      ),
    );
    expect(ids[0]).not.toBe(ids[1]);

    const thrown = await tracing
      .startTrace(interactTraceName('c'), { tenantId: 't' }, () =>
        tracing.span('planning', {}, () => {
          throw new TypeError('plan exploded');
        }),
      )
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toBe('plan exploded');
    const failedTraceId = tracing.traceIdOf(thrown);
    expect(failedTraceId).toMatch(/^[0-9a-f]{32}$/);
    expect(tracing.traceIdOf(new Error('unrelated'))).toBeNull();

    await tracing.flush();
    await server.waitFor((s) => s.spans.length >= 6);
    for (const [i, task] of ['a', 'b'].entries()) {
      const spans = server.trace(ids[i] ?? '');
      const root = spans.find((s) => s.parentSpanId === null);
      expect(spans.map((s) => s.name).sort()).toEqual([`interact-request-${task}`, `node-${task}`]);
      expect(spans.find((s) => s.name === `node-${task}`)?.parentSpanId).toBe(root?.spanId);
    }
    const failed = server.spans.find((s) => s.name === 'planning');
    expect(failed?.attributes[A.OBSERVATION_LEVEL]).toBe('ERROR');
    expect(failed?.attributes[A.OBSERVATION_STATUS_MESSAGE]).toBe('TypeError: plan exploded');
    const failedRoot = server.spans.find((s) => s.name === 'interact-request-c');
    expect(failedRoot?.attributes[A.OBSERVATION_LEVEL]).toBe('ERROR');
    expect(failedRoot?.traceId).toBe(failedTraceId);
  });

  it('attaches a generation reported after its node finished to its trace by id', async () => {
    tracing = make(recordingLogger().log);
    let traceId = '';
    await tracing.startTrace('interact-request-late', { tenantId: 't' }, (trace) => {
      traceId = trace.traceId ?? '';
    });
    tracing.generation({
      name: 'callActionLLM',
      model: 'gemini-2.5-flash',
      usage: { input: 1, cachedInput: 0, output: 1, thinking: 0, total: 2 },
      cost: { input: 0, cachedInput: 0, output: 0, thinking: 0, total: 0 },
      startTime: new Date(),
      endTime: new Date(),
      traceId,
    });
    await tracing.flush();
    await server.waitFor((s) => s.spans.some((x) => x.name === 'callActionLLM'));
    expect(server.spans.find((s) => s.name === 'callActionLLM')?.traceId).toBe(traceId);
  });

  it('is a no-op with the same interface when keys are missing', async () => {
    const { log, lines } = recordingLogger();
    tracing = createTracing({ publicKey: 'pk-only', baseUrl: server.baseUrl, log });
    expect(tracing.enabled).toBe(false);
    expect(lines.map((l) => l.message)).toEqual([
      'LangFuse tracing disabled: set both LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY',
    ]);
    const value = await tracing.startTrace('t', { tenantId: 'x' }, (trace) => {
      expect(trace.traceId).toBeNull();
      return tracing.span('s', {}, () => 7);
    });
    expect(value).toBe(7);
    tracing.score({ name: 'verification_success', value: 1, traceId: 'f'.repeat(32) });
    await tracing.flush();
    await sleep(50);
    expect(server.requests).toEqual([]);
  });
});
