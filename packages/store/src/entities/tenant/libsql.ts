// Tenants and API keys. Only the sha256 of a key is stored; the plaintext leaves `create`
// once and is never readable again.
import type { Row } from '@libsql/client';
import type { SqlClient } from '../../libsql/native-client';
import type { ApiKeyRole } from '@tandem/contracts';
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
import { firstRow, isUniqueViolation, iso, str, strOrNull } from '../../libsql/sql';

const toTenant = (row: Row): Tenant => ({
  id: str(row, 'id'),
  name: str(row, 'name'),
  createdAt: str(row, 'created_at'),
});

export function libsqlTenants(client: SqlClient): TenantRepository {
  return {
    async create(input) {
      const tenant = newTenantRecord(input, nowIso());
      try {
        const result = await client.execute({
          sql: 'INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?) RETURNING *',
          args: [tenant.id, tenant.name, tenant.createdAt],
        });
        return toTenant(firstRow(result.rows));
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateKeyError(`tenant ${tenant.id}`);
        throw error;
      }
    },
    async get(id) {
      const result = await client.execute({
        sql: 'SELECT * FROM tenants WHERE id = ?',
        args: [id],
      });
      const row = result.rows[0];
      return row ? toTenant(row) : null;
    },
    async list() {
      const result = await client.execute('SELECT * FROM tenants ORDER BY created_at, id');
      return result.rows.map(toTenant);
    },
  };
}

const toApiKey = (row: Row): ApiKeyRecord => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  userId: str(row, 'user_id'),
  name: str(row, 'name'),
  role: str(row, 'role') as ApiKeyRole,
  prefix: str(row, 'prefix'),
  keyHash: str(row, 'key_hash'),
  createdAt: str(row, 'created_at'),
  lastUsedAt: strOrNull(row, 'last_used_at'),
  revokedAt: strOrNull(row, 'revoked_at'),
});

export function libsqlApiKeys(client: SqlClient): ApiKeyRepository {
  async function insert(
    tenantId: string,
    input: NewApiKey,
    plaintextKey: string,
  ): Promise<ApiKeyRecord> {
    const key = newApiKeyRecord(tenantId, input, plaintextKey, nowIso());
    try {
      const result = await client.execute({
        sql: `INSERT INTO api_keys (id, tenant_id, user_id, name, role, prefix, key_hash, created_at,
                last_used_at, revoked_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        args: [
          key.id,
          key.tenantId,
          key.userId,
          key.name,
          key.role,
          key.prefix,
          key.keyHash,
          key.createdAt,
          key.lastUsedAt,
          key.revokedAt,
        ],
      });
      return toApiKey(firstRow(result.rows));
    } catch (error) {
      // Never echo the key (or its hash) into an error message that may be logged.
      if (isUniqueViolation(error)) throw new DuplicateKeyError('api key');
      throw error;
    }
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
      const result = await client.execute({
        sql: 'SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL',
        args: [hashApiKey(plaintextKey)],
      });
      const row = result.rows[0];
      return row ? toApiKey(row) : null;
    },
    async list(tenantId) {
      const result = await client.execute({
        sql: 'SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY created_at, id',
        args: [tenantId],
      });
      return result.rows.map(toApiKey);
    },
    async touch(tenantId, id, at) {
      await client.execute({
        sql: 'UPDATE api_keys SET last_used_at = ? WHERE tenant_id = ? AND id = ?',
        args: [iso(at), tenantId, id],
      });
    },
    async revoke(tenantId, id) {
      const result = await client.execute({
        sql: 'UPDATE api_keys SET revoked_at = ? WHERE tenant_id = ? AND id = ? AND revoked_at IS NULL',
        args: [nowIso(), tenantId, id],
      });
      return result.rowsAffected > 0;
    },
  };
}
