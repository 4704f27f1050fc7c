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
