// The real Tandem server (`next start` on the production build) as a child process, as the
// e2e stack runs it: a free loopback port, its own data dir (embedded libSQL) and API key.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startWorkerProcess, type WorkerProcess } from '@tandem/server/worker-process';

export const SERVER_DIR = path.resolve(import.meta.dirname, '../../../apps/server');

export interface TandemServer {
  url: string;
  apiKey: string;
  /** The server's DATA_DIR: the bench reads the task records there. */
  dataDir: string;
  /** The server process (bench/soak samples its memory). */
  pid: number;
  /** What the process printed (for a failure's message). */
  output(): string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}

/** `env(own)`: the process environment with the bench's own variables (port, key…) set. */
export async function startServer(
  env: (own: Record<string, string>) => Record<string, string>,
  /** Flags for the server's node process (bench/soak's --cpu-prof). */
  nodeArgs: string[] = [],
  /** Another server's data dir and key: one more process on the same store (its close keeps them). */
  shareWith?: Pick<TandemServer, 'dataDir' | 'apiKey'>,
): Promise<TandemServer> {
  if (!existsSync(path.join(SERVER_DIR, '.next', 'BUILD_ID')))
    throw new Error('apps/server is not built: run `npm run bench:tasks` (it builds first).');
  const next = createRequire(import.meta.url).resolve('next/dist/bin/next', {
    paths: [SERVER_DIR],
  });
  const port = await freePort();
  const dataDir = shareWith?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tandem-bench-tasks-'));
  const apiKey = shareWith?.apiKey ?? `tdm_bench_${randomBytes(16).toString('hex')}`;
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const args = [...nodeArgs, next, 'start', '-p', String(port), '-H', '127.0.0.1'];
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: {
      ...env({ DATA_DIR: dataDir, TANDEM_DEV_API_KEY: apiKey, LOG_LEVEL: 'warn' }),
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await waitForHealth(url, child, () => output);
  return {
    url,
    apiKey,
    dataDir,
    pid: child.pid ?? -1,
    output: () => output,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
      }
      if (!shareWith) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A worker process (`npm run worker`) on `shareWith`'s store; resolves once it started. */
export function startWorker(
  env: (own: Record<string, string>) => Record<string, string>,
  shareWith: Pick<TandemServer, 'dataDir' | 'apiKey'>,
): Promise<WorkerProcess> {
  return startWorkerProcess({
    ...env({ DATA_DIR: shareWith.dataDir, TANDEM_DEV_API_KEY: shareWith.apiKey }),
    NODE_ENV: 'production',
  });
}
