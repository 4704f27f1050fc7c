// Runs hostile cases against a stack, one at a time, each under the monitor: the answer judged
// against the case's expectation, and what health, tenant B and RSS did meanwhile. Between
// cases the server is left to settle (health fast again), and a server that died is started
// again (counted) so the remaining cases still run.
import { setTimeout as sleep } from 'node:timers/promises';
import type { HostileCase, Outcome } from './cases';
import { jsonRequest, send, uploadRequest } from './http';
import { nextBody } from '../soak/workload';
import { monitor, rssMb, type Figures } from './monitor';
import type { HostileStack } from './stack';

/** Measuring goes on this long after a case's answer. */
export const TAIL_MS = 1_000;

export const TARGETS = { healthP99Ms: 100, interactP99Ms: 250, rssOverMb: 512, idleRatio: 1.2 };

export interface CaseRow extends Outcome {
  name: string;
  route: string;
  expected: string;
  figures: Figures;
  /** The server died under this case. */
  died: boolean;
}

/** Loads every route the cases use, so the baseline is a warmed-up server (as bench/soak's). */
export async function warmUp(stack: HostileStack): Promise<void> {
  const key = stack.attacker.key;
  const small = {
    fileName: 'warm.txt',
    contentType: 'text/plain',
    data: Buffer.from('WARM\nA: 1\n'),
  };
  const requests = [
    { method: 'GET', path: '/api/health' },
    jsonRequest(key, 'GET', '/api/auth/whoami'),
    uploadRequest(key, '/api/knowledge/ingest', { ...small, fileName: 'warm.md' }),
    jsonRequest(key, 'POST', '/api/extract', { html: '<p>Oak chair $120</p>', query: 'products' }),
    jsonRequest(key, 'POST', '/api/knowledge/page-content', {
      url: 'https://hostile.example/warm',
      html: '<p>warm</p>',
      phase: 'initial',
    }),
    jsonRequest(key, 'GET', '/api/stacks'),
  ];
  for (const req of requests) await send(stack.url, { timeoutMs: 60_000, ...req });
  // Tenant B's step, as the monitor sends it: the interact route is loaded before anything is
  // measured, as every other route is.
  const step = nextBody({ kind: 'SIMPLE', name: 'b-warm', tenant: 0, answered: 0 });
  await send(stack.url, jsonRequest(stack.tenantB.key, 'POST', '/api/agent/interact', step));
  const upload = await send(stack.url, uploadRequest(key, '/api/documents', small));
  const id = (JSON.parse(upload.text || '{}') as { document?: { id?: string } }).document?.id;
  if (id)
    await send(stack.url, {
      ...jsonRequest(key, 'POST', '/api/extractions', { documentId: id }),
      timeoutMs: 60_000,
    });
  // One measured minute of nothing would be too long here; a few seconds let the start settle.
  await sleep(5_000);
}

/** Waits until health answers quickly twice in a row (at most `limitMs`). */
export async function settle(stack: HostileStack, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  let fast = 0;
  while (fast < 2 && Date.now() < deadline && stack.alive()) {
    const res = await send(stack.url, { method: 'GET', path: '/api/health', timeoutMs: 10_000 });
    fast = res.status === 200 && res.ms < TARGETS.healthP99Ms ? fast + 1 : 0;
    await sleep(250);
  }
}

/** One case under the monitor (the stack must be running: see `revive`). */
export async function runCase(
  stack: HostileStack,
  hostile: HostileCase,
  baselineMb: number,
): Promise<CaseRow> {
  const go = await hostile.prepare(stack);
  const stop = await monitor(stack, baselineMb);
  let outcome: Outcome;
  try {
    outcome = await go();
  } catch (error) {
    outcome = {
      status: 'none',
      code: '',
      ms: Number.NaN,
      problems: [`the case threw: ${String(error)}`],
    };
  }
  // Work a quick answer leaves behind (parsing that goes on after a refusal) shows in the tail.
  await sleep(TAIL_MS);
  const figures = await stop();
  const died = !stack.alive();
  if (died) outcome.problems.push('the server died');
  return {
    ...outcome,
    name: hostile.name,
    route: hostile.route,
    expected: hostile.expected,
    figures,
    died,
  };
}

/** Runs `cases` in order; `onRow` sees each row as it is done. */
export async function runCases(
  stack: HostileStack,
  cases: HostileCase[],
  onRow: (row: CaseRow) => void = () => undefined,
): Promise<{ rows: CaseRow[]; baselineMb: number }> {
  await warmUp(stack);
  let baselineMb = rssMb(stack.pid);
  const rows: CaseRow[] = [];
  for (const hostile of cases) {
    const row = await runCase(stack, hostile, baselineMb);
    rows.push(row);
    onRow(row);
    if (await stack.revive()) {
      await warmUp(stack);
      baselineMb = rssMb(stack.pid);
    }
    await settle(stack);
  }
  return { rows, baselineMb };
}

/** RSS every 5 s for `seconds` of no requests: what the server gives back. */
export async function idle(stack: HostileStack, seconds: number): Promise<number[]> {
  const samples: number[] = [];
  for (let s = 0; s < seconds; s += 5) {
    await sleep(5_000);
    samples.push(rssMb(stack.pid));
  }
  return samples;
}
