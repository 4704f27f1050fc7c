// The admin CLI run as an operator runs it, against a test server's data directory.
import { spawnSync } from 'node:child_process';
import { expect } from '@playwright/test';
import { inheritedEnv } from './env';
import { SERVER_DIR } from './tandem-server';

/** A user-role key in `tenantId`, made with `key create --role user --json`. */
export function createUserKey(dataDir: string, tenantId: string): string {
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/main.ts',
      'key',
      'create',
      '--tenant',
      tenantId,
      '--role',
      'user',
      '--json',
    ],
    {
      cwd: SERVER_DIR,
      env: { ...inheritedEnv(), DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    },
  );
  expect(result.status, result.stderr).toBe(0);
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  const created = JSON.parse(line) as { key: string; role: string };
  expect(created.role).toBe('user');
  return created.key;
}
