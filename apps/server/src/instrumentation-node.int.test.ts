// The start-up hook with real failed starts (an invalid environment, a store that cannot be
// opened): the reason is printed and `next start` ends with exit code 1, while `next dev` keeps
// running with the same message. The built server's own exit is tested in e2e/startup.spec.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { parseEnv } from './env';
import { startServer } from './instrumentation-node';
import { createRuntime } from './server/runtime';

let dir: string;
let stderr: MockInstance<typeof console.error>;
let exits: number[];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tandem-start-'));
  stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
  exits = [];
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const printed = () => stderr.mock.calls.map((args) => args.join(' ')).join('\n');
const exit = (code: number) => void exits.push(code);
const invalidEnv = () => parseEnv({ PORT: 'abc', TANDEM_DEV_API_KEY: 'short' });
/** DATA_DIR is a file: the embedded store cannot create its database under it. */
function unopenableStore() {
  const file = path.join(dir, 'not-a-directory');
  writeFileSync(file, '');
  return parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: file });
}

describe('startServer', () => {
  it('exits 1 on an invalid environment, after printing every offending variable', async () => {
    let opened = false;
    await startServer({
      exitOnFailure: true,
      env: invalidEnv,
      runtime: () => {
        opened = true;
        return Promise.reject(new Error('not reached'));
      },
      exit,
    });
    expect(exits).toEqual([1]);
    expect(printed()).toContain('Tandem cannot start: 2 environment variables are invalid.');
    expect(printed()).toMatch(/PORT: .*\n[\s\S]*TANDEM_DEV_API_KEY: /);
    expect(opened).toBe(false);
  });

  it('exits 1 when the store cannot be opened, with the store named', async () => {
    const config = unopenableStore();
    await startServer({
      exitOnFailure: true,
      env: () => config,
      runtime: () => createRuntime({ env: config }),
      exit,
    });
    expect(exits).toEqual([1]);
    expect(printed()).toContain('Tandem cannot start: the store could not be opened.');
    expect(printed()).toContain(`embedded libSQL at ${config.DATA_DIR}/tandem.db (DATA_DIR)`);
  });

  it('keeps a dev server running, with the same message printed', async () => {
    await startServer({ exitOnFailure: false, env: invalidEnv, exit });
    expect(exits).toEqual([]);
    expect(printed()).toContain('TANDEM_DEV_API_KEY: must be at least 20 characters');
  });
});
