// A server that cannot work must not start: the production build (`next start`, what
// `npm start` runs) with an invalid variable or a store it cannot open exits non-zero within
// seconds and says why, instead of answering every request with a 500. No browser: each test
// spawns its own server next to the one global-setup started, and waits for it to exit.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { inheritedEnv } from './support/env';
import { freePort, NEXT_BIN, SERVER_DIR } from './support/tandem-server';

/** What "within seconds" means here; an unreachable MongoDB alone takes 10 s to give up. */
const EXIT_WITHIN_MS = 15_000;

interface Outcome {
  /** null: still running after EXIT_WITHIN_MS (then killed). */
  code: number | null;
  ms: number;
  output: string;
  /** What /api/health answered while the process was up (status codes, if it ever listened). */
  health: number[];
}

/** Runs `next start` on the built server with `vars` over a clean environment. */
async function startServer(vars: Record<string, string>): Promise<Outcome> {
  const port = await freePort();
  const scratch = mkdtempSync(path.join(tmpdir(), 'tandem-startup-'));
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: SERVER_DIR,
      env: {
        ...inheritedEnv(),
        NODE_ENV: 'production',
        DATA_DIR: scratch,
        // Whatever the shell running the suite has, these tests decide the configuration.
        MONGODB_URI: '',
        TANDEM_DEV_API_KEY: '',
        SENTRY_DSN: '',
        LOG_LEVEL: 'info',
        ...vars,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_WITHIN_MS);

  const health: number[] = [];
  let done = false;
  void exited.then(() => (done = true));
  while (!done) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, {
        signal: AbortSignal.timeout(1_000),
      });
      health.push(res.status);
    } catch {
      // not listening (yet, or any more)
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const code = await exited;
  clearTimeout(timer);
  const ms = Date.now() - started;
  rmSync(scratch, { recursive: true, force: true });
  return { code: ms >= EXIT_WITHIN_MS ? null : code, ms, output, health };
}

test.describe('the server refuses to start', () => {
  test('with invalid variables: exits non-zero, names each one, hides the secret', async () => {
    const secret = 'short-SECRET-key';
    const run = await startServer({
      TANDEM_DEV_API_KEY: secret,
      RATE_LIMIT_INTERACT_PER_MIN: '0',
    });
    expect(run.code, run.output).not.toBeNull();
    expect(run.code, run.output).not.toBe(0);
    expect(run.ms).toBeLessThan(EXIT_WITHIN_MS);
    expect(run.output).toContain('Tandem cannot start: 2 environment variables are invalid.');
    expect(run.output).toContain('TANDEM_DEV_API_KEY: must be at least 20 characters');
    expect(run.output).toContain(
      'RATE_LIMIT_INTERACT_PER_MIN: must be a whole number greater than 0 (got "0")',
    );
    expect(run.output).toContain('.env.example');
    expect(run.output).not.toContain(secret);
    // It never served: at most Next answered before the hook ran, and never with a 200.
    expect(run.health).not.toContain(200);
  });

  test('when DATA_DIR cannot hold the database: exits non-zero with the reason', async () => {
    // A regular file where the directory should be (root can write anywhere, so permissions
    // alone would not stop it in CI).
    const scratch = mkdtempSync(path.join(tmpdir(), 'tandem-startup-file-'));
    const notADirectory = path.join(scratch, 'data');
    writeFileSync(notADirectory, 'not a directory');
    try {
      const run = await startServer({ DATA_DIR: notADirectory });
      expect(run.code, run.output).not.toBeNull();
      expect(run.code, run.output).not.toBe(0);
      expect(run.output).toContain('Tandem cannot start: the store could not be opened.');
      expect(run.output).toContain(`embedded libSQL at ${notADirectory}`);
      expect(run.output).toMatch(/reason: E[A-Z]+: /);
      expect(run.output).toContain('set DATA_DIR to a directory');
      expect(run.health).not.toContain(200);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  test('with a malformed MONGODB_URI: exits non-zero without printing its password', async () => {
    const run = await startServer({
      MONGODB_URI: 'mongodb://tandem:SECRET-pw@db host:port/tandem',
    });
    expect(run.code, run.output).not.toBeNull();
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain('Tandem cannot start: the store could not be opened.');
    expect(run.output).toContain('store:  MongoDB (MONGODB_URI)');
    expect(run.output).not.toContain('SECRET-pw');
    expect(run.health).not.toContain(200);
  });
});
