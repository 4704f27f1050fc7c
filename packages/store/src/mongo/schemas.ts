// One mongoose schema per collection (document shapes: documents.ts). Mongo's own `_id` (an
// ObjectId) stays internal: it only breaks ties in insertion order and never reaches a record.
//
// Index rule: every lookup the port offers is a tenant-scoped index range, so tenantId leads
// each compound index (also the prefix a future tenant shard key needs for unique indexes).
// `createMongoStore` runs syncIndexes() for every model at start, which also drops indexes on
// these collections that are not declared here: declare every index here.
//
// No schema defaults and no `required` on strings: the repositories always write every field
// explicitly (so upserts cannot collide with setDefaultsOnInsert), and mongoose's required
// check would reject legitimately empty strings (a tenant-wide knowledge domain is "").
import mongoose, { type Connection, type Model } from 'mongoose';
import { SKILL_TTL_MS } from '../port';
import type {
  TenantDoc,
  ApiKeyDoc,
  SessionDoc,
  MessageDoc,
  TaskDoc,
  TaskActionDoc,
  TokenUsageDoc,
  SkillDoc,
  KnowledgeDocumentDoc,
  KnowledgeChunkDoc,
  KnowledgeJobDoc,
  KnowledgeSettingsDoc,
  UploadDoc,
  UploadChunkDoc,
  QueuedJobDoc,
  LiveEventDoc,
  ExtractionDoc,
  ExtractionStrategyDoc,
  ExtractionResultDoc,
  CollectedItemDoc,
  SourceDocumentDoc,
  DocumentExtractionDoc,
  StackDoc,
  StackRowDoc,
  IdempotencyDoc,
  RateLimitDoc,
  CounterDoc,
} from './documents';

const { Schema } = mongoose;
const Mixed = Schema.Types.Mixed;

/** Options shared by every schema. */
const OPTIONS = {
  // Records carry their own string `id`; mongoose's virtual `id` (= _id as string) must not
  // shadow it.
  id: false,
  versionKey: false,
  // JSON-ish fields round-trip exactly as given, empty objects included.
  minimize: false,
  // Indexes are built once, awaited, by createMongoStore (syncIndexes), not in the background.
  autoIndex: false,
  autoCreate: false,
  // Unknown fields are dropped rather than stored: the shape is the port's, nothing else.
  strict: true,
} as const;

const TTL_SECONDS = SKILL_TTL_MS / 1000;

// ---------------------------------------------------------------- schemas

const tenantOwned = { tenantId: { type: String, required: true }, id: String } as const;

export const tenantSchema = new Schema<TenantDoc>(
  { id: String, name: String, createdAt: Date },
  OPTIONS,
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
  OPTIONS,
);
// Authentication looks a key up by hash alone (the tenant is what it tells us).
apiKeySchema.index({ keyHash: 1 }, { unique: true });
apiKeySchema.index({ tenantId: 1, id: 1 }, { unique: true });
apiKeySchema.index({ tenantId: 1, createdAt: 1, id: 1 });

export const sessionSchema = new Schema<SessionDoc>(
  {
    ...tenantOwned,
    userId: String,
    status: String,
    url: String,
    title: String,
    createdAt: Date,
    updatedAt: Date,
  },
  OPTIONS,
);
sessionSchema.index({ tenantId: 1, id: 1 }, { unique: true });
sessionSchema.index({ tenantId: 1, userId: 1, createdAt: -1, id: -1 });

export const messageSchema = new Schema<MessageDoc>(
  {
    ...tenantOwned,
    sessionId: String,
    seq: Number,
    role: String,
    content: String,
    actionString: String,
    taskId: String,
    status: String,
    error: String,
    domSummary: String,
    createdAt: Date,
  },
  OPTIONS,
);
messageSchema.index({ tenantId: 1, id: 1 }, { unique: true });
// Unique: two racing appends can never share a seq.
messageSchema.index({ tenantId: 1, sessionId: 1, seq: 1 }, { unique: true });

export const taskSchema = new Schema<TaskDoc>(
  {
    ...tenantOwned,
    userId: String,
    sessionId: String,
    url: String,
    query: String,
    status: String,
    complexity: String,
    plan: Mixed,
    hierarchicalPlan: Mixed,
    currentStepIndex: Number,
    corrections: Mixed,
    metrics: Mixed,
    lastChain: Mixed,
    webSearchResult: Mixed,
    result: String,
    collectLimit: Number,
    consecutiveFailures: Number,
    consecutiveSuccessWithoutTaskComplete: Number,
    version: Number,
    createdAt: Date,
    updatedAt: Date,
  },
  OPTIONS,
);
taskSchema.index({ tenantId: 1, id: 1 }, { unique: true });
taskSchema.index({ tenantId: 1, createdAt: -1, id: -1 });
taskSchema.index({ tenantId: 1, userId: 1, createdAt: -1, id: -1 });
// findActive and list({ sessionId }).
taskSchema.index({ tenantId: 1, sessionId: 1, status: 1, createdAt: -1 });
// expireStale.
taskSchema.index({ tenantId: 1, status: 1, updatedAt: 1 });

export const taskActionSchema = new Schema<TaskActionDoc>(
  {
    ...tenantOwned,
    taskId: String,
    stepIndex: Number,
    thought: String,
    action: String,
    expectedOutcome: Mixed,
    beforeState: Mixed,
    verification: Mixed,
    status: String,
    metrics: Mixed,
    createdAt: Date,
  },
  OPTIONS,
);
taskActionSchema.index({ tenantId: 1, id: 1 }, { unique: true });
taskActionSchema.index({ tenantId: 1, taskId: 1, stepIndex: 1, createdAt: 1 });

export const tokenUsageSchema = new Schema<TokenUsageDoc>(
  {
    ...tenantOwned,
    userId: String,
    sessionId: String,
    messageId: String,
    taskId: String,
    traceId: String,
    provider: String,
    model: String,
    actionType: String,
    inputTokens: Number,
    outputTokens: Number,
    cachedInputTokens: Number,
    thinkingTokens: Number,
    totalTokens: Number,
    costMicroUsd: Number,
    durationMs: Number,
    timestamp: Date,
  },
  OPTIONS,
);
// The generation id: a retried dual-write of the same LLM call must not bill twice.
tokenUsageSchema.index({ id: 1 }, { unique: true });
// Billing rollups and list() by time window.
tokenUsageSchema.index({ tenantId: 1, timestamp: 1 });
tokenUsageSchema.index({ tenantId: 1, taskId: 1, timestamp: 1 });

export const skillSchema = new Schema<SkillDoc>(
  {
    ...tenantOwned,
    domain: String,
    goal: String,
    failedState: { action: String, elementDescription: String, errorType: String },
    successfulAction: { action: String, elementDescription: String, strategy: String },
    successCount: Number,
    failureCount: Number,
    lastUsed: Date,
    createdAt: Date,
  },
  OPTIONS,
);
skillSchema.index({ tenantId: 1, id: 1 }, { unique: true });
skillSchema.index({ tenantId: 1, domain: 1, goal: 1 });
// Dedupe key of upsert().
skillSchema.index(
  {
    tenantId: 1,
    domain: 1,
    goal: 1,
    'failedState.action': 1,
    'successfulAction.action': 1,
  },
  { unique: true },
);
// find(): a domain's skills, most recently used first.
skillSchema.index({ tenantId: 1, domain: 1, lastUsed: -1 });
// The spec's 90-day TTL since lastUsed. The monitor runs about once a minute, so find() also
// filters on lastUsed itself.
skillSchema.index({ lastUsed: 1 }, { expireAfterSeconds: TTL_SECONDS });

export const knowledgeDocumentSchema = new Schema<KnowledgeDocumentDoc>(
  {
    ...tenantOwned,
    domain: String,
    sourceUrl: String,
    title: String,
    mimeType: String,
    status: String,
    metadata: Mixed,
    createdAt: Date,
    updatedAt: Date,
  },
  OPTIONS,
);
knowledgeDocumentSchema.index({ tenantId: 1, id: 1 }, { unique: true });
knowledgeDocumentSchema.index({ tenantId: 1, createdAt: 1, id: 1 });
knowledgeDocumentSchema.index({ tenantId: 1, domain: 1, createdAt: 1 });
// listDocuments({ sourceUrl }): re-ingesting a page finds its document.
knowledgeDocumentSchema.index({ tenantId: 1, sourceUrl: 1 });

export const knowledgeChunkSchema = new Schema<KnowledgeChunkDoc>(
  {
    ...tenantOwned,
    documentId: String,
    domain: String,
    ordinal: Number,
    content: String,
    headingPath: Mixed,
    tokenCount: Number,
    embedding: Mixed,
    phase: String,
    triggerAction: String,
    supersededBy: String,
    createdAt: Date,
  },
  OPTIONS,
);
knowledgeChunkSchema.index({ tenantId: 1, id: 1 }, { unique: true });
knowledgeChunkSchema.index({ tenantId: 1, documentId: 1, ordinal: 1 });
knowledgeChunkSchema.index({ tenantId: 1, domain: 1, documentId: 1, ordinal: 1 });
// searchLexical ($text). A collection has one text index; the tenantId prefix makes every
// $text query name its tenant (Mongo refuses one without an equality on it) and keeps each
// search inside that tenant's index range. headingPath (an array of strings) is searched with
// the content. Vector search lives in Atlas search indexes instead: knowledge-vector-index.ts.
knowledgeChunkSchema.index(
  { tenantId: 1, content: 'text', headingPath: 'text' },
  { name: 'knowledge_chunks_text', default_language: 'english' },
);

export const knowledgeSettingsSchema = new Schema<KnowledgeSettingsDoc>(
  { tenantId: { type: String, required: true }, allowedDomains: Mixed, updatedAt: Date },
  OPTIONS,
);
knowledgeSettingsSchema.index({ tenantId: 1 }, { unique: true });

export const knowledgeJobSchema = new Schema<KnowledgeJobDoc>(
  {
    ...tenantOwned,
    userId: String,
    kind: String,
    url: String,
    strategy: String,
    maxPages: Number,
    maxDepth: Number,
    domain: String,
    status: String,
    progress: Mixed,
    frontier: Mixed,
    visited: Mixed,
    pageErrors: Mixed,
    error: String,
    createdAt: Date,
    updatedAt: Date,
    startedAt: Date,
    finishedAt: Date,
    upload: Mixed,
  },
  OPTIONS,
);
knowledgeJobSchema.index({ tenantId: 1, id: 1 }, { unique: true });
knowledgeJobSchema.index({ tenantId: 1, createdAt: -1, id: -1 });
// listUnfinished: a restarted server resumes every tenant's queued and running crawls.
knowledgeJobSchema.index({ status: 1, createdAt: 1, id: 1 });

export const uploadSchema = new Schema<UploadDoc>(
  {
    ...tenantOwned,
    fileName: String,
    mimeType: String,
    sizeBytes: Number,
    chunks: Number,
    createdAt: Date,
  },
  OPTIONS,
);
uploadSchema.index({ tenantId: 1, id: 1 }, { unique: true });
// listCreatedBefore: the sweep of uploads left behind, across tenants, oldest first.
uploadSchema.index({ createdAt: 1, id: 1 });

export const uploadChunkSchema = new Schema<UploadChunkDoc>(
  {
    tenantId: { type: String, required: true },
    uploadId: String,
    n: Number,
    data: Buffer,
  },
  OPTIONS,
);
// A file's parts in order; the unique key also keeps a part from being written twice.
uploadChunkSchema.index({ tenantId: 1, uploadId: 1, n: 1 }, { unique: true });

export const queuedJobSchema = new Schema<QueuedJobDoc>(
  {
    queue: String,
    id: String,
    tenantId: { type: String, required: true },
    data: Mixed,
    status: String,
    attempts: Number,
    maxAttempts: Number,
    backoffMs: Number,
    runAt: Date,
    owner: String,
    leaseExpiresAt: Date,
    error: String,
    createdAt: Date,
    updatedAt: Date,
    finishedAt: Date,
  },
  OPTIONS,
);
// The job's key: the caller's id within its queue. Also serves get (the tenant is a filter).
queuedJobSchema.index({ queue: 1, id: 1 }, { unique: true });
// claim, across the queue's tenants: waiting jobs in runAt order, active ones by lease.
queuedJobSchema.index({ queue: 1, status: 1, runAt: 1 });
queuedJobSchema.index({ queue: 1, status: 1, leaseExpiresAt: 1 });

// Store-wide, like the queue: the channel names its tenant, and only the event bus reads it.
export const liveEventSchema = new Schema<LiveEventDoc>(
  { seq: Number, channel: String, origin: String, data: Mixed, createdAt: Date },
  OPTIONS,
);
// The counter hands out each seq once; the index keeps it so, and serves lastSeq.
liveEventSchema.index({ seq: 1 }, { unique: true });
// listAfter, polled several times a second by every process: the followed channels' events
// after the last seq seen.
liveEventSchema.index({ channel: 1, seq: 1 });

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
  OPTIONS,
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
  OPTIONS,
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
    // The record's `errors`: mongoose reserves that path name (documents.ts).
    extractionErrors: Mixed,
    createdAt: Date,
  },
  OPTIONS,
);
extractionResultSchema.index({ tenantId: 1, id: 1 }, { unique: true });
// listByTask(), oldest first, with or without one aggregate's extractionId.
extractionResultSchema.index({ tenantId: 1, taskId: 1, createdAt: 1, id: 1 });
extractionResultSchema.index({ tenantId: 1, taskId: 1, extractionId: 1, createdAt: 1, id: 1 });

export const collectedItemSchema = new Schema<CollectedItemDoc>(
  {
    ...tenantOwned,
    taskId: String,
    // Spelled out: a bare `type: String` would read as this object's own type declaration.
    type: { type: String },
    uniqueKey: String,
    data: Mixed,
    sourceUrl: String,
    seq: Number,
    createdAt: Date,
  },
  OPTIONS,
);
collectedItemSchema.index({ tenantId: 1, id: 1 }, { unique: true });
collectedItemSchema.index({ tenantId: 1, taskId: 1, type: 1, uniqueKey: 1 }, { unique: true });
collectedItemSchema.index({ tenantId: 1, taskId: 1, seq: 1 });
collectedItemSchema.index({ tenantId: 1, taskId: 1, type: 1, seq: 1 });

export const sourceDocumentSchema = new Schema<SourceDocumentDoc>(
  {
    ...tenantOwned,
    userId: String,
    fileName: String,
    title: String,
    mimeType: String,
    sizeBytes: Number,
    pages: Mixed,
    pageCount: Number,
    characters: Number,
    warnings: Mixed,
    status: String,
    error: String,
    failureCode: String,
    createdAt: Date,
  },
  OPTIONS,
);
sourceDocumentSchema.index({ tenantId: 1, id: 1 }, { unique: true });
sourceDocumentSchema.index({ tenantId: 1, userId: 1, createdAt: -1, id: -1 });
sourceDocumentSchema.index({ tenantId: 1, createdAt: -1, id: -1 });

export const documentExtractionSchema = new Schema<DocumentExtractionDoc>(
  {
    ...tenantOwned,
    userId: String,
    documentId: String,
    status: String,
    documentType: String,
    fields: Mixed,
    confidences: Mixed,
    schema: Mixed,
    instructions: String,
    costMicroUsd: Number,
    tokens: Number,
    error: String,
    writes: Mixed,
    createdAt: Date,
    updatedAt: Date,
  },
  OPTIONS,
);
documentExtractionSchema.index({ tenantId: 1, id: 1 }, { unique: true });
documentExtractionSchema.index({ tenantId: 1, createdAt: -1, id: -1 });
documentExtractionSchema.index({ tenantId: 1, userId: 1, createdAt: -1, id: -1 });
documentExtractionSchema.index({ tenantId: 1, documentId: 1, createdAt: -1, id: -1 });

export const stackSchema = new Schema<StackDoc>(
  {
    ...tenantOwned,
    userId: String,
    name: String,
    documentIds: Mixed,
    columns: Mixed,
    status: String,
    instructions: String,
    costMicroUsd: Number,
    tokens: Number,
    error: String,
    createdAt: Date,
    updatedAt: Date,
  },
  OPTIONS,
);
stackSchema.index({ tenantId: 1, id: 1 }, { unique: true });
stackSchema.index({ tenantId: 1, userId: 1, createdAt: -1, id: -1 });
stackSchema.index({ tenantId: 1, createdAt: -1, id: -1 });

export const stackRowSchema = new Schema<StackRowDoc>(
  {
    tenantId: { type: String, required: true },
    stackId: String,
    userId: String,
    documentId: String,
    position: Number,
    cells: Mixed,
    confidences: Mixed,
    createdAt: Date,
    updatedAt: Date,
  },
  OPTIONS,
);
stackRowSchema.index({ tenantId: 1, stackId: 1, documentId: 1 }, { unique: true });
stackRowSchema.index({ tenantId: 1, stackId: 1, position: 1 });

export const idempotencySchema = new Schema<IdempotencyDoc>(
  {
    tenantId: { type: String, required: true },
    key: String,
    scope: String,
    requestHash: String,
    status: String,
    response: Mixed,
    createdAt: Date,
    expiresAt: Date,
  },
  OPTIONS,
);
idempotencySchema.index({ tenantId: 1, key: 1 }, { unique: true });
// Expired claims disappear on their own; begin() may replace them before the monitor runs.
idempotencySchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export const rateLimitSchema = new Schema<RateLimitDoc>(
  { key: String, consumed: Number, expiresAtMs: Number, expiresAt: Date },
  OPTIONS,
);
rateLimitSchema.index({ key: 1 }, { unique: true });
rateLimitSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export const counterSchema = new Schema<CounterDoc>(
  { tenantId: { type: String, required: true }, scope: String, key: String, seq: Number },
  OPTIONS,
);
counterSchema.index({ tenantId: 1, scope: 1, key: 1 }, { unique: true });

// ---------------------------------------------------------------- models

export interface MongoModels {
  tenants: Model<TenantDoc>;
  apiKeys: Model<ApiKeyDoc>;
  sessions: Model<SessionDoc>;
  messages: Model<MessageDoc>;
  tasks: Model<TaskDoc>;
  taskActions: Model<TaskActionDoc>;
  tokenUsage: Model<TokenUsageDoc>;
  skills: Model<SkillDoc>;
  knowledgeDocuments: Model<KnowledgeDocumentDoc>;
  knowledgeChunks: Model<KnowledgeChunkDoc>;
  knowledgeSettings: Model<KnowledgeSettingsDoc>;
  knowledgeJobs: Model<KnowledgeJobDoc>;
  uploads: Model<UploadDoc>;
  uploadChunks: Model<UploadChunkDoc>;
  queuedJobs: Model<QueuedJobDoc>;
  liveEvents: Model<LiveEventDoc>;
  extractions: Model<ExtractionDoc>;
  extractionStrategies: Model<ExtractionStrategyDoc>;
  extractionResults: Model<ExtractionResultDoc>;
  collectedItems: Model<CollectedItemDoc>;
  documents: Model<SourceDocumentDoc>;
  documentExtractions: Model<DocumentExtractionDoc>;
  stacks: Model<StackDoc>;
  stackRows: Model<StackRowDoc>;
  idempotency: Model<IdempotencyDoc>;
  rateLimits: Model<RateLimitDoc>;
  counters: Model<CounterDoc>;
}

/** Collection names, fixed here so they never depend on mongoose's pluralisation rules. */
export const COLLECTIONS: Record<keyof MongoModels, string> = {
  tenants: 'tenants',
  apiKeys: 'apiKeys',
  sessions: 'sessions',
  messages: 'messages',
  tasks: 'tasks',
  taskActions: 'taskActions',
  tokenUsage: 'tokenUsageLogs',
  skills: 'skills',
  knowledgeDocuments: 'knowledgeDocuments',
  knowledgeChunks: 'knowledgeChunks',
  knowledgeSettings: 'knowledgeSettings',
  knowledgeJobs: 'knowledgeJobs',
  uploads: 'uploads',
  uploadChunks: 'uploadChunks',
  queuedJobs: 'queuedJobs',
  liveEvents: 'liveEvents',
  extractions: 'extractions',
  extractionStrategies: 'extractionStrategies',
  extractionResults: 'extractionResults',
  collectedItems: 'collectedItems',
  documents: 'documents',
  documentExtractions: 'documentExtractions',
  stacks: 'stacks',
  stackRows: 'stackRows',
  idempotency: 'idempotencyKeys',
  rateLimits: 'rateLimits',
  counters: 'counters',
};

/** Models bound to one connection (never the global mongoose connection). */
export function createModels(connection: Connection): MongoModels {
  return {
    tenants: connection.model<TenantDoc>('Tenant', tenantSchema, COLLECTIONS.tenants),
    apiKeys: connection.model<ApiKeyDoc>('ApiKey', apiKeySchema, COLLECTIONS.apiKeys),
    sessions: connection.model<SessionDoc>('Session', sessionSchema, COLLECTIONS.sessions),
    messages: connection.model<MessageDoc>('Message', messageSchema, COLLECTIONS.messages),
    tasks: connection.model<TaskDoc>('Task', taskSchema, COLLECTIONS.tasks),
    taskActions: connection.model<TaskActionDoc>(
      'TaskAction',
      taskActionSchema,
      COLLECTIONS.taskActions,
    ),
    tokenUsage: connection.model<TokenUsageDoc>(
      'TokenUsageLog',
      tokenUsageSchema,
      COLLECTIONS.tokenUsage,
    ),
    skills: connection.model<SkillDoc>('Skill', skillSchema, COLLECTIONS.skills),
    knowledgeDocuments: connection.model<KnowledgeDocumentDoc>(
      'KnowledgeDocument',
      knowledgeDocumentSchema,
      COLLECTIONS.knowledgeDocuments,
    ),
    knowledgeChunks: connection.model<KnowledgeChunkDoc>(
      'KnowledgeChunk',
      knowledgeChunkSchema,
      COLLECTIONS.knowledgeChunks,
    ),
    knowledgeSettings: connection.model<KnowledgeSettingsDoc>(
      'KnowledgeSettings',
      knowledgeSettingsSchema,
      COLLECTIONS.knowledgeSettings,
    ),
    knowledgeJobs: connection.model<KnowledgeJobDoc>(
      'KnowledgeJob',
      knowledgeJobSchema,
      COLLECTIONS.knowledgeJobs,
    ),
    uploads: connection.model<UploadDoc>('Upload', uploadSchema, COLLECTIONS.uploads),
    uploadChunks: connection.model<UploadChunkDoc>(
      'UploadChunk',
      uploadChunkSchema,
      COLLECTIONS.uploadChunks,
    ),
    queuedJobs: connection.model<QueuedJobDoc>(
      'QueuedJob',
      queuedJobSchema,
      COLLECTIONS.queuedJobs,
    ),
    liveEvents: connection.model<LiveEventDoc>(
      'LiveEvent',
      liveEventSchema,
      COLLECTIONS.liveEvents,
    ),
    extractions: connection.model<ExtractionDoc>(
      'Extraction',
      extractionSchema,
      COLLECTIONS.extractions,
    ),
    extractionStrategies: connection.model<ExtractionStrategyDoc>(
      'ExtractionStrategy',
      extractionStrategySchema,
      COLLECTIONS.extractionStrategies,
    ),
    extractionResults: connection.model<ExtractionResultDoc>(
      'ExtractionResult',
      extractionResultSchema,
      COLLECTIONS.extractionResults,
    ),
    collectedItems: connection.model<CollectedItemDoc>(
      'CollectedItem',
      collectedItemSchema,
      COLLECTIONS.collectedItems,
    ),
    documents: connection.model<SourceDocumentDoc>(
      'SourceDocument',
      sourceDocumentSchema,
      COLLECTIONS.documents,
    ),
    documentExtractions: connection.model<DocumentExtractionDoc>(
      'DocumentExtraction',
      documentExtractionSchema,
      COLLECTIONS.documentExtractions,
    ),
    stacks: connection.model<StackDoc>('Stack', stackSchema, COLLECTIONS.stacks),
    stackRows: connection.model<StackRowDoc>('StackRow', stackRowSchema, COLLECTIONS.stackRows),
    idempotency: connection.model<IdempotencyDoc>(
      'IdempotencyKey',
      idempotencySchema,
      COLLECTIONS.idempotency,
    ),
    rateLimits: connection.model<RateLimitDoc>(
      'RateLimit',
      rateLimitSchema,
      COLLECTIONS.rateLimits,
    ),
    counters: connection.model<CounterDoc>('Counter', counterSchema, COLLECTIONS.counters),
  };
}
