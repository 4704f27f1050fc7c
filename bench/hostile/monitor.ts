// What everyone else sees while one tenant's hostile input runs: /api/health polled every
// 100 ms, tenant B's SIMPLE step ("click Logout", resolved without a model) every 300 ms, and
// the server's RSS (VmRSS counts worker threads: they share the process). Both pollers are open
// loop: a poll is due every period whatever the previous one did, so a frozen server shows as
// latency (each poll waits up to its deadline) instead of as fewer polls.
//
// The pollers run in a process of their own, as the other tenant is another client: in the
// suite's process they shared an event loop with the attack, and sending 200 requests at once
// and reading their answers delayed the polls there, not in the server.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { nextBody } from '../soak/workload';
import { jsonRequest, send, type RawResponse } from './http';
import type { HostileStack } from './stack';

export const HEALTH_PERIOD_MS = 100;
/** Under the default 300 interact requests a minute per tenant, so B is never rate limited. */
export const INTERACT_PERIOD_MS = 300;
const POLL_DEADLINE_MS = 30_000;

export interface Figures {
  healthP99: number;
  healthMax: number;
  /** Health polls that failed or answered other than 200. */
  healthErrors: number;
  interactP99: number;
  interactErrors: number;
  /** Peak RSS over the baseline, MB. */
  rssPeakOverMb: number;
  rssPeakMb: number;
  /** RSS when measuring began: the peak over it is what this case added. */
  rssStartMb: number;
}

export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN);
};

/** Runs `poll` every `periodMs` until stopped; resolves with every poll's answer. */
function openLoop(periodMs: number, poll: () => Promise<RawResponse>) {
  const answers: RawResponse[] = [];
  const inFlight = new Set<Promise<void>>();
  const tick = () => {
    const p = poll().then((res) => void answers.push(res));
    const tracked = p.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };
  tick();
  const timer = setInterval(tick, periodMs);
  return async (): Promise<RawResponse[]> => {
    clearInterval(timer);
    await Promise.all(inFlight);
    return answers;
  };
}

type Watched = Pick<HostileStack, 'url' | 'pid'> & { tenantBKey: string };

/** The pollers, in this process; the returned function stops and summarizes. */
function watch({ url, pid, tenantBKey }: Watched, baselineMb: number): () => Promise<Figures> {
  let step = 0;
  const stopHealth = openLoop(HEALTH_PERIOD_MS, () =>
    send(url, { method: 'GET', path: '/api/health', timeoutMs: POLL_DEADLINE_MS }),
  );
  const stopInteract = openLoop(INTERACT_PERIOD_MS, () => {
    const name = `b-${Date.now().toString(36)}-${step++}`;
    const body = nextBody({ kind: 'SIMPLE', name, tenant: 0, answered: 0 });
    return send(url, {
      ...jsonRequest(tenantBKey, 'POST', '/api/agent/interact', body),
      timeoutMs: POLL_DEADLINE_MS,
    });
  });
  const rssStartMb = rssMb(pid);
  const rss: number[] = [rssStartMb];
  const sampler = setInterval(() => rss.push(rssMb(pid)), HEALTH_PERIOD_MS);
  return async () => {
    const [health, interact] = await Promise.all([stopHealth(), stopInteract()]);
    clearInterval(sampler);
    rss.push(rssMb(pid));
    const finite = rss.filter(Number.isFinite);
    const peak = finite.length > 0 ? Math.max(...finite) : Number.NaN;
    const latencies = (answers: RawResponse[]) => answers.map((a) => a.ms);
    return {
      healthP99: percentile(latencies(health), 99),
      healthMax: Math.max(0, ...latencies(health)),
      healthErrors: health.filter((a) => a.status !== 200).length,
      interactP99: percentile(latencies(interact), 99),
      interactErrors: interact.filter((a) => a.status !== 200).length,
      rssPeakOverMb: peak - baselineMb,
      rssPeakMb: peak,
      rssStartMb,
    };
  };
}

/**
 * Starts measuring in a child process, once its pollers run; the returned function stops them
 * and summarizes against `baselineMb`.
 */
export async function monitor(
  stack: Pick<HostileStack, 'url' | 'pid' | 'tenantB'>,
  baselineMb: number,
): Promise<() => Promise<Figures>> {
  // tsx is resolved from this package: the e2e suite runs this from one without it.
  const child = fork(import.meta.filename, [], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Figures may be NaN (no poll answered), which JSON would turn into null.
    serialization: 'advanced',
  });
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      const exited = (code: number | null) =>
        reject(new Error(`the monitor process exited with ${code}`));
      child.once('exit', exited);
      child.once('message', (message) => {
        child.off('exit', exited);
        resolve(message);
      });
    });
  const watched: Watched = { url: stack.url, pid: stack.pid, tenantBKey: stack.tenantB.key };
  const started = next();
  child.send({ watch: watched, baselineMb });
  await started;
  return async () => {
    const figures = next();
    child.send({ stop: true });
    const result = (await figures) as Figures;
    child.kill('SIGTERM');
    return result;
  };
}

if (process.send && import.meta.filename === process.argv[1]) {
  let stop: (() => Promise<Figures>) | null = null;
  process.on('message', (message: { watch?: Watched; baselineMb?: number; stop?: boolean }) => {
    if (message.watch) {
      stop = watch(message.watch, message.baselineMb ?? Number.NaN);
      process.send?.({ watching: true });
    } else if (message.stop && stop) {
      void stop().then((figures) => process.send?.(figures));
    }
  });
}
