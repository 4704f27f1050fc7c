// The persistence port. Two real adapters implement it (libSQL, MongoDB) and one contract
// suite (src/testing/contract-suite.ts) proves they agree.
//
// Rules every adapter keeps:
//  - Every tenant-owned method takes `tenantId` as its first argument and never reads or
//    changes a record of another tenant, whatever ids it is given.
//  - Times cross the port as ISO-8601 strings (UTC, millisecond precision).
//  - Money is integer micro-USD.
//  - JSON-ish fields (plan, metrics, data…) round-trip exactly as given.
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';

// Each entity's record, its inputs, its repository and the builders of its new records live
// in src/entities/<entity>/record.ts, beside its libSQL and Mongo mappings, so a field is added
// in one folder. What a new record looks like is decided there once, by its `new…Record`
// builder, for both adapters: the two stores cannot drift apart (the contract suite only
// catches a drift it happens to test).
export type {
  ApiKeyRecord,
  ApiKeyRepository,
  Tenant,
  TenantRepository,
} from './entities/tenant/record';
export type {
  Message,
  MessageRepository,
  NewMessage,
  Session,
  SessionRepository,
} from './entities/session/record';
export type {
  NewTask,
  NewTaskAction,
  Task,
  TaskAction,
  TaskActionRepository,
  TaskPatch,
  TaskRepository,
} from './entities/task/record';
export type {
  NewTokenUsageLog,
  TokenUsageLog,
  TokenUsageRepository,
  UsageGroupBy,
  UsageRollupRow,
  UsageSeriesRow,
} from './entities/token-usage/record';
export type { NewSkill, Skill, SkillRepository, SkillTotals } from './entities/skill/record';
export type {
  CrawlStrategy,
  KnowledgeChunk,
  KnowledgeDocument,
  KnowledgeJob,
  KnowledgeJobKind,
  KnowledgeJobPatch,
  KnowledgeJobProgress,
  KnowledgeJobRepository,
  KnowledgeJobStatus,
  KnowledgeRepository,
  KnowledgeSettings,
  KnowledgeUploadDetails,
  KnowledgeUploadResult,
  KnowledgeUsage,
  NewKnowledgeChunk,
  NewKnowledgeDocument,
  NewKnowledgeJob,
  ScoredKnowledgeChunk,
} from './entities/knowledge/record';
export type { NewUpload, StoredUpload, UploadRepository } from './entities/upload/record';
export type {
  NewQueuedJob,
  QueuedJob,
  QueuedJobRepository,
  QueuedJobStatus,
} from './entities/queued-job/record';
export type { LiveEventRecord, LiveEventRepository } from './entities/live-event/record';
export type {
  Extraction,
  ExtractionRecipeEntry,
  ExtractionRepository,
  ExtractionResultRecord,
  ExtractionResultRepository,
  ExtractionStrategy,
  ExtractionStrategyRepository,
  NewExtraction,
  NewExtractionResult,
  NewExtractionStrategy,
} from './entities/extraction/record';
export type {
  CollectedItem,
  CollectedItemRepository,
  NewCollectedItem,
} from './entities/collected-item/record';
export type {
  DocumentExtraction,
  DocumentExtractionRepository,
  DocumentPage,
  DocumentRecord,
  DocumentRepository,
  DocumentSummary,
  ExtractionWrite,
  NewDocumentExtraction,
  NewDocumentRecord,
  WriteRecord,
} from './entities/document/record';
export type { NewStack, Stack, StackRepository, StackRow } from './entities/stack/record';
export type {
  NewRoutine,
  NewRoutineVersion,
  Routine,
  RoutinePatch,
  RoutineRepository,
} from './entities/routine/record';
export type {
  IdempotencyRecord,
  IdempotencyRepository,
  RateLimitRepository,
} from './entities/idempotency/record';

import type { ApiKeyRepository, TenantRepository } from './entities/tenant/record';
import type { MessageRepository, SessionRepository } from './entities/session/record';
import type { TaskActionRepository, TaskRepository } from './entities/task/record';
import type { TokenUsageRepository } from './entities/token-usage/record';
import type { SkillRepository } from './entities/skill/record';
import type { KnowledgeJobRepository, KnowledgeRepository } from './entities/knowledge/record';
import type { UploadRepository } from './entities/upload/record';
import type { QueuedJobRepository } from './entities/queued-job/record';
import type { LiveEventRepository } from './entities/live-event/record';
import type {
  ExtractionRepository,
  ExtractionResultRepository,
  ExtractionStrategyRepository,
} from './entities/extraction/record';
import type { CollectedItemRepository } from './entities/collected-item/record';
import type { DocumentExtractionRepository, DocumentRepository } from './entities/document/record';
import type { StackRepository } from './entities/stack/record';
import type { RoutineRepository } from './entities/routine/record';
import type { IdempotencyRepository, RateLimitRepository } from './entities/idempotency/record';

export { defaultRoutineName } from './entities/routine/record';
export {
  MAX_SKILLS_PER_TENANT,
  MIN_SKILL_SUCCESS_RATE,
  SKILL_TTL_MS,
} from './entities/skill/record';

export type StoreKind = 'libsql' | 'mongodb';

export interface Page<T> {
  items: T[];
  /** Opaque cursor for the next page; null when there is none. */
  nextCursor: string | null;
}

// ---------------------------------------------------------------- errors

/** A unique key was inserted twice (idempotency key, API key hash…). */
export class DuplicateKeyError extends Error {
  override readonly name = 'DuplicateKeyError';
  constructor(what: string) {
    super(`Duplicate key: ${what}`);
  }
}

/** An `ifVersion` update lost the race: someone else changed the record first. */
export class VersionConflictError extends Error {
  override readonly name = 'VersionConflictError';
  constructor(what: string) {
    super(`Version conflict: ${what}`);
  }
}

/**
 * Name-based checks: a bundler can load this package twice (e.g. two server chunks), and then
 * `instanceof` fails for an error thrown by the other copy.
 */
export const isDuplicateKeyError = (error: unknown): error is DuplicateKeyError =>
  error instanceof Error && error.name === 'DuplicateKeyError';
export const isVersionConflictError = (error: unknown): error is VersionConflictError =>
  error instanceof Error && error.name === 'VersionConflictError';

/** A skills insert would exceed the per-tenant maximum (10,000). */
export class LimitExceededError extends Error {
  override readonly name = 'LimitExceededError';
}

// ---------------------------------------------------------------- the store

export interface StoreHealth {
  store: StoreKind;
  ok: boolean;
  latencyMs: number;
  error?: string;
}

export interface Store {
  readonly kind: StoreKind;
  readonly tenants: TenantRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly sessions: SessionRepository;
  readonly messages: MessageRepository;
  readonly tasks: TaskRepository;
  readonly taskActions: TaskActionRepository;
  readonly tokenUsage: TokenUsageRepository;
  readonly skills: SkillRepository;
  readonly knowledge: KnowledgeRepository;
  readonly knowledgeJobs: KnowledgeJobRepository;
  readonly uploads: UploadRepository;
  readonly queuedJobs: QueuedJobRepository;
  readonly liveEvents: LiveEventRepository;
  readonly extractions: ExtractionRepository;
  readonly extractionStrategies: ExtractionStrategyRepository;
  readonly extractionResults: ExtractionResultRepository;
  readonly collectedItems: CollectedItemRepository;
  readonly documents: DocumentRepository;
  readonly documentExtractions: DocumentExtractionRepository;
  readonly stacks: StackRepository;
  /** Routines: verified runs compiled to rerun without the model, by version. */
  readonly routines: RoutineRepository;
  readonly idempotency: IdempotencyRepository;
  readonly rateLimits: RateLimitRepository;
  /** LangGraph checkpointer persisted in the same database (thread id = taskId). */
  readonly checkpointer: BaseCheckpointSaver;
  /**
   * Runs `work` as one transaction (a unit of work): the writes of the repository calls it
   * awaits commit together, or none does when it throws, and the error is rethrown. Only store
   * calls belong inside: libSQL holds the database's write lock while it runs (other callers'
   * statements wait), and MongoDB may run it again on a transient write conflict. A transaction
   * started inside one joins it. On a MongoDB server without transactions (a standalone
   * mongod, not a replica set) the calls run one by one, as outside a transaction.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** False on a standalone mongod, where `transaction` cannot roll back (see above). */
  readonly atomicTransactions: boolean;
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}
