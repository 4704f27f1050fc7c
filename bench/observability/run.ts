// Observability benchmark: what LangFuse tracing + usage recording add to one agent step.
// A simulated step is one trace with five node spans and two LLM calls reported through the
// usage service (priced, appended to a libSQL :memory: TokenUsageLog, recorded as LangFuse
// generations), exported by the real SDK to a local capture server. The same step with
// tracing and usage recording both disabled is the baseline; the difference is the overhead.
//
// Two figures per mode:
//  - request path: the step's own duration (usage writes are detached, as in production);
//  - with writes: the step plus draining its usage writes, i.e. the CPU it costs in total.
// Target: ≤ 3 ms added on the request path at p50. Always exits 0: benchmarks inform.
//
//   npm run bench:observability
import {
  createNoopTracing,
  createTracing,
  createUsageService,
  interactTraceName,
  type Tracing,
  type UsageEvent,
  type UsageService,
} from '@tandem/observability';
import type { LlmNode } from '@tandem/contracts';
import { createStore, type Store } from '@tandem/store';
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const WARMUP = 200;
const STEPS = 2_000;
const TARGET_P50_MS = 3;
/** Spans per export request (`npm run bench:observability -- 50`); the tracing default otherwise. */
const FLUSH_AT = Number(process.argv[2]) || undefined;

const NODES = [
  'complexity_check',
  'context_analysis',
  'planning',
  'action_generation',
  'outcome_prediction',
];
const LLM_NODES: ReadonlySet<string> = new Set<LlmNode>(['planning', 'action_generation']);
const isLlmNode = (node: string): node is LlmNode => LLM_NODES.has(node);

// A realistic action prompt: ~300 element lines of a rendered page plus instructions (~18 KB).
const PROMPT = [
  'Goal: add a new patient named Jas Smith, born 1990-02-01.',
  'Page elements (id role "name" [value]):',
  ...Array.from({ length: 300 }, (_, i) => `${i} button "Action ${i} for row ${i % 40}"`),
].join('\n');
const SYSTEM = 'You are a browser agent. Answer with exactly one action from the grammar.';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

interface Mode {
  label: string;
  tracing: Tracing;
  usage: UsageService | null;
}

let generation = 0;
function usageEvent(node: LlmNode, tenantId: string, taskId: string): UsageEvent {
  generation += 1;
  return {
    generationId: `bench-${generation}`,
    node,
    actionType: node === 'planning' ? 'PLANNING' : 'ACTION_GENERATION',
    provider: 'GOOGLE',
    model: 'gemini-2.5-flash',
    usage: {
      inputTokens: 4200,
      outputTokens: 120,
      cachedInputTokens: 1024,
      thinkingTokens: 300,
      totalTokens: 4620,
    },
    latencyMs: 900,
    context: { tenantId, userId: 'bench-user', sessionId: 'bench-session', taskId },
    startedAt: new Date(Date.now() - 900).toISOString(),
    input: { system: SYSTEM, prompt: PROMPT },
    output: { thought: 'The form is open; fill the first name.', action: 'setValue(12, "Jas")' },
  };
}

/** One agent step. The node bodies do the same work in every mode; only observability differs. */
async function step(mode: Mode, tenantId: string, i: number): Promise<void> {
  const taskId = `task-${i}`;
  await mode.tracing.startTrace(
    interactTraceName(taskId),
    {
      tenantId,
      userId: 'bench-user',
      sessionId: 'bench-session',
      taskId,
      tags: ['bench'],
      input: { query: 'add patient Jas Smith', url: 'https://emr.test/patients' },
    },
    async (trace) => {
      for (const node of NODES) {
        await mode.tracing.span(
          node,
          { input: { query: 'add patient Jas Smith', stepIndex: i } },
          async (span) => {
            // Stand-in for the node's own work: the prompt is built either way.
            const built = `${SYSTEM}\n${PROMPT}`.length;
            if (isLlmNode(node)) {
              // What the LLM port does after a call: hand the event to the hook, detached.
              const event = usageEvent(node, tenantId, taskId);
              if (mode.usage) await mode.usage.recordUsage(event);
            }
            span.update({ output: { ok: true, built } });
          },
        );
      }
      trace.setOutput({ action: 'setValue(12, "Jas")' });
    },
  );
}

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
  Number.NaN;

interface Samples {
  requestPath: number[];
  withWrites: number[];
}

async function measure(mode: Mode, tenantId: string): Promise<Samples> {
  const requestPath: number[] = [];
  const withWrites: number[] = [];
  for (let i = 0; i < WARMUP + STEPS; i++) {
    const start = performance.now();
    await step(mode, tenantId, i);
    const stepDone = performance.now();
    await mode.usage?.drain();
    const drained = performance.now();
    if (i >= WARMUP) {
      requestPath.push(stepDone - start);
      withWrites.push(drained - start);
    }
    // Steps arrive as HTTP requests, so the event loop turns between them; without this the
    // loop would run on microtasks alone and starve the exporter's sockets and timers.
    await new Promise((resolve) => setImmediate(resolve));
  }
  requestPath.sort((a, b) => a - b);
  withWrites.sort((a, b) => a - b);
  return { requestPath, withWrites };
}

/** Starts capture-process.ts (LangFuse's stand-in) and resolves with its base URL. */
async function startCapture(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = fork(path.join(import.meta.dirname, 'capture-process.ts'), [], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { baseUrl: string }).baseUrl));
    child.once('exit', (code) => reject(new Error(`capture process exited (${code})`)));
  });
  return { child, baseUrl };
}

const spansReceived = (child: ChildProcess): Promise<number> =>
  new Promise((resolve) => {
    child.once('message', (m) => resolve((m as { spans: number }).spans));
    child.send('count');
  });

async function main(): Promise<void> {
  const capture = await startCapture();
  const store: Store = await createStore({ libsqlUrl: ':memory:' });
  const tenantId = (await store.tenants.create({ name: 'bench-observability' })).id;
  const tracing = createTracing({
    publicKey: 'pk-lf-bench',
    secretKey: 'sk-lf-bench',
    baseUrl: capture.baseUrl,
    environment: 'bench',
    log: silent,
    ...(FLUSH_AT ? { flushAt: FLUSH_AT } : {}),
  });
  const enabled: Mode = {
    label: 'tracing + usage',
    tracing,
    usage: createUsageService({ store, tracing, log: silent }),
  };
  const disabled: Mode = { label: 'both disabled', tracing: createNoopTracing(), usage: null };
  try {
    // Interleave the modes in blocks so machine noise (GC, other processes) hits both alike.
    const base: Samples = { requestPath: [], withWrites: [] };
    const traced: Samples = { requestPath: [], withWrites: [] };
    for (let round = 0; round < 2; round++) {
      for (const [mode, into] of [
        [disabled, base],
        [enabled, traced],
      ] as const) {
        const s = await measure(mode, tenantId);
        into.requestPath.push(...s.requestPath);
        into.withWrites.push(...s.withWrites);
      }
    }
    for (const s of [base, traced]) {
      s.requestPath.sort((a, b) => a - b);
      s.withWrites.sort((a, b) => a - b);
    }
    await tracing.flush();
    const rows = await store.tokenUsage.list(tenantId, { limit: 100_000 });
    const spans = await spansReceived(capture.child);

    const fmt = (n: number) => n.toFixed(3);
    const added = (p: number, key: keyof Samples) => pct(traced[key], p) - pct(base[key], p);
    console.log(
      `Observability benchmark: ${(STEPS * 2).toLocaleString('en-US')} steps per mode ` +
        `(1 trace, ${NODES.length} node spans, ${LLM_NODES.size} generations + usage log rows each)`,
    );
    console.log('mode                 request p50  p95     with writes p50  p95');
    for (const [label, s] of [
      ['both disabled', base],
      ['tracing + usage', traced],
    ] as const) {
      console.log(
        `${label.padEnd(20)} ${fmt(pct(s.requestPath, 50)).padStart(8)}  ${fmt(pct(s.requestPath, 95)).padStart(6)}` +
          `  ${fmt(pct(s.withWrites, 50)).padStart(14)}  ${fmt(pct(s.withWrites, 95)).padStart(6)}`,
      );
    }
    const p50 = added(50, 'requestPath');
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `added per step: request path p50 ${fmt(p50)} ms, p95 ${fmt(added(95, 'requestPath'))} ms; ` +
        `with writes p50 ${fmt(added(50, 'withWrites'))} ms, p95 ${fmt(added(95, 'withWrites'))} ms; ` +
        `mean ${fmt(mean(traced.withWrites) - mean(base.withWrites))} ms`,
    );
    console.log(
      `target: <= ${TARGET_P50_MS} ms added at p50 on the request path: ${p50 <= TARGET_P50_MS ? 'PASS' : 'MISS'}`,
    );
    const stepsTraced = 2 * (WARMUP + STEPS);
    console.log(
      `delivered: ${rows.length.toLocaleString('en-US')} of ${(stepsTraced * LLM_NODES.size).toLocaleString('en-US')} usage rows, ` +
        `${spans.toLocaleString('en-US')} of ` +
        `${(stepsTraced * (1 + NODES.length + LLM_NODES.size)).toLocaleString('en-US')} spans at the capture server`,
    );
  } finally {
    await tracing.shutdown();
    await store.close();
    capture.child.send('stop');
  }
}

main().catch((error: unknown) => {
  // Report, never fail: a broken run still exits 0 so CI is not gated on a benchmark.
  console.error('observability benchmark failed:', error);
});
