// The commands the README and the server's own messages give a user, run as a user with Node
// and npm only would run them: a `pnpm` on PATH that is not there ("not found", as on a fresh
// machine), so every root script must find the pinned pnpm itself (scripts/pnpm.mjs falls back
// to npx). No browser. Each command runs from the repository root, on its own data directory.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { inheritedEnv } from './support/env';

const ROOT = path.resolve(import.meta.dirname, '..');

let scratch: string;
let env: NodeJS.ProcessEnv;

test.beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'tandem-npm-only-'));
  const bin = path.join(scratch, 'bin');
  const pnpm = path.join(bin, 'pnpm');
  // A pnpm that does not exist: what `sh` says on a machine without one.
  mkdirSync(bin);
  writeFileSync(pnpm, '#!/bin/sh\necho "sh: 1: pnpm: not found" >&2\nexit 127\n');
  chmodSync(pnpm, 0o755);
  const inherited = inheritedEnv();
  env = {
    ...inherited,
    PATH: `${bin}${path.delimiter}${inherited.PATH ?? ''}`,
    DATA_DIR: path.join(scratch, 'data'),
    // Whatever the shell running the suite has: the embedded store, as a new user has.
    MONGODB_URI: '',
    REDIS_URL: '',
  };
});

test.afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function npm(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

test('the CLI works as the README spells it, without a global pnpm', async () => {
  test.setTimeout(180_000);
  const created = await npm(['run', 'cli', '--', 'tenant', 'create', '--name', 'Acme']);
  expect(created.output).not.toMatch(/pnpm: not found/);
  expect(created.code, created.output).toBe(0);
  const tenantId = /Created tenant "Acme" with id (\S+)/.exec(created.output)?.[1];
  expect(tenantId, created.output).toBeTruthy();

  const key = await npm(['run', 'cli', '--', 'key', 'create', '--tenant', tenantId ?? '']);
  expect(key.code, key.output).toBe(0);
  expect(key.output).toMatch(/Created user key \S+ for tenant "Acme"/);
  const plaintext = /^\s+(\S{20,})\s*$/m.exec(key.output.split('only a hash is stored:')[1] ?? '');
  expect(plaintext?.[1], key.output).toBeTruthy();

  const list = await npm(['run', 'cli', '--', 'key', 'list', '--tenant', tenantId ?? '']);
  expect(list.code, list.output).toBe(0);
  expect(list.output).toContain(`${plaintext?.[1]?.slice(0, 8)}`);

  // The admin pages' spelling, with a role.
  const admin = await npm([
    'run',
    'cli',
    '--',
    'key',
    'create',
    '--tenant',
    tenantId ?? '',
    '--role',
    'admin',
  ]);
  expect(admin.code, admin.output).toBe(0);
  expect(admin.output).toMatch(/Created admin key/);
});

test('a bench script runs without a global pnpm', async () => {
  test.setTimeout(300_000);
  const bench = await npm(['run', 'bench:store']);
  expect(bench.output).not.toMatch(/pnpm: not found/);
  expect(bench.code, bench.output).toBe(0);
  expect(bench.output).toMatch(/libsql file \(WAL\)\s+[\d,]+/);
});
