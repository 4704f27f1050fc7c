// First-start experience: a fresh checkout gets a dev tenant and a working API key with no
// configuration. The key is printed once (only its hash is stored, so it can't be shown again).
import { setTimeout as sleep } from 'node:timers/promises';
import { isDuplicateKeyError, type Store } from '@tandem/store';
import type { Env } from '../env';
import type { Logger } from '@tandem/observability';

export const DEV_TENANT_NAME = 'Development';
const DEV_USER_ID = 'dev-user';

export type DevTenantOutcome =
  | { kind: 'env-key-exists'; tenantId: string }
  | { kind: 'env-key-imported'; tenantId: string }
  | { kind: 'created'; tenantId: string; plaintextKey: string }
  | { kind: 'existing-tenants'; tenantCount: number };

/** The lease that makes the first start one process's: a key of no tenant's. */
const BOOTSTRAP_SCOPE = { tenantId: '__bootstrap__', key: 'dev-tenant', leaseMs: 30_000 };

/**
 * Makes sure someone can sign in: see DevTenantOutcome. Processes starting together on one
 * empty store (replicas of a deployment) take turns under a lease in the store, so exactly one
 * creates the tenant and prints its key; the others then find it.
 */
export async function ensureDevTenant(
  store: Store,
  env: Pick<Env, 'TANDEM_DEV_API_KEY'>,
): Promise<DevTenantOutcome> {
  const { tenantId, key, leaseMs } = BOOTSTRAP_SCOPE;
  const deadline = Date.now() + leaseMs;
  for (;;) {
    try {
      await store.idempotency.begin(tenantId, {
        key,
        scope: 'bootstrap',
        requestHash: key,
        ttlMs: leaseMs,
      });
      break;
    } catch (error) {
      // Another process is at it; its lease lapses if it died meanwhile.
      if (!isDuplicateKeyError(error) || Date.now() > deadline) throw error;
      await sleep(50 + Math.random() * 100);
    }
  }
  try {
    return await ensureDevTenantNow(store, env);
  } finally {
    await store.idempotency.release(tenantId, key).catch(() => false);
  }
}

async function ensureDevTenantNow(
  store: Store,
  env: Pick<Env, 'TANDEM_DEV_API_KEY'>,
): Promise<DevTenantOutcome> {
  const envKey = env.TANDEM_DEV_API_KEY;
  if (envKey) {
    const existing = await store.apiKeys.findByPlaintext(envKey);
    if (existing) return { kind: 'env-key-exists', tenantId: existing.tenantId };
    const tenants = await store.tenants.list();
    const tenant =
      tenants.find((t) => t.name === DEV_TENANT_NAME) ??
      (await store.tenants.create({ name: DEV_TENANT_NAME }));
    await store.apiKeys.import(tenant.id, {
      userId: DEV_USER_ID,
      name: 'TANDEM_DEV_API_KEY',
      role: 'admin',
      plaintextKey: envKey,
    });
    return { kind: 'env-key-imported', tenantId: tenant.id };
  }
  const tenants = await store.tenants.list();
  if (tenants.length > 0) return { kind: 'existing-tenants', tenantCount: tenants.length };
  const tenant = await store.tenants.create({ name: DEV_TENANT_NAME });
  const { plaintextKey } = await store.apiKeys.create(tenant.id, {
    userId: DEV_USER_ID,
    name: 'first-start dev key',
    role: 'admin',
  });
  return { kind: 'created', tenantId: tenant.id, plaintextKey };
}

/** Tells the person starting the server what they need, printing a new key exactly once. */
export function reportDevTenant(
  outcome: DevTenantOutcome,
  log: Logger,
  print: (text: string) => void = (text) => console.log(text),
): void {
  switch (outcome.kind) {
    case 'env-key-exists':
    case 'env-key-imported':
      log.info('dev API key from TANDEM_DEV_API_KEY is active', {
        tenantId: outcome.tenantId,
        imported: outcome.kind === 'env-key-imported',
      });
      return;
    case 'created':
      // Printed, not logged: it is the one moment the plaintext key exists.
      print(
        [
          '',
          '  Tandem created a development tenant and an admin API key.',
          '  It is shown only this once (only a hash is stored):',
          '',
          `    TANDEM_API_KEY=${outcome.plaintextKey}`,
          '',
          '  Use it as "Authorization: Bearer <key>" or paste it into the extension options.',
          '  More keys: npm run cli -- key create --tenant ' + outcome.tenantId,
          '',
        ].join('\n'),
      );
      return;
    case 'existing-tenants':
      log.info('store already has tenants; no key printed (create one with the CLI)', {
        tenants: outcome.tenantCount,
        hint: 'npm run cli -- key create --tenant <tenantId>',
      });
      return;
  }
}
