// The tenant and API key repositories' query documents, evaluated by mingo.
import { describe, expect, it } from 'vitest';
import { MingoCollection } from '../../mongo/queries/mingo-collection';
import {
  activeKeyFilter,
  keysQuery,
  revokeKeyUpdate,
  tenantFilter,
  tenantsQuery,
  touchKeyUpdate,
} from './mongo-queries';
import type { ApiKeyDoc, TenantDoc } from './mongo-schema';

const at = (iso: string) => new Date(iso);

describe('tenants and API keys', () => {
  const key = (id: string, over: Partial<ApiKeyDoc> = {}): ApiKeyDoc => ({
    id,
    tenantId: 't1',
    userId: 'u1',
    name: id,
    role: 'user',
    prefix: 'tdm_',
    keyHash: `hash-${id}`,
    createdAt: at('2025-01-01T00:00:00Z'),
    lastUsedAt: null,
    revokedAt: null,
    ...over,
  });

  it('finds a key by hash unless revoked; lists a tenant’s keys; touches and revokes once', () => {
    const keys = new MingoCollection([
      key('k1'),
      key('k2', { revokedAt: at('2025-01-02T00:00:00Z') }),
      key('k3', { tenantId: 't2' }),
    ]);
    expect(keys.findOne({ filter: activeKeyFilter('hash-k1') })?.id).toBe('k1');
    expect(keys.findOne({ filter: activeKeyFilter('hash-k2') })).toBeNull();
    expect(keys.find(keysQuery('t1')).map((k) => k.id)).toEqual(['k1', 'k2']);
    const used = at('2025-03-01T00:00:00Z');
    keys.updateMany(touchKeyUpdate('t1', 'k1', used));
    expect(keys.docs[0]?.lastUsedAt).toEqual(used);
    expect(keys.updateMany(revokeKeyUpdate('t1', 'k1', used)).modifiedCount).toBe(1);
    expect(
      keys.updateMany(revokeKeyUpdate('t1', 'k1', at('2025-04-01T00:00:00Z'))).modifiedCount,
    ).toBe(0);
    expect(keys.updateMany(revokeKeyUpdate('t1', 'k3', used)).modifiedCount).toBe(0);
    expect(keys.findOne({ filter: activeKeyFilter('hash-k1') })).toBeNull();
  });

  it('tenants: by id, oldest first', () => {
    const tenants = new MingoCollection<TenantDoc>([
      { id: 'b', name: 'B', createdAt: at('2025-01-02T00:00:00Z') },
      { id: 'a', name: 'A', createdAt: at('2025-01-02T00:00:00Z') },
      { id: 'c', name: 'C', createdAt: at('2025-01-01T00:00:00Z') },
    ]);
    expect(tenants.find(tenantsQuery()).map((t) => t.id)).toEqual(['c', 'a', 'b']);
    expect(tenants.findOne({ filter: tenantFilter('a') })?.name).toBe('A');
  });
});
