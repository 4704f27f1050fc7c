// The extraction, extraction-strategy and extraction-result collections. Every index the adapter
// relies on is declared here: createMongoStore's syncIndexes() drops the ones that are not.
import { Mixed, SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import type { Extraction, ExtractionResultRecord, ExtractionStrategy } from './record';

export type ExtractionDoc = MongoDoc<Extraction, 'createdAt' | 'updatedAt', 'schema' | 'data'>;

/** `cssSelector` is always written, null included: null is a value of the unique key. */
export type ExtractionStrategyDoc = MongoDoc<
  ExtractionStrategy,
  'lastUsed' | 'createdAt' | 'updatedAt',
  'outputSchema' | 'replay'
>;

export type ExtractionResultDoc = Omit<
  MongoDoc<
    ExtractionResultRecord,
    'createdAt',
    'data' | 'schemaUsed' | 'contentStats' | 'warnings' | 'errors'
  >,
  'errors'
> & {
  /**
   * The record's `errors`. Renamed because mongoose reserves `errors` on its documents (the
   * validation errors live there), and create() builds one.
   */
  extractionErrors: unknown;
};

export const extractionSchema = new Schema<ExtractionDoc>(
  {
    ...tenantOwned,
    taskId: String,
    url: String,
    schema: Mixed,
    data: Mixed,
    status: String,
    error: String,
    createdAt: Date,
    updatedAt: Date,
  },
  SCHEMA_OPTIONS,
);
extractionSchema.index({ tenantId: 1, id: 1 }, { unique: true });
extractionSchema.index({ tenantId: 1, createdAt: -1, id: -1 });
extractionSchema.index({ tenantId: 1, taskId: 1, createdAt: -1, id: -1 });

export const extractionStrategySchema = new Schema<ExtractionStrategyDoc>(
  {
    ...tenantOwned,
    domain: String,
    urlPattern: String,
    cssSelector: String,
    outputSchema: Mixed,
    schemaHash: String,
    queryTemplate: String,
    replay: Mixed,
    successCount: Number,
    failureCount: Number,
    lastUsed: Date,
    createdAt: Date,
    updatedAt: Date,
  },
  SCHEMA_OPTIONS,
);
extractionStrategySchema.index({ tenantId: 1, id: 1 }, { unique: true });
// Dedupe key of upsert(). A unique index treats null as a value, so two strategies without a
// selector share the key (the repository always writes cssSelector, null included).
extractionStrategySchema.index(
  { tenantId: 1, urlPattern: 1, schemaHash: 1, cssSelector: 1 },
  { unique: true },
);
// listByDomain(): a domain's strategies, most recently used first.
extractionStrategySchema.index({ tenantId: 1, domain: 1, lastUsed: -1, id: -1 });

export const extractionResultSchema = new Schema<ExtractionResultDoc>(
  {
    ...tenantOwned,
    taskId: String,
    extractionId: String,
    query: String,
    sourceUrl: String,
    data: Mixed,
    schemaUsed: Mixed,
    isPartial: Boolean,
    method: String,
    contentStats: Mixed,
    warnings: Mixed,
    // The record's `errors`: mongoose reserves that path name (see ExtractionResultDoc).
    extractionErrors: Mixed,
    createdAt: Date,
  },
  SCHEMA_OPTIONS,
);
extractionResultSchema.index({ tenantId: 1, id: 1 }, { unique: true });
// listByTask(), oldest first, with or without one aggregate's extractionId.
extractionResultSchema.index({ tenantId: 1, taskId: 1, createdAt: 1, id: 1 });
extractionResultSchema.index({ tenantId: 1, taskId: 1, extractionId: 1, createdAt: 1, id: 1 });
