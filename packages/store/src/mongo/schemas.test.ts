// The index declarations of the Mongo adapter, checked without a server: what syncIndexes()
// will build at start-up is exactly what these schemas declare.
import { describe, expect, it } from 'vitest';
import { SKILL_TTL_MS } from '../port';
import mongoose from 'mongoose';
import { createModels } from './schemas';

// Read through the models, so the test sees the schemas syncIndexes() will, wherever each is
// declared.
const models = createModels(mongoose.createConnection());
const apiKeySchema = models.apiKeys.schema;
const collectedItemSchema = models.collectedItems.schema;
const counterSchema = models.counters.schema;
const extractionResultSchema = models.extractionResults.schema;
const extractionSchema = models.extractions.schema;
const extractionStrategySchema = models.extractionStrategies.schema;
const idempotencySchema = models.idempotency.schema;
const knowledgeChunkSchema = models.knowledgeChunks.schema;
const knowledgeDocumentSchema = models.knowledgeDocuments.schema;
const knowledgeJobSchema = models.knowledgeJobs.schema;
const knowledgeSettingsSchema = models.knowledgeSettings.schema;
const liveEventSchema = models.liveEvents.schema;
const messageSchema = models.messages.schema;
const queuedJobSchema = models.queuedJobs.schema;
const rateLimitSchema = models.rateLimits.schema;
const sessionSchema = models.sessions.schema;
const skillSchema = models.skills.schema;
const taskActionSchema = models.taskActions.schema;
const taskSchema = models.tasks.schema;
const tenantSchema = models.tenants.schema;
const tokenUsageSchema = models.tokenUsage.schema;
const uploadChunkSchema = models.uploadChunks.schema;
const uploadSchema = models.uploads.schema;

type IndexSpec = [Record<string, unknown>, Record<string, unknown>];

const indexes = (schema: { indexes(): unknown[] }): IndexSpec[] => schema.indexes() as IndexSpec[];

const withKey = (schema: { indexes(): unknown[] }, key: Record<string, number | string>) =>
  indexes(schema).find(([fields]) => JSON.stringify(fields) === JSON.stringify(key));

const TENANT_OWNED = {
  apiKeys: apiKeySchema,
  sessions: sessionSchema,
  messages: messageSchema,
  tasks: taskSchema,
  taskActions: taskActionSchema,
  tokenUsage: tokenUsageSchema,
  skills: skillSchema,
  knowledgeDocuments: knowledgeDocumentSchema,
  knowledgeChunks: knowledgeChunkSchema,
  knowledgeSettings: knowledgeSettingsSchema,
  knowledgeJobs: knowledgeJobSchema,
  uploads: uploadSchema,
  uploadChunks: uploadChunkSchema,
  queuedJobs: queuedJobSchema,
  extractions: extractionSchema,
  extractionStrategies: extractionStrategySchema,
  extractionResults: extractionResultSchema,
  collectedItems: collectedItemSchema,
  idempotency: idempotencySchema,
  counters: counterSchema,
};

/** Indexes that cannot start with tenantId, and why. */
const NOT_TENANT_FIRST = new Set([
  'apiKeys:{"keyHash":1}', // authentication finds the key before it knows the tenant
  'tokenUsage:{"id":1}', // generation ids are unique across tenants (a replay is a no-op)
  'skills:{"lastUsed":1}', // TTL index: expiry is a cross-tenant sweep
  'idempotency:{"expiresAt":1}', // TTL index
  'knowledgeJobs:{"status":1,"createdAt":1,"id":1}', // listUnfinished: every tenant's crawls resume
  'uploads:{"createdAt":1,"id":1}', // the sweep of forgotten uploads spans tenants
  // The embedded queue's rows are keyed by (queue, id), and workers claim across tenants.
  'queuedJobs:{"queue":1,"id":1}',
  'queuedJobs:{"queue":1,"status":1,"runAt":1}',
  'queuedJobs:{"queue":1,"status":1,"leaseExpiresAt":1}',
]);

describe('mongo schemas', () => {
  it('lead every index of a tenant-owned collection with tenantId', () => {
    for (const [name, schema] of Object.entries(TENANT_OWNED)) {
      expect(indexes(schema).length, name).toBeGreaterThan(0);
      for (const [fields] of indexes(schema)) {
        const label = `${name}:${JSON.stringify(fields)}`;
        if (NOT_TENANT_FIRST.has(label)) continue;
        expect([label, Object.keys(fields)[0]]).toEqual([label, 'tenantId']);
      }
    }
  });

  it('declare the spec’s skills indexes: TTL on lastUsed, lookup and dedupe keys', () => {
    expect(withKey(skillSchema, { lastUsed: 1 })?.[1]).toMatchObject({
      expireAfterSeconds: SKILL_TTL_MS / 1000,
    });
    expect(SKILL_TTL_MS / 1000).toBe(90 * 24 * 60 * 60);
    expect(withKey(skillSchema, { tenantId: 1, domain: 1, goal: 1 })).toBeDefined();
    expect(
      withKey(skillSchema, {
        tenantId: 1,
        domain: 1,
        goal: 1,
        'failedState.action': 1,
        'successfulAction.action': 1,
      })?.[1],
    ).toMatchObject({ unique: true });
  });

  it('declare every unique key the repositories rely on', () => {
    const unique: [string, { indexes(): unknown[] }, Record<string, number>][] = [
      ['tenants.id', tenantSchema, { id: 1 }],
      ['apiKeys.keyHash', apiKeySchema, { keyHash: 1 }],
      ['idempotency (tenant, key)', idempotencySchema, { tenantId: 1, key: 1 }],
      [
        'collectedItems (tenant, task, type, uniqueKey)',
        collectedItemSchema,
        { tenantId: 1, taskId: 1, type: 1, uniqueKey: 1 },
      ],
      ['tokenUsage.id', tokenUsageSchema, { id: 1 }],
      [
        'extractionStrategies (tenant, url pattern, schema, selector)',
        extractionStrategySchema,
        { tenantId: 1, urlPattern: 1, schemaHash: 1, cssSelector: 1 },
      ],
      ['messages (tenant, session, seq)', messageSchema, { tenantId: 1, sessionId: 1, seq: 1 }],
      ['rateLimits.key', rateLimitSchema, { key: 1 }],
      ['counters (tenant, scope, key)', counterSchema, { tenantId: 1, scope: 1, key: 1 }],
      ['knowledgeSettings.tenantId', knowledgeSettingsSchema, { tenantId: 1 }],
      ['queuedJobs (queue, id)', queuedJobSchema, { queue: 1, id: 1 }],
      ['liveEvents.seq', liveEventSchema, { seq: 1 }],
      ['uploadChunks (tenant, upload, n)', uploadChunkSchema, { tenantId: 1, uploadId: 1, n: 1 }],
    ];
    for (const [label, schema, key] of unique) {
      expect([label, withKey(schema, key)?.[1]]).toEqual([label, { unique: true }]);
    }
    // Every record id is unique within its tenant.
    for (const [name, schema] of Object.entries(TENANT_OWNED)) {
      if (
        name === 'idempotency' ||
        name === 'counters' ||
        name === 'tokenUsage' ||
        name === 'knowledgeSettings' ||
        name === 'queuedJobs' ||
        name === 'uploadChunks' // parts of an upload: keyed by (uploadId, n) above
      ) {
        continue;
      }
      expect([name, withKey(schema, { tenantId: 1, id: 1 })?.[1]]).toEqual([
        name,
        { unique: true },
      ]);
    }
  });

  it('declare the extraction lookups: strategies by domain, results by task', () => {
    expect(
      withKey(extractionStrategySchema, { tenantId: 1, domain: 1, lastUsed: -1, id: -1 }),
    ).toBeDefined();
    expect(
      withKey(extractionResultSchema, { tenantId: 1, taskId: 1, createdAt: 1, id: 1 }),
    ).toBeDefined();
    expect(
      withKey(extractionResultSchema, {
        tenantId: 1,
        taskId: 1,
        extractionId: 1,
        createdAt: 1,
        id: 1,
      }),
    ).toBeDefined();
    // mongoose reserves `errors` on documents: the record's errors are stored under another name.
    expect(extractionResultSchema.path('errors')).toBeUndefined();
    expect(extractionResultSchema.path('extractionErrors')?.instance).toBe('Mixed');
    expect(extractionResultSchema.path('isPartial')?.instance).toBe('Boolean');
  });

  it('declare the knowledge search indexes: a tenant-scoped text index, source URL lookup', () => {
    expect(
      withKey(knowledgeChunkSchema, { tenantId: 1, content: 'text', headingPath: 'text' })?.[1],
    ).toMatchObject({ name: 'knowledge_chunks_text' });
    expect(withKey(knowledgeDocumentSchema, { tenantId: 1, sourceUrl: 1 })).toBeDefined();
    expect(withKey(knowledgeJobSchema, { tenantId: 1, createdAt: -1, id: -1 })).toBeDefined();
    // mongoose reserves `errors` on documents: a job's page errors are stored under another name.
    expect(knowledgeJobSchema.path('errors')).toBeUndefined();
    expect(knowledgeJobSchema.path('pageErrors')?.instance).toBe('Mixed');
  });

  it('declare the event relay’s indexes: unique seq, and (channel, seq) for listAfter', () => {
    // Store-wide (the channel names its tenant), so exactly these and no tenantId-led ones.
    expect(indexes(liveEventSchema)).toEqual([
      [{ seq: 1 }, { unique: true }],
      [{ channel: 1, seq: 1 }, {}],
    ]);
    expect(liveEventSchema.path('tenantId')).toBeUndefined();
    expect(liveEventSchema.path('data')?.instance).toBe('Mixed');
  });

  it('expire idempotency claims and rate-limit windows by TTL', () => {
    expect(withKey(idempotencySchema, { expiresAt: 1 })?.[1]).toMatchObject({
      expireAfterSeconds: 0,
    });
    expect(withKey(rateLimitSchema, { expiresAt: 1 })?.[1]).toMatchObject({
      expireAfterSeconds: 0,
    });
  });

  it('keep mongoose from adding anything the port does not have', () => {
    for (const schema of [
      ...Object.values(TENANT_OWNED),
      tenantSchema,
      rateLimitSchema,
      liveEventSchema,
    ]) {
      expect(schema.get('versionKey')).toBe(false);
      expect(schema.get('id')).toBe(false);
      expect(schema.get('minimize')).toBe(false);
      expect(schema.get('autoIndex')).toBe(false);
    }
    // `type` is a real field of collected items, not a type declaration.
    expect(collectedItemSchema.path('type')?.instance).toBe('String');
    expect(collectedItemSchema.path('uniqueKey')?.instance).toBe('String');
  });
});
