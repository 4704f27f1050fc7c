// bench/interact: the interact route under load. The server (server.ts) runs in its own
// process with the scripted zero-latency model, so the figures are Tandem's own overhead per
// step; this process creates the tasks and drives autocannon against it on loopback.
//
// Targets (2 cores): p50 ≤ 15 ms, p99 ≤ 60 ms, ≥ 150 req/s at concurrency 10; SIMPLE decision
// ≤ 10 ms. Latency is also measured at concurrency 1: one Node process serves requests one CPU
// slice at a time, so at concurrency 10 a request waits behind the other nine (Little's law:
// p50 ≈ 10 / throughput), and both latency targets at concurrency 10 would need ~700 req/s.
//
// `--workers N` runs N server processes sharing the port and the database file (one Node
// process per core, as deployed); the default is one.
//
//   npm run bench:interact -- [--workers 2]
import { fork } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { argument } from '../page/browser';
import { measureFrameworkFloor } from './framework-floor';
import { tree, type BenchServerReady } from './workload';

const DURATION_S = 8;
const SEQUENTIAL_DURATION_S = 4;
const WORKERS = argument('--workers', 1);
// More than the runs can consume, so every request is a real continuation: a task continued
// twice answers 409 at once and would flatter the figures. One process on 2 cores finishes
// ~3,300 SIMPLE continuations in the 12 s of runs on a fast machine; each worker adds as many.
const TASKS = 4_000 * WORKERS;

type TaskRef = { taskId: string; sessionId: string };

async function startServer(): Promise<{ ready: BenchServerReady; stop: () => void }> {
  const child = fork(
    path.join(import.meta.dirname, 'server.ts'),
    [String(TASKS), String(WORKERS)],
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ready = await new Promise<BenchServerReady>((resolve, reject) => {
    child.once('message', (message) => resolve(message as BenchServerReady));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { ready, stop: () => child.disconnect() };
}

async function main() {
  const { ready, stop } = await startServer();
  const headers = { authorization: `Bearer ${ready.apiKey}`, 'content-type': 'application/json' };
  const post = async (body: unknown) => {
    const res = await fetch(ready.url, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status !== 200)
      throw new Error(`setup request failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as TaskRef;
  };

  // SIMPLE decision: new "click Logout" tasks, resolved deterministically, one at a time
  // through autocannon like the other figures (its lean client adds little to the latency).
  console.log(`creating ${TASKS} SIMPLE and ${TASKS} COMPLEX tasks…`);
  const simpleTasks: TaskRef[] = [];
  let created = 0;
  const decision = await autocannon({
    url: ready.url,
    method: 'POST',
    connections: 1,
    amount: TASKS,
    headers,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({
            url: `https://app.example/${created}`,
            query: 'click Logout',
            interactiveTree: tree(created++),
          }),
        }),
        onResponse: (status, body) => {
          if (status === 200) simpleTasks.push(JSON.parse(body) as TaskRef);
        },
      },
    ],
  });
  if (simpleTasks.length !== TASKS)
    throw new Error(`only ${simpleTasks.length} of ${TASKS} SIMPLE tasks were created`);
  const complexTasks: TaskRef[] = [];
  for (let n = 0; n < TASKS; n++) {
    complexTasks.push(
      await post({
        url: `https://list.example/${n}`,
        query: 'page through the whole list',
        interactiveTree: tree(n),
      }),
    );
  }

  // Each scenario hands out its tasks in order across its runs: a task is continued once.
  function scenario(tasks: TaskRef[], body: (n: number, t: TaskRef) => unknown) {
    let next = 0;
    return async (connections: number, duration: number) => {
      const start = next;
      const result = await autocannon({
        url: ready.url,
        method: 'POST',
        connections,
        duration,
        headers,
        requests: [
          {
            setupRequest: (req) => {
              const n = next++;
              return { ...req, body: JSON.stringify(body(n, tasks[n % tasks.length] as TaskRef)) };
            },
          },
        ],
      });
      if (next > tasks.length) console.warn(`  (${next - tasks.length} requests reused a task)`);
      return {
        p50: result.latency.p50,
        p99: result.latency.p99,
        rps: result.requests.average,
        non2xx: result.non2xx,
        errors: result.errors,
        total: next - start,
      };
    };
  }

  const simple = scenario(simpleTasks, (n, t) => ({
    url: `https://app.example/login-${n}`,
    taskId: t.taskId,
    sessionId: t.sessionId,
    lastActionStatus: 'success',
    clientObservations: { didUrlChange: true },
    interactiveTree: [{ i: 'signin', r: 'btn', n: 'Sign in' }],
  }));
  const complex = scenario(complexTasks, (n, t) => ({
    url: `https://list.example/p2-${n}`,
    taskId: t.taskId,
    sessionId: t.sessionId,
    lastActionStatus: 'success',
    clientObservations: { didUrlChange: true },
    interactiveTree: tree(n + 100_000),
  }));

  const runs = [
    { name: 'SIMPLE continuation (tier-1 verify → finish)', run: simple },
    { name: 'COMPLEX step (verify → advance → refine → predict)', run: complex },
  ];
  const results = [];
  for (const { name, run } of runs) {
    const sequential = await run(1, SEQUENTIAL_DURATION_S);
    const loaded = await run(10, DURATION_S);
    results.push({ name, sequential, loaded });
  }
  stop();

  const mark = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  console.log(
    `\nbench/interact — ${WORKERS === 1 ? 'one server process' : `${WORKERS} server processes sharing one database file`}: real route + agent + libSQL file, scripted zero-latency LLM`,
  );
  const p50 = decision.latency.p50;
  console.log(
    `  SIMPLE decision (new task, concurrency 1): p50 ${p50} ms, p99 ${decision.latency.p99} ms, ${decision.requests.average.toFixed(0)} req/s  target ≤ 10 ms p50 → ${mark(p50 <= 10)}`,
  );
  for (const { name, sequential: s, loaded: l } of results) {
    console.log(`  ${name}`);
    console.log(
      `    concurrency 1:  p50 ${s.p50} ms (≤ 15 → ${mark(s.p50 <= 15)}), p99 ${s.p99} ms (≤ 60 → ${mark(s.p99 <= 60)}), ${s.rps.toFixed(0)} req/s; ${s.total} requests, non-2xx ${s.non2xx}, errors ${s.errors}`,
    );
    console.log(
      `    concurrency 10: p50 ${l.p50} ms (≤ 15 → ${mark(l.p50 <= 15)}), p99 ${l.p99} ms (≤ 60 → ${mark(l.p99 <= 60)}), ${l.rps.toFixed(0)} req/s (≥ 150 → ${mark(l.rps >= 150)}); ${l.total} requests, non-2xx ${l.non2xx}, errors ${l.errors}`,
    );
  }
  const floor = await measureFrameworkFloor();
  console.log(
    `  framework floor (LangGraph alone: InteractState, no-op nodes, in-memory checkpointer, same supersteps): SIMPLE decision ${floor.simpleDecisionMs.toFixed(2)} ms, COMPLEX step ${floor.complexStepMs.toFixed(2)} ms`,
  );
  // Why the concurrency-10 latencies cannot meet the per-step targets: ten requests always in
  // flight wait for each other, so mean latency = 10 / throughput (Little's law).
  const needed = 10 / (15 / 1000);
  const floorRate = (1000 / floor.complexStepMs) * WORKERS;
  console.log(
    `  at concurrency 10 latency is queueing (Little's law: mean ≈ 10 / req/s): p50 ≤ 15 ms there needs ≥ ${needed.toFixed(0)} req/s; LangGraph alone, doing nothing, peaks at ~${floorRate.toFixed(0)} req/s for a COMPLEX step on ${WORKERS === 1 ? 'one process' : `${WORKERS} processes`}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
