// The tenant and API key collections. Every index the adapter relies on is declared here:
// createMongoStore's syncIndexes() drops the ones that are not.
import { SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import type { ApiKeyRecord, Tenant } from './record';

export type TenantDoc = MongoDoc<Tenant, 'createdAt'>;

export type ApiKeyDoc = MongoDoc<ApiKeyRecord, 'createdAt' | 'lastUsedAt' | 'revokedAt'>;

export const tenantSchema = new Schema<TenantDoc>(
  { id: String, name: String, createdAt: Date },
  SCHEMA_OPTIONS,
);
tenantSchema.index({ id: 1 }, { unique: true });

export const apiKeySchema = new Schema<ApiKeyDoc>(
  {
    ...tenantOwned,
    userId: String,
    name: String,
    role: String,
    prefix: String,
    keyHash: String,
    createdAt: Date,
    lastUsedAt: Date,
    revokedAt: Date,
  },
  SCHEMA_OPTIONS,
);
// Authentication looks a key up by hash alone (the tenant is what it tells us).
apiKeySchema.index({ keyHash: 1 }, { unique: true });
apiKeySchema.index({ tenantId: 1, id: 1 }, { unique: true });
apiKeySchema.index({ tenantId: 1, createdAt: 1, id: 1 });
