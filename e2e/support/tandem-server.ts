// The real Tandem server (`next start` on the production build) as a child process, on a
// free loopback port with its own data dir and API key: global-setup starts the suite's one,
// and a test about the server itself (a tight rate limit, an outage) starts its own, which it
// can stop and start again on the same port with the same data.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startWorkerProcess, type WorkerProcess } from '@tandem/server/worker-process';
import { inheritedEnv } from './env';

export const SERVER_DIR = path.resolve(import.meta.dirname, '../../apps/server');
export const NEXT_BIN = createRequire(import.meta.url).resolve('next/dist/bin/next', {
  paths: [SERVER_DIR],
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface TandemServerOptions {
  /** The fake Gemini's URL (the model every node calls). */
  gemini: string;
  /** Variables over the defaults below, e.g. `{ RATE_LIMIT_INTERACT_PER_MIN: '4' }`. */
  env?: Record<string, string>;
  /**
   * Another process's data dir and key: a second server on the same store, as processes behind
   * a load balancer are. Its close() leaves the data dir to its owner.
   */
  shareWith?: Pick<TandemServer, 'dataDir' | 'apiKey'>;
}

export interface TandemServer {
  url: string;
  port: number;
  apiKey: string;
  dataDir: string;
  /** Everything the process (every process, across restarts) printed. */
  output(): string;
  /** Ends the process (SIGKILL: as a crash; SIGTERM: as a shutdown) and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port, data dir, key and environment; resolves once healthy. */
  start(): Promise<void>;
  /** Stops it and deletes its data dir. */
  close(): Promise<void>;
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}

/** The environment of a server or worker process of these tests. */
function processEnv(options: TandemServerOptions, dataDir: string, apiKey: string) {
  return {
    ...inheritedEnv(),
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    TANDEM_DEV_API_KEY: apiKey,
    GEMINI_API_KEY: 'fake-gemini-key-for-e2e',
    GEMINI_BASE_URL: options.gemini,
    LLM_MAX_RETRIES: '0',
    LOG_LEVEL: 'info',
    ...options.env,
  };
}

/**
 * A worker process (`npm run worker`) on `shareWith`'s data dir with the settings a server of
 * these tests gets; resolves once it says it started.
 */
export function startTandemWorker(
  options: TandemServerOptions & { shareWith: Pick<TandemServer, 'dataDir' | 'apiKey'> },
): Promise<WorkerProcess> {
  return startWorkerProcess(
    processEnv(options, options.shareWith.dataDir, options.shareWith.apiKey),
  );
}

export async function startTandemServer(options: TandemServerOptions): Promise<TandemServer> {
  const port = await freePort();
  const dataDir = options.shareWith?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tandem-e2e-'));
  const apiKey = options.shareWith?.apiKey ?? `tdm_e2e_${randomBytes(16).toString('hex')}`;
  const url = `http://127.0.0.1:${port}`;
  const env = processEnv(options, dataDir, apiKey);
  let output = '';
  let child: ChildProcess | null = null;

  const start = async () => {
    if (child) throw new Error('the server is already running');
    const started = spawn(
      process.execPath,
      [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'],
      {
        cwd: SERVER_DIR,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = started;
    started.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    started.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    started.on('exit', () => {
      if (child === started) child = null;
    });
    await waitForHealth(url, started, () => output);
  };

  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(signal);
    await exited;
  };

  await start();
  return {
    url,
    port,
    apiKey,
    dataDir,
    output: () => output,
    stop,
    start,
    async close() {
      await stop();
      if (!options.shareWith) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
