// Tenants and API keys. Only the sha256 of a key is stored; the plaintext leaves `create`
// once and is never readable again.
import { DuplicateKeyError } from '../../port';
import {
  newApiKeyRecord,
  newTenantRecord,
  type ApiKeyRecord,
  type ApiKeyRepository,
  type NewApiKey,
  type Tenant,
  type TenantRepository,
} from './record';
import { generateApiKey, hashApiKey, nowIso } from '../../shared';
import type { ApiKeyDoc, TenantDoc } from './mongo-schema';
import {
  activeKeyFilter,
  keysQuery,
  revokeKeyUpdate,
  tenantFilter,
  tenantsQuery,
  touchKeyUpdate,
} from './mongo-queries';
import type { MongoModels } from '../../mongo/schemas';
import { iso, isoOrNull, isMongoDuplicateKey, nowDate, toDate } from '../../mongo/util';

const toTenant = (doc: TenantDoc): Tenant => ({
  id: doc.id,
  name: doc.name,
  createdAt: iso(doc.createdAt),
});

export function mongoTenants({ tenants }: MongoModels): TenantRepository {
  return {
    async create(input) {
      const tenant = newTenantRecord(input, nowIso());
      const doc: TenantDoc = { ...tenant, createdAt: toDate(tenant.createdAt) };
      try {
        await tenants.create(doc);
      } catch (error) {
        if (isMongoDuplicateKey(error)) throw new DuplicateKeyError(`tenant ${doc.id}`);
        throw error;
      }
      return toTenant(doc);
    },
    async get(id) {
      const doc = await tenants.findOne(tenantFilter(id)).lean().exec();
      return doc ? toTenant(doc) : null;
    },
    async list() {
      const query = tenantsQuery();
      const docs = await tenants.find(query.filter).sort(query.sort).lean().exec();
      return docs.map(toTenant);
    },
  };
}

const toApiKey = (doc: ApiKeyDoc): ApiKeyRecord => ({
  id: doc.id,
  tenantId: doc.tenantId,
  userId: doc.userId,
  name: doc.name,
  role: doc.role,
  prefix: doc.prefix,
  keyHash: doc.keyHash,
  createdAt: iso(doc.createdAt),
  lastUsedAt: isoOrNull(doc.lastUsedAt),
  revokedAt: isoOrNull(doc.revokedAt),
});

export function mongoApiKeys({ apiKeys }: MongoModels): ApiKeyRepository {
  async function insert(
    tenantId: string,
    input: NewApiKey,
    plaintextKey: string,
  ): Promise<ApiKeyRecord> {
    const key = newApiKeyRecord(tenantId, input, plaintextKey, nowIso());
    const doc: ApiKeyDoc = {
      ...key,
      createdAt: toDate(key.createdAt),
      lastUsedAt: key.lastUsedAt === null ? null : toDate(key.lastUsedAt),
      revokedAt: key.revokedAt === null ? null : toDate(key.revokedAt),
    };
    try {
      await apiKeys.create(doc);
    } catch (error) {
      // Never echo the key (or its hash) into an error message that may be logged.
      if (isMongoDuplicateKey(error)) throw new DuplicateKeyError('api key');
      throw error;
    }
    return toApiKey(doc);
  }

  return {
    async create(tenantId, input) {
      const plaintextKey = generateApiKey();
      const record = await insert(tenantId, input, plaintextKey);
      return { record, plaintextKey };
    },
    import(tenantId, input) {
      return insert(tenantId, input, input.plaintextKey);
    },
    async findByPlaintext(plaintextKey) {
      // The one lookup without a tenant: the key is what tells us the tenant.
      const doc = await apiKeys
        .findOne(activeKeyFilter(hashApiKey(plaintextKey)))
        .lean()
        .exec();
      return doc ? toApiKey(doc) : null;
    },
    async list(tenantId) {
      const query = keysQuery(tenantId);
      const docs = await apiKeys.find(query.filter).sort(query.sort).lean().exec();
      return docs.map(toApiKey);
    },
    async touch(tenantId, id, at) {
      const { filter, update } = touchKeyUpdate(tenantId, id, toDate(at));
      await apiKeys.updateOne(filter, update).exec();
    },
    async revoke(tenantId, id) {
      const { filter, update } = revokeKeyUpdate(tenantId, id, nowDate());
      const result = await apiKeys.updateOne(filter, update).exec();
      return result.modifiedCount > 0;
    },
  };
}
