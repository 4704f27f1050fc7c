// Starts the e2e stack once: the demo sites and a fake Gemini API in this process, and the
// real Tandem server (`next start`, production build) as a child process wired to both.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDemoSites } from '@tandem/demo-sites';
import { exportE2eEnv, inheritedEnv } from './env';
import { startFakeGemini } from './fake-gemini';

const require = createRequire(import.meta.url);
const serverDir = path.resolve(import.meta.dirname, '../../apps/server');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
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
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const demo = await startDemoSites({ port: 0 });
  const gemini = await startFakeGemini();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tandem-e2e-'));
  const apiKey = `tdm_e2e_${randomBytes(16).toString('hex')}`;
  const nextBin = require.resolve('next/dist/bin/next', { paths: [serverDir] });
  let output = '';
  const child = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: serverDir,
    env: {
      ...inheritedEnv(),
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      TANDEM_DEV_API_KEY: apiKey,
      GEMINI_API_KEY: 'fake-gemini-key-for-e2e',
      GEMINI_BASE_URL: gemini.url,
      LLM_MAX_RETRIES: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const server = `http://127.0.0.1:${port}`;
  await waitForHealth(server, child, () => output);
  exportE2eEnv({ server, apiKey, demo: demo.url, gemini: gemini.url, dataDir });

  return async () => {
    child.kill('SIGTERM');
    await demo.close();
    await gemini.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
