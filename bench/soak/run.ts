// bench/soak: the real server (`next start`, production build, embedded libSQL, default limits)
// under a steady open-loop load of mixed SIMPLE and scripted COMPLEX agent steps on loopback,
// then left idle to see whether its memory comes back.
//
// Targets: 200 req/s for 60 s with 0 errors, p99 ≤ 100 ms, every task persisted (the task and
// one recorded action per answered step, read back from the store), and the server's RSS a
// minute after the load within 20 % of its RSS before it (after a warm-up that loads the routes).
//
// The default rate limit (RATE_LIMIT_INTERACT_PER_MIN, 300 per tenant) is not raised: the load
// is spread over tenants, each with its own key, sending what one busy user does (4 req/s at
// the defaults below), as many users would.
//
//   npm run bench:soak -- [--rate 200] [--seconds 60] [--tenants 50] [--settle 60] [--heap]
//                   [--processes 1,2] [--redis]
//
// `--processes 1,2` soaks one web process, then two on one store behind a round-robin client
// (as a load balancer without affinity), in one run, and prints them side by side. `--redis`
// runs them on a redis-server of the bench's own (REDIS_URL) with a worker process beside them.
//
// `--heap` also writes V8 heap snapshots of the server (SIGUSR2) before the load and after the
// idle minute, and prints what grew between them, by constructor (heap.ts).
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createStore } from '@tandem/store';
import { argument } from '../page/browser';
import { serverEnv } from '../tasks/env';
import { redisServerInstalled, redisServerMissing, startRedisServer } from '@tandem/jobs/testing';
import type { WorkerProcess } from '@tandem/server/worker-process';
import { SERVER_DIR, startServer, startWorker, type TandemServer } from '../tasks/harness/server';
import { compareSnapshots, takeSnapshot } from './heap';
import { nextBody, REQUESTS_PER_TASK, type TaskKind, type TaskRun } from './workload';
import { forkModel, type ModelProcess } from '../model-process';

const RATE = argument('--rate', 200);
const SECONDS = argument('--seconds', 60);
const TENANTS = argument('--tenants', 50);
const SETTLE_S = argument('--settle', 60);
const HEAP = process.argv.includes('--heap');
/** `--processes 1,2`: soak one web process, then two on the same store, in one run. */
const PROCESSES = processCounts(process.argv);
/** `--redis`: jobs and live events on a redis-server of the bench's own, plus a worker process. */
const REDIS = process.argv.includes('--redis');
/** `--cpu-prof`: the server writes a V8 CPU profile (.cpuprofile) into apps/server when it exits. */
const CPU_PROFILE = process.argv.includes('--cpu-prof');
const DEFAULT_INTERACT_LIMIT_PER_MIN = 300;

/**
 * The web-process counts to soak, one phase each: `--processes 1,2`, else one process. (Read
 * with indexOf alone, an absent flag read argv[0], the node binary, and soaked nothing.)
 */
function processCounts(argv: string[]): number[] {
  const at = argv.indexOf('--processes');
  if (at === -1) return [1];
  const counts = (argv[at + 1] ?? '').split(',').map(Number);
  if (counts.length === 0 || !counts.every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error(`--processes takes counts such as 1 or 1,2; got "${argv[at + 1] ?? ''}".`);
  }
  return counts;
}
const WARMUP = { rate: 20, seconds: 10 };

interface Sample {
  latencyMs: number;
  kind: TaskKind;
  status: number;
  error?: string;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** CPU seconds the process used so far (user + system; Linux counts in 1/100 s ticks). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN);

/** Tenants with one key each, created in the server's store as the CLI would. */
async function createTenants(
  dataDir: string,
  count: number,
): Promise<{ tenantId: string; key: string }[]> {
  const store = await createStore({ dataDir });
  try {
    const out = [];
    for (let n = 0; n < count; n++) {
      const tenant = await store.tenants.create({ name: `soak-${n}` });
      const { plaintextKey } = await store.apiKeys.create(tenant.id, {
        userId: `user-${n}`,
        name: 'soak',
      });
      out.push({ tenantId: tenant.id, key: plaintextKey });
    }
    return out;
  } finally {
    await store.close();
  }
}

/** A failed fetch's cause (ECONNRESET, a connect timeout…), not just "fetch failed". */
function failureOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause ? `${String(error)}: ${cause.code ?? cause.message ?? ''}` : String(error);
}

interface Phase {
  samples: Sample[];
  tasks: TaskRun[];
  /** How far behind schedule the last request left (open loop: 0 when the generator keeps up). */
  maxLagMs: number;
}

/**
 * Open loop: request i is due at start + i / rate, whatever the answers before it did. Tenants
 * take turns, so each sends rate / tenants per second; a tenant's turn continues one of its
 * tasks whose previous step was answered, or starts a new one (SIMPLE, SIMPLE, COMPLEX…).
 * With several server processes, each round of turns goes to the next one.
 */
async function drive(
  urls: string[],
  keys: string[],
  rate: number,
  seconds: number,
  onSecond?: (second: number) => void,
): Promise<Phase> {
  const samples: Sample[] = [];
  const tasks: TaskRun[] = [];
  const ready: TaskRun[][] = keys.map(() => []);
  const started = keys.map(() => 0);
  const inFlight = new Set<Promise<void>>();
  const total = Math.round(rate * seconds);
  const begin = performance.now();
  let maxLagMs = 0;
  let second = 0;

  const send = async (task: TaskRun, url: string): Promise<void> => {
    const sent = performance.now();
    try {
      const res = await fetch(`${url}/api/agent/interact`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${keys[task.tenant]}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(nextBody(task)),
      });
      const text = await res.text();
      const latencyMs = performance.now() - sent;
      if (res.status !== 200) {
        samples.push({ latencyMs, kind: task.kind, status: res.status, error: text.slice(0, 200) });
        return;
      }
      const body = JSON.parse(text) as { taskId: string; sessionId: string; status: string };
      samples.push({ latencyMs, kind: task.kind, status: 200 });
      task.taskId = body.taskId;
      task.sessionId = body.sessionId;
      task.answered += 1;
      if (
        task.answered < REQUESTS_PER_TASK[task.kind] &&
        body.status !== 'completed' &&
        body.status !== 'failed'
      )
        ready[task.tenant]?.push(task);
    } catch (error) {
      samples.push({
        latencyMs: performance.now() - sent,
        kind: task.kind,
        status: 0,
        error: failureOf(error),
      });
    }
  };

  for (let i = 0; i < total; i++) {
    const due = begin + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    else maxLagMs = Math.max(maxLagMs, -wait);
    const now = Math.floor((performance.now() - begin) / 1000);
    if (now > second) onSecond?.((second = now));
    const tenant = i % keys.length;
    let task = ready[tenant]?.shift();
    if (!task) {
      const n = started[tenant] ?? 0;
      started[tenant] = n + 1;
      const kind: TaskKind = n % 3 === 2 ? 'COMPLEX' : 'SIMPLE';
      task = { kind, name: `${Date.now().toString(36)}-${tenant}-${n}`, tenant, answered: 0 };
      tasks.push(task);
    }
    // Round robin over the processes, as a load balancer without affinity: each tenant's turns
    // (and so a task's steps) go to one process, then the next.
    const url = urls[Math.floor(i / keys.length) % urls.length] ?? urls[0] ?? '';
    const request = send(task, url).finally(() => inFlight.delete(request));
    inFlight.add(request);
  }
  await Promise.all(inFlight);
  return { samples, tasks, maxLagMs };
}

/** Every task the soak saw answered is in the store with one action per answered step. */
async function checkPersisted(
  dataDir: string,
  tenants: { tenantId: string }[],
  tasks: TaskRun[],
): Promise<{ checked: number; missing: string[] }> {
  const store = await createStore({ dataDir });
  const missing: string[] = [];
  let checked = 0;
  try {
    for (const task of tasks) {
      if (!task.taskId) continue;
      checked += 1;
      const tenantId = tenants[task.tenant]?.tenantId ?? '';
      const record = await store.tasks.get(tenantId, task.taskId);
      const actions = await store.taskActions.listByTask(tenantId, task.taskId);
      if (!record || actions.length !== task.answered)
        missing.push(
          `${task.taskId} (${task.kind}): ${record ? `${actions.length} actions for ${task.answered} steps` : 'no task'}`,
        );
    }
  } finally {
    await store.close();
  }
  return { checked, missing };
}

function report(phase: Phase, seconds: number) {
  const ok = phase.samples.filter((s) => s.status === 200);
  const errors = phase.samples.filter((s) => s.status !== 200);
  const sorted = ok.map((s) => s.latencyMs).sort((a, b) => a - b);
  const byKind = (kind: TaskKind) => {
    const l = ok
      .filter((s) => s.kind === kind)
      .map((s) => s.latencyMs)
      .sort((a, b) => a - b);
    return { n: l.length, p50: percentile(l, 50), p99: percentile(l, 99) };
  };
  return {
    requests: phase.samples.length,
    rate: phase.samples.length / seconds,
    errors,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    simple: byKind('SIMPLE'),
    complex: byKind('COMPLEX'),
  };
}

interface Outcome {
  label: string;
  errors: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
  corePercent: number;
  persisted: string;
  rss: string;
}

/** One soak: `processes` web servers (and a worker on Redis) on one store, fresh tenants. */
async function soak(
  processes: number,
  model: ModelProcess,
  redisUrl: string | null,
): Promise<Outcome> {
  const env = (own: Record<string, string>) => {
    // The defaults a user gets: the harness' quieter log level is not one of them.
    const { LOG_LEVEL: _quiet, ...rest } = own;
    return serverEnv(
      {
        GEMINI_API_KEY: 'soak-scripted-model',
        GEMINI_BASE_URL: model.url,
        ...(HEAP ? { NODE_OPTIONS: '--heapsnapshot-signal=SIGUSR2' } : {}),
        // On Redis the web processes leave jobs to the worker, as deployed.
        ...(redisUrl ? { REDIS_URL: redisUrl, RUN_JOBS: 'false' } : {}),
      },
      rest,
    );
  };
  const label = `${processes} web process${processes > 1 ? 'es' : ''}${redisUrl ? ' + worker, Redis' : ', embedded'}`;
  const servers: TandemServer[] = [];
  let worker: WorkerProcess | null = null;
  try {
    const nodeArgs = CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${SERVER_DIR}`] : [];
    const first = await startServer(env, nodeArgs);
    servers.push(first);
    for (let n = 1; n < processes; n++) servers.push(await startServer(env, nodeArgs, first));
    if (redisUrl) worker = await startWorker(env, first);
    const pids = [...servers.map((s) => s.pid), ...(worker ? [worker.pid] : [])];
    const totalRss = () => servers.reduce((sum, s) => sum + rssMb(s.pid), 0);
    const cpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    const { dataDir } = first;
    const freshRss = totalRss();
    const tenants = await createTenants(dataDir, TENANTS);
    console.log(
      `bench/soak (${label}): server pids ${servers.map((s) => s.pid).join(', ')}, ${TENANTS} tenants (${((RATE / TENANTS) * 60).toFixed(0)} req/min each; default limit ${DEFAULT_INTERACT_LIMIT_PER_MIN})`,
    );

    // Warm-up of every process on the dev tenant: every route module and the graph get loaded.
    for (const server of servers)
      await drive([server.url], [first.apiKey], WARMUP.rate, WARMUP.seconds);
    await sleep(5_000);
    const baselineRss = totalRss();
    const before = HEAP ? await takeSnapshot(first.pid, SERVER_DIR, 'before') : null;
    console.log(
      `  RSS (web processes): ${freshRss.toFixed(0)} MB fresh, ${baselineRss.toFixed(0)} MB after a ${WARMUP.seconds} s warm-up (the baseline)`,
    );

    const rss: number[] = [];
    const cpuBefore = cpu();
    const loadStarted = performance.now();
    const phase = await drive(
      servers.map((s) => s.url),
      tenants.map((t) => t.key),
      RATE,
      SECONDS,
      () => rss.push(totalRss()),
    );
    const peakRss = Math.max(...rss, totalRss());
    const busySeconds = cpu() - cpuBefore;
    const servedSeconds = (performance.now() - loadStarted) / 1000;
    const settle: number[] = [];
    for (let s = 0; s < SETTLE_S; s += 5) {
      await sleep(5_000);
      settle.push(totalRss());
    }
    const afterRss = settle.at(-1) ?? totalRss();
    const after = HEAP ? await takeSnapshot(first.pid, SERVER_DIR, 'after') : null;
    const { calls } = await model.ask<{ calls: Record<string, number> }>('calls');
    // Read back while the servers still run (closing the first deletes the data dir).
    const persisted = await checkPersisted(dataDir, tenants, phase.tasks).catch(
      (error: unknown) => ({
        checked: 0,
        missing: [`store could not be read: ${String(error)}`],
      }),
    );
    const r = report(phase, SECONDS);
    const mark = (ok: boolean) => (ok ? 'PASS' : 'MISS');
    const ratio = afterRss / baselineRss;
    console.log(
      `  load: ${r.requests} requests in ${SECONDS} s (${r.rate.toFixed(1)} req/s; generator lag at most ${phase.maxLagMs.toFixed(0)} ms), ${phase.tasks.length} tasks`,
    );
    console.log(`  errors: ${r.errors.length}  target 0 → ${mark(r.errors.length === 0)}`);
    for (const e of r.errors.slice(0, 5)) console.log(`    ${e.status} ${e.error ?? ''}`);
    console.log(
      `  latency: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms  target p99 ≤ 100 ms → ${mark(r.p99 <= 100)}`,
    );
    console.log(
      `    SIMPLE ${r.simple.n} steps: p50 ${r.simple.p50.toFixed(1)} ms, p99 ${r.simple.p99.toFixed(1)} ms; COMPLEX ${r.complex.n} steps: p50 ${r.complex.p50.toFixed(1)} ms, p99 ${r.complex.p99.toFixed(1)} ms`,
    );
    const answered = r.requests - r.errors.length;
    const cpuMsPerRequest = (busySeconds * 1000) / Math.max(1, answered);
    const corePercent = (busySeconds / servedSeconds) * 100;
    console.log(
      `  server CPU (all its processes): ${busySeconds.toFixed(1)} s over the ${servedSeconds.toFixed(0)} s it took to answer (${corePercent.toFixed(0)} % of one core; machine load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores), ${cpuMsPerRequest.toFixed(1)} ms per answered request`,
    );
    console.log(
      `  model calls: ${Object.entries(calls)
        .map(([node, n]) => `${node} ${n}`)
        .join(', ')}`,
    );
    const persistedOk = persisted.missing.length === 0 && persisted.checked > 0;
    console.log(
      `  persisted: ${persisted.checked - persisted.missing.length} of ${persisted.checked} tasks with every step  → ${mark(persistedOk)}`,
    );
    for (const m of persisted.missing.slice(0, 5)) console.log(`    ${m}`);
    console.log(
      `  RSS: baseline ${baselineRss.toFixed(0)} MB, peak ${peakRss.toFixed(0)} MB, ${SETTLE_S} s after the load ${afterRss.toFixed(0)} MB (${(ratio * 100).toFixed(0)} % of baseline)  target ≤ 120 % → ${mark(ratio <= 1.2)}`,
    );
    console.log(`    idle minute, every 5 s: ${settle.map((m) => m.toFixed(0)).join(' ')} MB`);
    if (before && after) compareSnapshots(before, after);
    return {
      label,
      errors: r.errors.length,
      p50: r.p50,
      p99: r.p99,
      cpuMsPerRequest,
      corePercent,
      persisted: `${persisted.checked - persisted.missing.length}/${persisted.checked}`,
      rss: `${baselineRss.toFixed(0)} → ${afterRss.toFixed(0)} MB`,
    };
  } finally {
    await worker?.stop().catch(() => undefined);
    // Sharers first: the first server's close deletes the data dir.
    for (const server of servers.reverse()) await server.close().catch(() => undefined);
  }
}

async function main() {
  const perTenantPerMin = (RATE / TENANTS) * 60;
  if (perTenantPerMin > DEFAULT_INTERACT_LIMIT_PER_MIN) {
    throw new Error(
      `${RATE} req/s over ${TENANTS} tenants is ${perTenantPerMin}/min per tenant, above the default limit of ${DEFAULT_INTERACT_LIMIT_PER_MIN}: use more tenants.`,
    );
  }
  if (REDIS && !redisServerInstalled()) throw new Error(redisServerMissing('bench:soak --redis'));
  const model = await forkModel(path.join(import.meta.dirname, 'model.ts'));
  const redis = REDIS ? await startRedisServer() : null;
  const outcomes: Outcome[] = [];
  try {
    for (const processes of PROCESSES) {
      outcomes.push(await soak(processes, model, redis?.url ?? null));
    }
    if (outcomes.length > 1) {
      console.log(`\nsame run, ${RATE} req/s for ${SECONDS} s:`);
      for (const o of outcomes)
        console.log(
          `  ${o.label}: errors ${o.errors}, p50 ${o.p50.toFixed(1)} ms, p99 ${o.p99.toFixed(1)} ms, ` +
            `server CPU ${o.cpuMsPerRequest.toFixed(1)} ms per request (${o.corePercent.toFixed(0)} % of one core), ` +
            `persisted ${o.persisted}, RSS ${o.rss}`,
        );
    }
  } finally {
    await model.close();
    await redis?.stop();
    for (const file of readdirSync(SERVER_DIR).filter((f) => f.endsWith('.heapsnapshot'))) {
      if (!HEAP) rmSync(path.join(SERVER_DIR, file));
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
