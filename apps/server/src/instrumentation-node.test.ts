// The start-up hook: a failed start prints its reason and ends `next start` with exit code 1,
// while `next dev` keeps running with the same message printed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as EnvModule from './env';

const start = vi.hoisted(() => ({ env: vi.fn(), getRuntime: vi.fn() }));
vi.mock('./env', async (importOriginal) => ({
  ...(await importOriginal<typeof EnvModule>()),
  env: start.env,
}));
vi.mock('./server/runtime', () => ({ getRuntime: start.getRuntime }));

const { startServer } = await import('./instrumentation-node');
const { parseEnv } = await import('./env');

let stderr: ReturnType<typeof vi.spyOn>;
let exit: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
  exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
});
afterEach(() => {
  vi.restoreAllMocks();
  start.env.mockReset();
  start.getRuntime.mockReset();
});

const printed = () => stderr.mock.calls.map((args: unknown[]) => args.join(' ')).join('\n');

function invalidEnv(): never {
  return parseEnv({ PORT: 'abc', TANDEM_DEV_API_KEY: 'short' }) as never;
}

describe('startServer', () => {
  it('exits 1 on an invalid environment, after printing every offending variable', async () => {
    start.env.mockImplementation(invalidEnv);
    await startServer({ exitOnFailure: true });
    expect(exit).toHaveBeenCalledWith(1);
    expect(printed()).toContain('Tandem cannot start: 2 environment variables are invalid.');
    expect(printed()).toMatch(/PORT: .*\n[\s\S]*TANDEM_DEV_API_KEY: /);
    expect(start.getRuntime).not.toHaveBeenCalled();
  });

  it('exits 1 when the store cannot be opened, with the store named', async () => {
    start.env.mockReturnValue(parseEnv({ NODE_ENV: 'test', DATA_DIR: '/srv/tandem' }));
    const { StoreOpenError } = await import('./server/startup-failure');
    start.getRuntime.mockRejectedValue(
      new StoreOpenError({ MONGODB_URI: undefined, DATA_DIR: '/srv/tandem' }, new Error('boom')),
    );
    await startServer({ exitOnFailure: true });
    expect(exit).toHaveBeenCalledWith(1);
    expect(printed()).toContain('store:  embedded libSQL at /srv/tandem/tandem.db (DATA_DIR)');
  });

  it('keeps a dev server running, with the same message printed', async () => {
    start.env.mockImplementation(invalidEnv);
    await startServer({ exitOnFailure: false });
    expect(exit).not.toHaveBeenCalled();
    expect(printed()).toContain('TANDEM_DEV_API_KEY: must be at least 20 characters');
  });
});
