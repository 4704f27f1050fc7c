import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { ensureDevTenant, reportDevTenant } from './bootstrap';

let store: Store;
beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
});
afterEach(async () => {
  await store.close();
});

describe('ensureDevTenant', () => {
  it('first start creates a dev tenant and an admin key that authenticates, printed once', async () => {
    const outcome = await ensureDevTenant(store, {});
    expect(outcome.kind).toBe('created');
    if (outcome.kind !== 'created') return;
    const record = await store.apiKeys.findByPlaintext(outcome.plaintextKey);
    expect(record).toMatchObject({ tenantId: outcome.tenantId, role: 'admin' });

    const printed: string[] = [];
    const logged: string[] = [];
    const log = createLogger('info', {}, (line) => logged.push(line));
    reportDevTenant(outcome, log, (text) => printed.push(text));
    expect(printed.join('\n')).toContain(outcome.plaintextKey);
    expect(logged.join('\n')).not.toContain(outcome.plaintextKey);

    const second = await ensureDevTenant(store, {});
    expect(second).toEqual({ kind: 'existing-tenants', tenantCount: 1 });
    const printedAgain: string[] = [];
    reportDevTenant(second, log, (text) => printedAgain.push(text));
    expect(printedAgain).toEqual([]);
  });

  it('with TANDEM_DEV_API_KEY, imports exactly that key once', async () => {
    const key = 'tdm_dev_key_for_tests_0123456789';
    const first = await ensureDevTenant(store, { TANDEM_DEV_API_KEY: key });
    if (first.kind !== 'env-key-imported') throw new Error(`unexpected ${first.kind}`);
    const again = await ensureDevTenant(store, { TANDEM_DEV_API_KEY: key });
    expect(again).toEqual({ kind: 'env-key-exists', tenantId: first.tenantId });
    expect(await store.tenants.list()).toHaveLength(1);
    expect((await store.apiKeys.findByPlaintext(key))?.tenantId).toBe(first.tenantId);
  });
});

describe('ensureDevTenant: replicas starting together on one empty store', () => {
  it('one creates the tenant and prints a key; the others find it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tandem-bootstrap-'));
    const url = `file:${path.join(dir, 'tandem.db')}`;
    // Each "process" its own connection to the one file, as next start processes are.
    const stores = await Promise.all([1, 2, 3].map(() => createLibsqlStore({ url })));
    try {
      const outcomes = await Promise.all(stores.map((s) => ensureDevTenant(s, {})));
      expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'existing-tenants')).toHaveLength(2);
      expect(await stores[0]?.tenants.list()).toHaveLength(1);

      // With TANDEM_DEV_API_KEY, as a compose file gives every replica: one import, no failure.
      const key = 'tdm_replica_key_for_tests_0123456789';
      const imported = await Promise.all(
        stores.map((s) => ensureDevTenant(s, { TANDEM_DEV_API_KEY: key })),
      );
      expect(imported.map((o) => o.kind).sort()).toEqual([
        'env-key-exists',
        'env-key-exists',
        'env-key-imported',
      ]);
    } finally {
      for (const s of stores) await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
