// Tenants and their API keys (a key acts as one user of one tenant).
import type { ApiKeyRole } from '@tandem/contracts';
import { hashApiKey, keyDisplayPrefix, newId } from '../../shared';

export interface Tenant {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  /** The user the key acts as (messages, usage logs and tasks are attributed to it). */
  userId: string;
  name: string;
  role: ApiKeyRole;
  /** First characters of the key, safe to show in lists ("tdm_AbC1…"). */
  prefix: string;
  /** sha256 of the full key, hex. The key itself is never stored. */
  keyHash: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface TenantRepository {
  create(input: { name: string; id?: string }): Promise<Tenant>;
  get(id: string): Promise<Tenant | null>;
  list(): Promise<Tenant[]>;
}

export interface ApiKeyRepository {
  /** Generates a key, stores only its hash, and returns the plaintext once. */
  create(
    tenantId: string,
    input: { userId: string; name: string; role?: ApiKeyRole },
  ): Promise<{ record: ApiKeyRecord; plaintextKey: string }>;
  /**
   * Stores a key whose plaintext the caller chose (the dev key from TANDEM_DEV_API_KEY).
   * Throws DuplicateKeyError if that key already exists.
   */
  import(
    tenantId: string,
    input: { userId: string; name: string; role?: ApiKeyRole; plaintextKey: string },
  ): Promise<ApiKeyRecord>;
  /** Authentication lookup: by the hash of a presented key. Revoked keys are not returned. */
  findByPlaintext(plaintextKey: string): Promise<ApiKeyRecord | null>;
  list(tenantId: string): Promise<ApiKeyRecord[]>;
  touch(tenantId: string, id: string, at: string): Promise<void>;
  revoke(tenantId: string, id: string): Promise<boolean>;
}

// The repositories declare these inputs inline; named here so the builders read.
export type NewTenant = Parameters<TenantRepository['create']>[0];

export type NewApiKey = Parameters<ApiKeyRepository['create']>[1];

export function newTenantRecord(input: NewTenant, now: string): Tenant {
  return { id: input.id ?? newId(), name: input.name, createdAt: now };
}

/** Keys get a fresh id always (callers never choose one); only the hash of the key is kept. */
export function newApiKeyRecord(
  tenantId: string,
  input: NewApiKey,
  plaintextKey: string,
  now: string,
): ApiKeyRecord {
  return {
    id: newId(),
    tenantId,
    userId: input.userId,
    name: input.name,
    role: input.role ?? 'user',
    prefix: keyDisplayPrefix(plaintextKey),
    keyHash: hashApiKey(plaintextKey),
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  };
}
