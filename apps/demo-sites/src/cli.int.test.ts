// The README command, run for real: `tsx src/cli.ts` starts the sites and prints their URLs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SITES } from './pages';

const packageDir = path.resolve(import.meta.dirname, '..');

describe('cli', () => {
  it('serves on the requested port, lists every site and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--port', '0'], {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    let stdout = '';
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('Press Ctrl+C')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`cli exited early (${code}): ${stdout}`)));
        setTimeout(() => reject(new Error(`no banner after 15 s: ${stdout}`)), 15_000);
      });
      const origin = /Tandem demo sites on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      expect(origin).toBeDefined();
      for (const site of DEMO_SITES) expect(stdout).toContain(`${origin}${site.path}`);
      const response = await fetch(`${origin}/`);
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('refuses a bad port with usage and exit code 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--port', 'nope'], {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--port must be an integer');
    expect(stderr).toContain('Usage:');
  });
});
