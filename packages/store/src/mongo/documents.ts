// What the Mongo adapter stores: one document shape per collection, mirroring the port's
// records field for field, except that times are BSON dates (TTL indexes and range queries work
// on them) and JSON-ish fields are `unknown` until mapped back to their record type.
import type {
  ActionStatus,
  ApiKeyRole,
  Complexity,
  DocumentExtractionStatus,
  DocumentStatus,
  ExtractionMethod,
  LlmActionType,
  LlmProvider,
  MessageRole,
  SessionStatus,
  TaskStatus,
} from '@tandem/contracts';
import type {
  IdempotencyRecord,
  KnowledgeChunk,
  KnowledgeDocument,
  KnowledgeJob,
  QueuedJobStatus,
} from '../port';

export interface TenantDoc {
  id: string;
  name: string;
  createdAt: Date;
}

export interface ApiKeyDoc {
  id: string;
  tenantId: string;
  userId: string;
  name: string;
  role: ApiKeyRole;
  prefix: string;
  keyHash: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface SessionDoc {
  id: string;
  tenantId: string;
  userId: string;
  status: SessionStatus;
  url: string | null;
  title: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface MessageDoc {
  id: string;
  tenantId: string;
  sessionId: string;
  seq: number;
  role: MessageRole;
  content: string;
  actionString: string | null;
  taskId: string | null;
  status: ActionStatus | null;
  error: string | null;
  domSummary: string | null;
  createdAt: Date;
}

export interface TaskDoc {
  id: string;
  tenantId: string;
  userId: string;
  sessionId: string | null;
  url: string;
  query: string;
  status: TaskStatus;
  complexity: Complexity | null;
  plan: unknown;
  hierarchicalPlan: unknown;
  currentStepIndex: number;
  corrections: unknown;
  metrics: unknown;
  lastChain: unknown;
  webSearchResult: unknown;
  result: string | null;
  collectLimit: number | null;
  consecutiveFailures: number;
  consecutiveSuccessWithoutTaskComplete: number;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface TaskActionDoc {
  id: string;
  tenantId: string;
  taskId: string;
  stepIndex: number;
  thought: string;
  action: string;
  expectedOutcome: unknown;
  beforeState: unknown;
  verification: unknown;
  status: ActionStatus;
  metrics: unknown;
  createdAt: Date;
}

export interface TokenUsageDoc {
  id: string;
  tenantId: string;
  userId: string | null;
  sessionId: string | null;
  messageId: string | null;
  taskId: string | null;
  traceId: string | null;
  provider: LlmProvider;
  model: string;
  actionType: LlmActionType;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  thinkingTokens: number;
  totalTokens: number;
  costMicroUsd: number;
  durationMs: number;
  timestamp: Date;
}

export interface SkillDoc {
  id: string;
  tenantId: string;
  domain: string;
  goal: string;
  failedState: { action: string; elementDescription: string; errorType: string };
  successfulAction: { action: string; elementDescription: string; strategy: string };
  successCount: number;
  failureCount: number;
  lastUsed: Date;
  createdAt: Date;
}

export interface KnowledgeDocumentDoc {
  id: string;
  tenantId: string;
  domain: string;
  sourceUrl: string | null;
  title: string;
  mimeType: string;
  status: KnowledgeDocument['status'];
  metadata: unknown;
  createdAt: Date;
  updatedAt: Date;
}

export interface KnowledgeChunkDoc {
  id: string;
  tenantId: string;
  documentId: string;
  domain: string;
  ordinal: number;
  content: string;
  headingPath: unknown;
  tokenCount: number;
  embedding: unknown;
  phase: KnowledgeChunk['phase'];
  triggerAction: string | null;
  supersededBy: string | null;
  createdAt: Date;
}

export interface KnowledgeSettingsDoc {
  tenantId: string;
  allowedDomains: unknown;
  updatedAt: Date;
}

export interface KnowledgeJobDoc {
  id: string;
  tenantId: string;
  userId: string | null;
  kind: KnowledgeJob['kind'];
  url: string;
  strategy: KnowledgeJob['strategy'];
  maxPages: number;
  maxDepth: number;
  domain: string;
  status: KnowledgeJob['status'];
  progress: unknown;
  frontier: unknown;
  visited: unknown;
  /**
   * The record's `errors`, renamed like ExtractionResultDoc's: mongoose reserves `errors` on
   * its documents.
   */
  pageErrors: unknown;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** An upload job's file and outcome; absent on crawls (and on jobs stored before uploads). */
  upload?: unknown;
}

/**
 * An upload's description. Its bytes are in uploadChunks: a MongoDB document holds at most
 * 16 MB, and an upload may be bigger (GridFS's layout, tenant-scoped). `chunks` says how many
 * make the file, so a reader never takes a file whose writer died midway for a whole one.
 */
export interface UploadDoc {
  tenantId: string;
  id: string;
  fileName: string;
  mimeType: string | null;
  sizeBytes: number;
  chunks: number;
  createdAt: Date;
}

/** Part `n` (from 0) of upload `uploadId`. */
export interface UploadChunkDoc {
  tenantId: string;
  uploadId: string;
  n: number;
  data: Buffer;
}

/** Keyed by (queue, id), not by tenant: workers claim across every tenant of a queue. */
export interface QueuedJobDoc {
  queue: string;
  id: string;
  tenantId: string;
  data: unknown;
  status: QueuedJobStatus;
  attempts: number;
  maxAttempts: number;
  backoffMs: number;
  runAt: Date;
  owner: string | null;
  leaseExpiresAt: Date | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

/** Store-wide, not by tenant: the channel names its tenant, and only the event bus reads it. */
export interface LiveEventDoc {
  seq: number;
  channel: string;
  origin: string;
  data: unknown;
  createdAt: Date;
}

export interface ExtractionDoc {
  id: string;
  tenantId: string;
  taskId: string | null;
  url: string;
  schema: unknown;
  data: unknown;
  status: 'pending' | 'completed' | 'failed';
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ExtractionStrategyDoc {
  id: string;
  tenantId: string;
  domain: string;
  urlPattern: string;
  /** Always written, null included: null is a value of the unique key. */
  cssSelector: string | null;
  outputSchema: unknown;
  schemaHash: string;
  queryTemplate: string;
  replay: unknown;
  successCount: number;
  failureCount: number;
  lastUsed: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface ExtractionResultDoc {
  id: string;
  tenantId: string;
  taskId: string | null;
  extractionId: string | null;
  query: string;
  sourceUrl: string | null;
  data: unknown;
  schemaUsed: unknown;
  isPartial: boolean;
  method: ExtractionMethod;
  contentStats: unknown;
  warnings: unknown;
  /**
   * The record's `errors`. Renamed because mongoose reserves `errors` on its documents (the
   * validation errors live there), and create() builds one.
   */
  extractionErrors: unknown;
  createdAt: Date;
}

export interface CollectedItemDoc {
  id: string;
  tenantId: string;
  taskId: string;
  type: string;
  uniqueKey: string;
  data: unknown;
  sourceUrl: string | null;
  seq: number;
  createdAt: Date;
}

export interface IdempotencyDoc {
  tenantId: string;
  key: string;
  scope: string;
  requestHash: string;
  status: IdempotencyRecord['status'];
  response: unknown;
  createdAt: Date;
  expiresAt: Date;
}

export interface RateLimitDoc {
  key: string;
  consumed: number;
  expiresAtMs: number;
  /** expiresAtMs as a date, only so a TTL index can drop windows nobody reads any more. */
  expiresAt: Date;
}

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

export interface SourceDocumentDoc {
  id: string;
  tenantId: string;
  userId: string;
  fileName: string;
  title: string;
  mimeType: string;
  sizeBytes: number;
  pages: unknown;
  pageCount: number;
  characters: number;
  warnings: unknown;
  /** Absent on documents stored before upload jobs: those were read at upload, so `ready`. */
  status?: DocumentStatus;
  error?: string | null;
  failureCode?: string | null;
  createdAt: Date;
}

/** One entry of an extraction's embedded write history (seq is its position + 1). */
export interface ExtractionWriteDoc {
  tool: string;
  /** The tool's input as JSON text: a model's keys ("$x", "a.b") are no field names to store. */
  input: string;
  createdAt: Date;
}

export interface DocumentExtractionDoc {
  id: string;
  tenantId: string;
  userId: string;
  documentId: string;
  status: DocumentExtractionStatus;
  documentType: string | null;
  fields: unknown;
  confidences: unknown;
  schema: unknown;
  instructions: string | null;
  costMicroUsd: number;
  tokens: number;
  error: string | null;
  /**
   * The history lives in the extraction's own document so that a change and its entry are one
   * single-document update, atomic on any MongoDB deployment (multi-document transactions
   * need a replica set). Reads project it out; listWrites reads only it.
   */
  writes: ExtractionWriteDoc[];
  createdAt: Date;
  updatedAt: Date;
}

export interface StackDoc {
  id: string;
  tenantId: string;
  userId: string;
  name: string;
  documentIds: unknown;
  columns: unknown;
  status: DocumentExtractionStatus;
  instructions: string | null;
  costMicroUsd: number;
  tokens: number;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface StackRowDoc {
  tenantId: string;
  stackId: string;
  /** The stack's owner, copied onto its rows so a row write is scoped to the user by itself. */
  userId: string;
  documentId: string;
  position: number;
  cells: unknown;
  confidences: unknown;
  createdAt: Date;
  updatedAt: Date;
}
