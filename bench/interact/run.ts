// bench/interact: the real interact route (auth, per-tenant rate limit, validation, agent,
// LangGraph with the libSQL checkpointer on a file) behind a node:http server on loopback,
// loaded by autocannon at concurrency 10. The LLM is the scripted provider with zero latency,
// so the figures are Tandem's own overhead per step. Next.js' router is not in the loop.
// Targets (2 cores): p50 ≤ 15 ms, p99 ≤ 60 ms, ≥ 150 req/s; SIMPLE decision ≤ 10 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createScriptedLlm, type ScriptedStep } from '@tandem/agent';
import type { SemanticNodeV3 } from '@tandem/contracts';
import { createRuntime, interactRoute, parseEnv } from '@tandem/server/in-process';
import { createLibsqlStore } from '@tandem/store';

const CONCURRENCY = 10;
const DURATION_S = 8;
const TASKS = 2_500; // more than a run can consume, so every request is a real continuation

const tree = (n: number): SemanticNodeV3[] => [
  { i: `next-${n}`, r: 'btn', n: 'Next' },
  { i: `logout-${n}`, r: 'link', n: 'Logout' },
  ...Array.from({ length: 30 }, (_, k) => ({ i: `l${n}-${k}`, r: 'link', n: `Item ${k}` })),
];

function steps(count: number): ScriptedStep[] {
  const out: ScriptedStep[] = [];
  for (let k = 0; k < count; k++) {
    out.push(
      {
        node: 'context_analysis',
        output: {
          source: 'PAGE',
          requiredSources: ['PAGE'],
          missingInformation: [],
          searchQuery: null,
          reasoning: 'page',
        },
      },
      {
        node: 'planning',
        output: {
          goal: 'page through',
          steps: Array.from({ length: 10 }, () => ({
            description: "Click 'Next'",
            refinable: true,
          })),
        },
      },
      {
        node: 'outcome_prediction',
        output: { description: 'next page', urlShouldChange: true, nextGoal: null },
      },
      {
        node: 'outcome_prediction',
        output: { description: 'next page', urlShouldChange: true, nextGoal: null },
      },
    );
  }
  return out;
}

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new Request(`http://127.0.0.1${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers: req.headers as Record<string, string>,
    body: chunks.length ? Buffer.concat(chunks) : undefined,
  });
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tandem-bench-interact-'));
  const store = await createLibsqlStore({ url: `file:${path.join(dir, 'tandem.db')}` });
  const llm = createScriptedLlm(steps(TASKS * 2 + 50), { zeroLatency: true });
  const env = parseEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dir,
    RATE_LIMIT_INTERACT_PER_MIN: '1000000',
  });
  const runtime = await createRuntime({ env, store, llm });
  const tenant = await store.tenants.create({ name: 'bench' });
  const { plaintextKey } = await store.apiKeys.create(tenant.id, {
    userId: 'bench',
    name: 'bench',
  });
  const handler = interactRoute.withRuntime(runtime);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void toRequest(req)
      .then((r) => handler(r))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agent/interact`;
  const headers = { authorization: `Bearer ${plaintextKey}`, 'content-type': 'application/json' };
  const post = async (body: unknown) => {
    const res = await fetch(base, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status !== 200)
      throw new Error(`setup request failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as { taskId: string; sessionId: string };
  };

  // SIMPLE decision: a new "click Logout" task, resolved deterministically (sequential timing).
  const simpleDecision: number[] = [];
  const simpleTasks: { taskId: string; sessionId: string }[] = [];
  for (let n = 0; n < TASKS; n++) {
    const t0 = performance.now();
    simpleTasks.push(
      await post({
        url: `https://app.example/${n}`,
        query: 'click Logout',
        interactiveTree: tree(n),
      }),
    );
    simpleDecision.push(performance.now() - t0);
  }
  const complexTasks: { taskId: string; sessionId: string }[] = [];
  for (let n = 0; n < TASKS; n++) {
    complexTasks.push(
      await post({
        url: `https://list.example/${n}`,
        query: 'page through the whole list',
        interactiveTree: tree(n),
      }),
    );
  }

  async function load(
    name: string,
    tasks: { taskId: string; sessionId: string }[],
    body: (n: number, t: { taskId: string; sessionId: string }) => unknown,
  ) {
    let next = 0;
    const result = await autocannon({
      url: base,
      method: 'POST',
      connections: CONCURRENCY,
      duration: DURATION_S,
      headers,
      requests: [
        {
          setupRequest: (req) => {
            const n = next++;
            const t = tasks[n % tasks.length];
            return {
              ...req,
              body: JSON.stringify(body(n, t as { taskId: string; sessionId: string })),
            };
          },
        },
      ],
    });
    if (next > tasks.length)
      console.warn(`  (${name}: ${next - tasks.length} requests reused a finished task)`);
    return {
      name,
      p50: result.latency.p50,
      p99: result.latency.p99,
      rps: result.requests.average,
      non2xx: result.non2xx,
      errors: result.errors,
      total: result.requests.total,
    };
  }

  const simple = await load(
    'SIMPLE continuation (tier-1 verify → finish)',
    simpleTasks,
    (n, t) => ({
      url: `https://app.example/login-${n}`,
      taskId: t.taskId,
      sessionId: t.sessionId,
      lastActionStatus: 'success',
      clientObservations: { didUrlChange: true },
      interactiveTree: [{ i: 'signin', r: 'btn', n: 'Sign in' }],
    }),
  );
  const complex = await load(
    'COMPLEX step (verify → advance → refine → predict)',
    complexTasks,
    (n, t) => ({
      url: `https://list.example/p2-${n}`,
      taskId: t.taskId,
      sessionId: t.sessionId,
      lastActionStatus: 'success',
      clientObservations: { didUrlChange: true },
      interactiveTree: tree(n + 100_000),
    }),
  );

  server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });

  const mark = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  console.log(
    '\nbench/interact — real route + agent + libSQL file, scripted zero-latency LLM, concurrency 10',
  );
  console.log(
    `  SIMPLE decision (new task, sequential): p50 ${pct(simpleDecision, 50).toFixed(2)} ms, p95 ${pct(simpleDecision, 95).toFixed(2)} ms  target ≤ 10 ms p50 → ${mark(pct(simpleDecision, 50) <= 10)}`,
  );
  for (const r of [simple, complex]) {
    console.log(`  ${r.name}`);
    console.log(
      `    p50 ${r.p50} ms (≤ 15 → ${mark(r.p50 <= 15)}), p99 ${r.p99} ms (≤ 60 → ${mark(r.p99 <= 60)}), ${r.rps.toFixed(0)} req/s (≥ 150 → ${mark(r.rps >= 150)}); ${r.total} requests, non-2xx ${r.non2xx}, errors ${r.errors}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
