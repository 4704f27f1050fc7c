// Query documents of tenants and API keys.
import type { Filter, FindSpec, UpdateSpec } from '../../mongo/queries/spec';

export const tenantFilter = (id: string): Filter => ({ id });
export const tenantsQuery = (): FindSpec => ({ filter: {}, sort: { createdAt: 1, id: 1 } });

/** The one lookup without a tenant: the key's hash is what tells us the tenant. */
export const activeKeyFilter = (keyHash: string): Filter => ({ keyHash, revokedAt: null });

export const keysQuery = (tenantId: string): FindSpec => ({
  filter: { tenantId },
  sort: { createdAt: 1, id: 1 },
});

export const touchKeyUpdate = (tenantId: string, id: string, at: Date): UpdateSpec => ({
  filter: { tenantId, id },
  update: { $set: { lastUsedAt: at } },
});

/** Revokes a key once (a revoked key keeps its first revocation time). */
export const revokeKeyUpdate = (tenantId: string, id: string, now: Date): UpdateSpec => ({
  filter: { tenantId, id, revokedAt: null },
  update: { $set: { revokedAt: now } },
});
