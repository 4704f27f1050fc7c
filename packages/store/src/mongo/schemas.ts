// The models: one per collection, binding each entity's schema (src/entities/*/mongo-schema.ts)
// to a connection under a fixed collection name, plus the counters several entities share.
import type { Connection, Model, Schema as MongooseSchema } from 'mongoose';
import { SCHEMA_OPTIONS, Schema } from './schema-kit';
import {
  collectedItemSchema,
  type CollectedItemDoc,
} from '../entities/collected-item/mongo-schema';
import {
  documentExtractionSchema,
  sourceDocumentSchema,
  type DocumentExtractionDoc,
  type SourceDocumentDoc,
} from '../entities/document/mongo-schema';
import {
  extractionResultSchema,
  extractionSchema,
  extractionStrategySchema,
  type ExtractionDoc,
  type ExtractionResultDoc,
  type ExtractionStrategyDoc,
} from '../entities/extraction/mongo-schema';
import {
  idempotencySchema,
  rateLimitSchema,
  type IdempotencyDoc,
  type RateLimitDoc,
} from '../entities/idempotency/mongo-schema';
import {
  knowledgeChunkSchema,
  knowledgeDocumentSchema,
  knowledgeJobSchema,
  knowledgeSettingsSchema,
  type KnowledgeChunkDoc,
  type KnowledgeDocumentDoc,
  type KnowledgeJobDoc,
  type KnowledgeSettingsDoc,
} from '../entities/knowledge/mongo-schema';
import { liveEventSchema, type LiveEventDoc } from '../entities/live-event/mongo-schema';
import { queuedJobSchema, type QueuedJobDoc } from '../entities/queued-job/mongo-schema';
import {
  messageSchema,
  sessionSchema,
  type MessageDoc,
  type SessionDoc,
} from '../entities/session/mongo-schema';
import { routineSchema, type RoutineDoc } from '../entities/routine/mongo-schema';
import { skillSchema, type SkillDoc } from '../entities/skill/mongo-schema';
import {
  stackRowSchema,
  stackSchema,
  type StackDoc,
  type StackRowDoc,
} from '../entities/stack/mongo-schema';
import {
  taskActionSchema,
  taskSchema,
  type TaskActionDoc,
  type TaskDoc,
} from '../entities/task/mongo-schema';
import {
  apiKeySchema,
  tenantSchema,
  type ApiKeyDoc,
  type TenantDoc,
} from '../entities/tenant/mongo-schema';
import { tokenUsageSchema, type TokenUsageDoc } from '../entities/token-usage/mongo-schema';
import {
  uploadChunkSchema,
  uploadSchema,
  type UploadChunkDoc,
  type UploadDoc,
} from '../entities/upload/mongo-schema';

// ---------------------------------------------------------------- schemas

/**
 * Per-scope sequence numbers (message seq per session, collected-item seq per task, and the
 * store-wide live-event seq, whose counter has no tenant: LIVE_EVENTS_COUNTER).
 */
export interface CounterDoc {
  tenantId: string;
  scope: 'messages' | 'collectedItems' | 'liveEvents';
  key: string;
  seq: number;
}

export const counterSchema = new Schema<CounterDoc>(
  { tenantId: { type: String, required: true }, scope: String, key: String, seq: Number },
  SCHEMA_OPTIONS,
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
  routines: Model<RoutineDoc>;
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
  routines: 'routines',
  idempotency: 'idempotencyKeys',
  rateLimits: 'rateLimits',
  counters: 'counters',
};

/** Models bound to one connection (never the global mongoose connection). */
export function createModels(connection: Connection): MongoModels {
  const bind = <D>(key: keyof MongoModels, name: string, schema: MongooseSchema<D>): Model<D> =>
    connection.model<D>(name, schema, COLLECTIONS[key]);
  return {
    tenants: bind('tenants', 'Tenant', tenantSchema),
    apiKeys: bind('apiKeys', 'ApiKey', apiKeySchema),
    sessions: bind('sessions', 'Session', sessionSchema),
    messages: bind('messages', 'Message', messageSchema),
    tasks: bind('tasks', 'Task', taskSchema),
    taskActions: bind('taskActions', 'TaskAction', taskActionSchema),
    tokenUsage: bind('tokenUsage', 'TokenUsageLog', tokenUsageSchema),
    skills: bind('skills', 'Skill', skillSchema),
    knowledgeDocuments: bind('knowledgeDocuments', 'KnowledgeDocument', knowledgeDocumentSchema),
    knowledgeChunks: bind('knowledgeChunks', 'KnowledgeChunk', knowledgeChunkSchema),
    knowledgeSettings: bind('knowledgeSettings', 'KnowledgeSettings', knowledgeSettingsSchema),
    knowledgeJobs: bind('knowledgeJobs', 'KnowledgeJob', knowledgeJobSchema),
    uploads: bind('uploads', 'Upload', uploadSchema),
    uploadChunks: bind('uploadChunks', 'UploadChunk', uploadChunkSchema),
    queuedJobs: bind('queuedJobs', 'QueuedJob', queuedJobSchema),
    liveEvents: bind('liveEvents', 'LiveEvent', liveEventSchema),
    extractions: bind('extractions', 'Extraction', extractionSchema),
    extractionStrategies: bind(
      'extractionStrategies',
      'ExtractionStrategy',
      extractionStrategySchema,
    ),
    extractionResults: bind('extractionResults', 'ExtractionResult', extractionResultSchema),
    collectedItems: bind('collectedItems', 'CollectedItem', collectedItemSchema),
    documents: bind('documents', 'SourceDocument', sourceDocumentSchema),
    documentExtractions: bind(
      'documentExtractions',
      'DocumentExtraction',
      documentExtractionSchema,
    ),
    stacks: bind('stacks', 'Stack', stackSchema),
    stackRows: bind('stackRows', 'StackRow', stackRowSchema),
    routines: bind('routines', 'Routine', routineSchema),
    idempotency: bind('idempotency', 'IdempotencyKey', idempotencySchema),
    rateLimits: bind('rateLimits', 'RateLimit', rateLimitSchema),
    counters: bind('counters', 'Counter', counterSchema),
  };
}
