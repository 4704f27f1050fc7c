// Tracing and usage (docs/specs.md, "LangFuse and Sentry" and "usage dual-write") through a
// scripted interact run: the real LangFuse SDK exports to a local capture server (the only fake:
// LangFuse itself) and the usage log is the real libSQL store. One trace per request, a span per
// node, a priced generation per LLM call
// under its node, and the verification scores.
import type { SemanticNodeV3 } from '@tandem/contracts';
import { createTracing, type Tracing } from '@tandem/observability';
import {
  startLangfuseCaptureServer,
  type CapturedSpan,
  type LangfuseCaptureServer,
} from '@tandem/observability/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAgent, pageContextStep, pageRequest } from '../testing/harness';

// The attribute names the LangFuse OTel SDK writes (what LangFuse reads back).
const TRACE_NAME = 'langfuse.trace.name';
const TYPE = 'langfuse.observation.type';
const MODEL = 'langfuse.observation.model.name';
const USAGE = 'langfuse.observation.usage_details';
const COST = 'langfuse.observation.cost_details';

const log = { debug() {}, info() {}, warn() {}, error() {} };

let server: LangfuseCaptureServer;
let tracing: Tracing;
beforeAll(async () => {
  server = await startLangfuseCaptureServer();
  tracing = createTracing({
    publicKey: 'pk-test',
    secretKey: 'sk-test',
    baseUrl: server.baseUrl,
    log,
    timeoutMs: 2_000,
    flushIntervalMs: 50,
  });
});
afterAll(async () => {
  await tracing.shutdown();
  await server.close();
});

const save: SemanticNodeV3 = { i: '2', r: 'btn', n: 'Save' };
const form: SemanticNodeV3[] = [{ i: '1', r: 'inp', n: 'First name', v: '' }, save];

describe('tracing an interact run', () => {
  it('sends one trace per request with node spans, priced generations and scores', async () => {
    const agent = await createTestAgent({
      tracing,
      steps: [
        pageContextStep('the form is here'),
        {
          node: 'planning',
          output: {
            goal: 'add patient',
            steps: [
              { description: "Type 'Jas' into First name", refinable: true },
              { description: 'Click Save', refinable: true },
            ],
          },
        },
        // Both steps are refined from the plan, their outcomes the plan's: no other call.
      ],
    });
    const first = await agent.act(
      pageRequest('https://emr.example/new', form, { query: "Add a new patient named 'Jas'" }),
    );
    const second = await agent.act(
      pageRequest(
        'https://emr.example/new',
        [{ i: '1', r: 'inp', n: 'First name', v: 'Jas' }, save],
        {
          taskId: first.taskId,
          sessionId: first.sessionId,
          lastActionStatus: 'success',
        },
      ),
    );
    expect(second.action).toBe('click("2")');
    await agent.usage.drain();
    await tracing.flush();
    await server.waitFor((s) =>
      s.spans.some((span) => span.name === 'verification' && span.endTimeMs > 0),
    );

    const roots = server.spans.filter(
      (s) =>
        s.parentSpanId === null && s.attributes[TRACE_NAME] === `interact-request-${first.taskId}`,
    );
    expect(roots).toHaveLength(2); // one trace per request, both named after the task
    const [newTask, continuation] = roots.map((root) => server.trace(root.traceId));
    const names = (spans: CapturedSpan[] | undefined) => (spans ?? []).map((s) => s.name);
    expect(names(newTask)).toEqual(
      expect.arrayContaining([
        'complexity_check',
        'context_analysis',
        'planning',
        'step_refinement',
        'outcome_prediction',
      ]),
    );
    expect(names(continuation)).toEqual(
      expect.arrayContaining(['verification', 'advance', 'step_refinement']),
    );
    // A run pauses before dispatch, and dispatch (taking the next request's page in) has no span.
    expect(names(newTask)).not.toContain('dispatch');

    // The planning generation sits under the planning span, with usage and a priced cost.
    const planningSpan = newTask?.find((s) => s.name === 'planning');
    const generation = newTask?.find(
      (s) => s.attributes[TYPE] === 'generation' && s.parentSpanId === planningSpan?.spanId,
    );
    if (!generation) throw new Error('no planning generation under the planning span');
    expect(generation.attributes[MODEL]).toBe('scripted');
    const usage = server.json(generation, USAGE) as Record<string, number>;
    expect(usage.input).toBeGreaterThan(0);
    expect(usage.output).toBeGreaterThan(0);
    const cost = server.json(generation, COST) as Record<string, number>;
    expect(cost.total).toBeGreaterThan(0);

    // The usage log holds the same calls, priced, each pointing at its request's trace.
    const logs = await agent.store.tokenUsage.list(agent.caller.tenantId, {
      taskId: first.taskId,
    });
    const newTraceId = newTask?.[0]?.traceId;
    const continuationTraceId = continuation?.[0]?.traceId;
    expect(logs.map((l) => [l.actionType, l.traceId])).toEqual([
      ['CONTEXT_ANALYSIS', newTraceId],
      ['PLANNING', newTraceId],
    ]);
    expect(logs.every((l) => l.costMicroUsd > 0)).toBe(true);

    // Tier-1 verification of the first step: success 1 with its confidence, on the second trace.
    await server.waitFor((s) => s.scores.length >= 2);
    const scores = server.scores.filter((s) => s.traceId === continuationTraceId);
    expect(scores.find((s) => s.name === 'verification_success')?.value).toBe(1);
    expect(scores.find((s) => s.name === 'verification_confidence')?.value).toBeGreaterThan(0.7);
  });
});
