// Tenants, API keys and health.
import { describe, expect, it } from 'vitest';
import { DuplicateKeyError } from '../../port';
import { API_KEY_PREFIX, generateApiKey, hashApiKey } from '../../shared';
import { expectIso, newTenant, uniq, useStore, type MakeStore } from './harness';

export function identityContract(makeStore: MakeStore): void {
  describe('tenants', () => {
    const store = useStore(makeStore);

    it('creates, gets and lists a tenant', async () => {
      const name = uniq('acme');
      const tenant = await store().tenants.create({ name });
      expect(tenant.name).toBe(name);
      expect(tenant.id).toEqual(expect.any(String));
      expectIso(tenant.createdAt);
      expect(await store().tenants.get(tenant.id)).toEqual(tenant);
      expect((await store().tenants.list()).map((t) => t.id)).toContain(tenant.id);
    });

    it('keeps a caller-chosen id and rejects it twice', async () => {
      const id = uniq('tenant-id');
      const tenant = await store().tenants.create({ id, name: 'dev' });
      expect(tenant.id).toBe(id);
      await expect(store().tenants.create({ id, name: 'again' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
    });

    it('returns null for an unknown tenant', async () => {
      expect(await store().tenants.get(uniq('missing'))).toBeNull();
    });
  });

  describe('apiKeys', () => {
    const store = useStore(makeStore);

    it('stores only the hash and shows the plaintext once', async () => {
      const tenantId = await newTenant(store());
      const { record, plaintextKey } = await store().apiKeys.create(tenantId, {
        userId: 'u1',
        name: 'laptop',
      });
      expect(plaintextKey.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(record).toMatchObject({
        tenantId,
        userId: 'u1',
        name: 'laptop',
        role: 'user',
        lastUsedAt: null,
        revokedAt: null,
      });
      expectIso(record.createdAt);
      expect(record.keyHash).toBe(hashApiKey(plaintextKey));
      expect(record.keyHash).not.toBe(plaintextKey);
      expect(plaintextKey.startsWith(record.prefix)).toBe(true);
      expect(record.prefix.length).toBeLessThan(plaintextKey.length / 2);

      // What the store hands back later never carries the key itself.
      const listed = await store().apiKeys.list(tenantId);
      expect(listed).toEqual([record]);
      expect(JSON.stringify(listed)).not.toContain(plaintextKey);
      const found = await store().apiKeys.findByPlaintext(plaintextKey);
      expect(found).toEqual(record);
      expect(JSON.stringify(found)).not.toContain(plaintextKey);
    });

    it('finds keys by plaintext and not by anything else', async () => {
      const tenantId = await newTenant(store());
      const { record, plaintextKey } = await store().apiKeys.create(tenantId, {
        userId: 'u1',
        name: 'k',
        role: 'admin',
      });
      expect(record.role).toBe('admin');
      expect((await store().apiKeys.findByPlaintext(plaintextKey))?.id).toBe(record.id);
      expect(await store().apiKeys.findByPlaintext(generateApiKey())).toBeNull();
      expect(await store().apiKeys.findByPlaintext(record.keyHash)).toBeNull();
    });

    it('imports a chosen key once', async () => {
      const tenantId = await newTenant(store());
      const plaintextKey = generateApiKey();
      const record = await store().apiKeys.import(tenantId, {
        userId: 'dev',
        name: 'dev key',
        plaintextKey,
      });
      expect(record.keyHash).toBe(hashApiKey(plaintextKey));
      expect(record.role).toBe('user');
      expect(await store().apiKeys.findByPlaintext(plaintextKey)).toEqual(record);
      await expect(
        store().apiKeys.import(tenantId, { userId: 'dev', name: 'again', plaintextKey }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      // The hash is unique across tenants: one key can only ever authenticate one tenant.
      const other = await newTenant(store());
      await expect(
        store().apiKeys.import(other, { userId: 'dev', name: 'again', plaintextKey }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    it('lists a tenant’s keys', async () => {
      const tenantId = await newTenant(store());
      const a = await store().apiKeys.create(tenantId, { userId: 'u1', name: 'a' });
      const b = await store().apiKeys.create(tenantId, { userId: 'u2', name: 'b' });
      const ids = (await store().apiKeys.list(tenantId)).map((k) => k.id);
      expect(ids.sort()).toEqual([a.record.id, b.record.id].sort());
    });

    it('touches lastUsedAt', async () => {
      const tenantId = await newTenant(store());
      const { record, plaintextKey } = await store().apiKeys.create(tenantId, {
        userId: 'u1',
        name: 'k',
      });
      const at = new Date().toISOString();
      await store().apiKeys.touch(tenantId, record.id, at);
      expect((await store().apiKeys.findByPlaintext(plaintextKey))?.lastUsedAt).toBe(at);
      await expect(store().apiKeys.touch(tenantId, uniq('missing'), at)).resolves.toBeUndefined();
    });

    it('does not authenticate revoked keys', async () => {
      const tenantId = await newTenant(store());
      const { record, plaintextKey } = await store().apiKeys.create(tenantId, {
        userId: 'u1',
        name: 'k',
      });
      expect(await store().apiKeys.revoke(tenantId, record.id)).toBe(true);
      expect(await store().apiKeys.findByPlaintext(plaintextKey)).toBeNull();
      const [listed] = await store().apiKeys.list(tenantId);
      expectIso(listed?.revokedAt);
      expect(await store().apiKeys.revoke(tenantId, uniq('missing'))).toBe(false);
    });
  });

  describe('health', () => {
    const store = useStore(makeStore);

    it('reports ok with a latency', async () => {
      const health = await store().health();
      expect(health.ok).toBe(true);
      expect(health.store).toBe(store().kind);
      expect(health.latencyMs).toBeGreaterThanOrEqual(0);
      expect(health.error).toBeUndefined();
    });
  });
}
