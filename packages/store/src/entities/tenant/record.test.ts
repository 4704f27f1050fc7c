// The defaults both adapters store for omitted fields, checked without a store: each builder
// fills what is absent, keeps what is given, and never lets two records share a mutable default.
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../shared';
import { newApiKeyRecord, newTenantRecord } from './record';

const NOW = '2025-03-04T05:06:07.089Z';
const T = 'tenant-1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newTenantRecord / newApiKeyRecord', () => {
  it('gives a tenant a fresh id unless one is given', () => {
    const a = newTenantRecord({ name: 'Acme' }, NOW);
    expect(a).toEqual({ id: expect.stringMatching(UUID), name: 'Acme', createdAt: NOW });
    expect(newTenantRecord({ name: 'Acme' }, NOW).id).not.toBe(a.id);
    expect(newTenantRecord({ name: 'Acme', id: 't-9' }, NOW).id).toBe('t-9');
  });

  it('stores a key as role user, unused, unrevoked, with its hash and prefix only', () => {
    const key = 'tdm_abcdefghijklmnopqrstuvwxyz';
    const record = newApiKeyRecord(T, { userId: 'u1', name: 'ci' }, key, NOW);
    expect(record).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      userId: 'u1',
      name: 'ci',
      role: 'user',
      prefix: 'tdm_abcdef',
      keyHash: hashApiKey(key),
      createdAt: NOW,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(record)).not.toContain(key);
    expect(newApiKeyRecord(T, { userId: 'u1', name: 'ci', role: 'admin' }, key, NOW).role).toBe(
      'admin',
    );
  });
});
