// A worker process (`npm run worker`: src/worker.ts under tsx) for tests and benches that run
// the real thing beside real servers: spawned from apps/server with the environment given,
// resolved once it says it started.
import { spawn } from 'node:child_process';
import path from 'node:path';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

export interface WorkerProcess {
  pid: number;
  /** Everything it printed. */
  output(): string;
  /** Its exit code once it exited (null while it runs, or after a signal killed it). */
  exitCode(): number | null;
  /** Ends it (SIGTERM: hands its jobs back; SIGKILL: as a crash) and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startWorkerProcess(
  env: Record<string, string | undefined>,
  startTimeoutMs = 60_000,
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: SERVER_DIR,
    // Next.js narrows NODE_ENV's type; the child validates its environment itself (env.ts).
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + startTimeoutMs;
  while (!output.includes('worker started')) {
    if (child.exitCode !== null)
      throw new Error(`worker exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`worker did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    pid: child.pid ?? -1,
    output: () => output,
    exitCode: () => child.exitCode,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill(signal);
      await exited;
    },
  };
}
