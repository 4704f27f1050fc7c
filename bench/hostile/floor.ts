// The platform's floor under the fair-share case: how long /api/health waits while 200 requests
// arrive at once, on a bare node:http server that answers each with a fixed 429 and does nothing
// else, measured exactly as the suite measures the real server (same monitor, same burst, same
// machine), then the real server's fair-share case as many times.
//
//   npm run bench:floor -- [--runs 11] [--cpu-prof DIR]
//
// --cpu-prof writes the real server's V8 CPU profile to DIR when it stops (to read where a
// burst's busy stretches go).
//
// Why: the real server refuses 198 of those requests before Next.js (admission.ts), for a
// fraction of a millisecond of our code each, yet health p99 during the case is near 100 ms on
// a two-core machine. This shows how much of that is Node accepting, parsing and answering 200
// new connections at all, which no code of ours can remove.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { FAIR_SHARE } from './cases/fair-share';
import { jsonRequest, send } from './http';
import { monitor, percentile, rssMb, type Figures } from './monitor';
import { startHostileStack } from './stack';
import { runCase, settle, TAIL_MS, warmUp } from './suite';

const REQUESTS = 200;

/** The bare server, in a process of its own as the real one is. */
function serveBare(): void {
  const refusal = JSON.stringify({
    error: {
      code: 'CONCURRENCY_LIMITED',
      message: 'This account already has 2 document extractions running, the most it may have.',
    },
  });
  const server = createServer((req, res) => {
    req.resume();
    const health = req.url === '/api/health';
    res.writeHead(health ? 200 : 429, {
      'content-type': 'application/json; charset=utf-8',
      ...(health ? {} : { 'retry-after': '1' }),
    });
    res.end(health ? '{"status":"ok"}' : refusal);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') process.send?.({ port: address.port });
  });
}

async function bareRuns(runs: number): Promise<Figures[]> {
  const child = fork(import.meta.filename, ['--serve'], {
    execArgv: ['--import', import.meta.resolve('tsx')],
  });
  try {
    const port = await new Promise<number>((resolve) =>
      child.once('message', (m) => resolve((m as { port: number }).port)),
    );
    const url = `http://127.0.0.1:${port}`;
    const target = { url, pid: child.pid ?? -1, tenantB: { id: '', name: '', key: 'bare' } };
    const request = jsonRequest('tdm_bare', 'POST', '/api/extractions', { documentId: 'd' });
    const out: Figures[] = [];
    for (let run = 0; run < runs; run++) {
      const stop = await monitor(target, rssMb(target.pid));
      await Promise.all(Array.from({ length: REQUESTS }, () => send(url, request)));
      await sleep(TAIL_MS);
      out.push(await stop());
      await sleep(1_000);
    }
    return out;
  } finally {
    child.kill('SIGTERM');
  }
}

async function realRuns(runs: number, cpuProfileDir?: string): Promise<Figures[]> {
  const stack = await startHostileStack(
    cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [],
  );
  try {
    await warmUp(stack);
    const baseline = rssMb(stack.pid);
    const out: Figures[] = [];
    for (let run = 0; run < runs; run++) {
      out.push((await runCase(stack, FAIR_SHARE, baseline)).figures);
      await settle(stack);
    }
    return out;
  } finally {
    await stack.close();
  }
}

function line(label: string, figures: Figures[]): string {
  const p99s = figures.map((f) => Math.round(f.healthP99));
  const over = p99s.filter((ms) => ms > 100).length;
  return (
    `${label}: health p99 per run ${p99s.join(', ')} ms; median ${percentile(p99s, 50)} ms, ` +
    `${over} of ${p99s.length} above 100 ms`
  );
}

async function main() {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '11' }, 'cpu-prof': { type: 'string' } },
  });
  const runs = Number(values.runs);
  console.log(`${REQUESTS} concurrent requests, ${runs} runs each, health polled every 100 ms`);
  console.log(line('bare node:http, fixed 429', await bareRuns(runs)));
  console.log(line('Tandem, fair-share-200-runs', await realRuns(runs, values['cpu-prof'])));
}

if (process.argv.includes('--serve')) serveBare();
else
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
