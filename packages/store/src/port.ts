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
import type {
  ActionStatus,
  ApiKeyRole,
  Complexity,
  ContentStats,
  CorrectionRecord,
  DocumentExtractionStatus,
  DocumentStatus,
  ExpectedOutcome,
  ExtractionError,
  ExtractionMethod,
  FieldPathSegment,
  HierarchicalPlan,
  LlmActionType,
  LlmProvider,
  MessageRole,
  Plan,
  SessionStatus,
  StackColumn,
  StoredChain,
  TaskMetrics,
  TaskStatus,
  VerificationResult,
} from '@tandem/contracts';

export type StoreKind = 'libsql' | 'mongodb';

// ---------------------------------------------------------------- records

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

export interface Session {
  id: string;
  tenantId: string;
  userId: string;
  status: SessionStatus;
  url: string | null;
  title: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Message {
  id: string;
  tenantId: string;
  sessionId: string;
  /** Monotonic per session; defines message order. */
  seq: number;
  role: MessageRole;
  content: string;
  /** The grammar action the assistant returned with this message, if any. */
  actionString: string | null;
  taskId: string | null;
  status: ActionStatus | null;
  error: string | null;
  domSummary: string | null;
  createdAt: string;
}

export interface Task {
  id: string;
  tenantId: string;
  userId: string;
  sessionId: string | null;
  url: string;
  query: string;
  status: TaskStatus;
  complexity: Complexity | null;
  plan: Plan | null;
  hierarchicalPlan: HierarchicalPlan | null;
  currentStepIndex: number;
  corrections: CorrectionRecord[];
  metrics: TaskMetrics;
  lastChain: StoredChain | null;
  webSearchResult: unknown;
  /** Final answer (finish) or failure reason (fail / limits). */
  result: string | null;
  /** Streaming collection: stop the task once this many items were collected. */
  collectLimit: number | null;
  consecutiveFailures: number;
  consecutiveSuccessWithoutTaskComplete: number;
  /** Optimistic concurrency: bumped by every update; `ifVersion` guards against lost updates. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface TaskAction {
  id: string;
  tenantId: string;
  taskId: string;
  stepIndex: number;
  thought: string;
  action: string;
  expectedOutcome: ExpectedOutcome | null;
  /** State before the action ran, for observation-based verification. */
  beforeState: { url: string; domHash: string; semanticSkeleton?: string } | null;
  verification: VerificationResult | null;
  status: ActionStatus;
  metrics: { durationMs: number; inputTokens: number; outputTokens: number } | null;
  createdAt: string;
}

export interface TokenUsageLog {
  /** The generation id; appending the same id twice is a no-op (idempotent). */
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
  timestamp: string;
}

export type UsageGroupBy = 'day' | 'model' | 'actionType' | 'user';

export interface UsageRollupRow {
  /** yyyy-mm-dd for day, the model name, the action type or the user id (`""` for none). */
  key: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costMicroUsd: number;
}

/** A rollup row split once more: `key` by `groupBy`, `series` by `seriesBy` (same key forms). */
export interface UsageSeriesRow extends UsageRollupRow {
  series: string;
}

export interface Skill {
  id: string;
  tenantId: string;
  domain: string;
  goal: string;
  failedState: { action: string; elementDescription: string; errorType: string };
  successfulAction: { action: string; elementDescription: string; strategy: string };
  successCount: number;
  failureCount: number;
  lastUsed: string;
  createdAt: string;
}

/** Sums over a tenant's stored skills, as kept (expired ones not yet swept included). */
export interface SkillTotals {
  skills: number;
  successCount: number;
  failureCount: number;
}

export interface KnowledgeDocument {
  id: string;
  tenantId: string;
  /** Domain the knowledge applies to ("app.example.com"); empty for tenant-wide. */
  domain: string;
  sourceUrl: string | null;
  title: string;
  mimeType: string;
  status: 'pending' | 'ready' | 'failed';
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface KnowledgeChunk {
  id: string;
  tenantId: string;
  documentId: string;
  domain: string;
  ordinal: number;
  content: string;
  headingPath: string[];
  tokenCount: number;
  /** Optional dense vector (float32 values). */
  embedding: number[] | null;
  phase: 'initial' | 'post-interaction' | null;
  triggerAction: string | null;
  /** RAG freshness: set when a newer chunk replaces this one. */
  supersededBy: string | null;
  createdAt: string;
}

/**
 * A chunk with its rank score from one search (higher is better; only comparable within it).
 * Its `embedding` is null: searches return text to read, and vectors would only cost time.
 */
export interface ScoredKnowledgeChunk {
  chunk: KnowledgeChunk;
  score: number;
}

/** Per-tenant knowledge settings (`allowed_domains`, docs/specs.md, "RAG once per request"). */
export interface KnowledgeSettings {
  tenantId: string;
  /**
   * Sites whose knowledge may be used and crawled ("docs.example.com"; a domain covers its
   * subdomains). Empty: every site. Tenant-wide knowledge ('' domain) always applies.
   */
  allowedDomains: string[];
  updatedAt: string | null;
}

/** What a tenant holds, for quotas and the admin page. Superseded chunks count until deleted. */
export interface KnowledgeUsage {
  documents: number;
  chunks: number;
  /** Sum of the documents' `metadata.sizeBytes` (the ingested source's size). */
  bytes: number;
}

export type KnowledgeJobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type CrawlStrategy = 'single' | 'sitemap' | 'spider';

export interface KnowledgeJobProgress {
  /** URLs found so far (sitemap entries, links) that are within the job's limits. */
  discovered: number;
  /** Pages fetched (any outcome). */
  fetched: number;
  /** Pages stored as new or changed documents. */
  ingested: number;
  /** Pages whose content had not changed since the last ingestion. */
  unchanged: number;
  /** Pages not fetched or not stored: robots.txt, off-site, not HTML/text, empty. */
  skipped: number;
  failed: number;
}

/** What an upload ingested, as POST /api/knowledge/ingest answers it. */
export interface KnowledgeUploadResult {
  documentId: string;
  chunksAdded: number;
  chunksSuperseded: number;
  unchanged: boolean;
  embedded: boolean;
}

/** An upload job's file (its bytes are in `uploads` under the job's id) and its outcome. */
export interface KnowledgeUploadDetails {
  fileName: string;
  mimeType: string | null;
  sizeBytes: number;
  title: string | null;
  sourceUrl: string | null;
  /** Set when the job completed. */
  result: KnowledgeUploadResult | null;
  /**
   * The contract error code of a failure (BAD_REQUEST for an unreadable file, QUOTA_EXCEEDED…),
   * so the request waiting for the job answers as it would have without a job; null otherwise.
   */
  failureCode: string | null;
}

export type KnowledgeJobKind = 'crawl' | 'upload';

/**
 * A knowledge job: a crawl (POST /api/knowledge/index-link: its request, progress and the state to
 * resume it) or an uploaded file's ingestion (POST /api/knowledge/ingest: `upload`; url is its
 * sourceUrl or '', strategy single, one page).
 */
export interface KnowledgeJob {
  id: string;
  tenantId: string;
  userId: string | null;
  kind: KnowledgeJobKind;
  /** Upload jobs only; null for crawls. */
  upload: KnowledgeUploadDetails | null;
  url: string;
  strategy: CrawlStrategy;
  maxPages: number;
  maxDepth: number;
  /** Knowledge domain the pages are stored under ('' = tenant-wide; default: the URL's host). */
  domain: string;
  status: KnowledgeJobStatus;
  progress: KnowledgeJobProgress;
  /** URLs still to fetch, in order; a restarted server resumes from here. */
  frontier: Array<{ url: string; depth: number }>;
  /** URLs already fetched or refused (normalised), so a resumed crawl never repeats one. */
  visited: string[];
  /** The most recent page errors (capped), for the admin page. */
  errors: Array<{ url: string; message: string; at: string }>;
  /** Why the whole job failed. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export type NewKnowledgeJob = Pick<
  KnowledgeJob,
  'url' | 'strategy' | 'maxPages' | 'maxDepth' | 'domain'
> &
  Partial<Pick<KnowledgeJob, 'id' | 'userId' | 'frontier' | 'kind' | 'upload'>>;

export type KnowledgeJobPatch = Partial<
  Pick<
    KnowledgeJob,
    | 'status'
    | 'progress'
    | 'frontier'
    | 'visited'
    | 'errors'
    | 'error'
    | 'startedAt'
    | 'finishedAt'
    | 'upload'
  >
>;

export interface Extraction {
  id: string;
  tenantId: string;
  taskId: string | null;
  url: string;
  /** JSON Schema the data was validated against. */
  schema: Record<string, unknown>;
  data: unknown;
  status: 'pending' | 'completed' | 'failed';
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * What structured extraction learns about a page shape (docs/specs.md, "the strategy cache"): how
 * to extract one schema from the pages a URL glob covers, and (once learned) a selector recipe that
 * replays it with zero model tokens. Strategies are per schema and per selector: the same pages
 * read through another schema or another subtree are another strategy.
 */
export interface ExtractionStrategy {
  id: string;
  tenantId: string;
  /** Host of the pages ("127.0.0.1:4000"): the indexed lookup key. */
  domain: string;
  /** Glob over the whole URL ("http://127.0.0.1:4000/catalog/*"); the caller does the matching. */
  urlPattern: string;
  /** Null (the whole page) is a value of the key like any selector. */
  cssSelector: string | null;
  outputSchema: Record<string, unknown>;
  /** Hash of outputSchema (strategies are per schema). */
  schemaHash: string;
  queryTemplate: string;
  /** Learned selector recipe, opaque JSON to the store; null until one is learned. */
  replay: Record<string, unknown> | null;
  successCount: number;
  failureCount: number;
  lastUsed: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * One recipe of a strategy's replay list as the store sees it: an id, how often it replayed and
 * when it was last used (ISO); everything else in it is opaque to the store.
 */
export type ExtractionRecipeEntry = Record<string, unknown> & { id: string };

/** One stored result: one extraction of one page (docs/specs.md, "extraction overhaul"). */
export interface ExtractionResultRecord {
  id: string;
  tenantId: string;
  /** Null for POST /api/extract, which runs outside any task. */
  taskId: string | null;
  /** Aggregate key (a strategy id): a task's results with the same key merge across pages. */
  extractionId: string | null;
  query: string;
  sourceUrl: string | null;
  /** JSON: an object, an array or (without a usable schema) a string. */
  data: unknown;
  schemaUsed: Record<string, unknown> | null;
  isPartial: boolean;
  method: ExtractionMethod;
  contentStats: ContentStats;
  warnings: string[];
  errors: ExtractionError[];
  createdAt: string;
}

export interface CollectedItem {
  id: string;
  tenantId: string;
  taskId: string;
  type: string;
  /** The inferred unique id ("jobId:123", "title@company"…); unique per (task, type). */
  uniqueKey: string;
  data: Record<string, unknown>;
  sourceUrl: string | null;
  /** Monotonic per task: readers page with `afterSeq`. */
  seq: number;
  createdAt: string;
}

export interface IdempotencyRecord {
  tenantId: string;
  key: string;
  /** What the key protects ("interact", "collect"…). */
  scope: string;
  /** Hash of the request body: a replay with another body is a conflict. */
  requestHash: string;
  status: 'in_progress' | 'completed';
  response: unknown;
  createdAt: string;
  expiresAt: string;
}

// ---------------------------------------------------------------- documents

/** One page of a document's text (knowledge extractors, OCR included); numbers start at 1. */
export interface DocumentPage {
  number: number;
  text: string;
}

/** An uploaded document kept for extraction: its text per page, read once at upload. */
export interface DocumentRecord {
  id: string;
  tenantId: string;
  /** The user who uploaded it; only that user's agents read it. */
  userId: string;
  fileName: string;
  title: string;
  mimeType: string;
  sizeBytes: number;
  pages: DocumentPage[];
  pageCount: number;
  /** Characters of text over every page. */
  characters: number;
  warnings: string[];
  /**
   * An upload is stored `processing` with no pages, and its job (the document's own record is
   * the job's) makes it `ready` with its text or `failed`; only a `ready` one is extracted.
   */
  status: DocumentStatus;
  /** Why reading it failed; null unless `failed`. */
  error: string | null;
  /** The contract error code of the failure (a 4xx: the file's own fault); null unless `failed`. */
  failureCode: string | null;
  createdAt: string;
}

/** A document without its text, for lists. */
export type DocumentSummary = Omit<DocumentRecord, 'pages'>;

/**
 * One extraction of one document (the document-extraction agent spec in docs/specs.md): fields the
 * agent's tools wrote, confidences of the same shape (a number where the fields have a value),
 * status, and what its model calls cost.
 */
export interface DocumentExtraction {
  id: string;
  tenantId: string;
  userId: string;
  documentId: string;
  status: DocumentExtractionStatus;
  documentType: string | null;
  fields: Record<string, unknown>;
  confidences: Record<string, unknown>;
  /** JSON Schema the fields must match, when the user gave one. */
  schema: Record<string, unknown> | null;
  instructions: string | null;
  costMicroUsd: number;
  tokens: number;
  /** Why the last run stopped early; null after a run that did not. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One tool write of an extraction, appended in the same atomic write as the change itself. */
export interface ExtractionWrite {
  tenantId: string;
  extractionId: string;
  /** 1, 2, 3… per extraction, in write order. */
  seq: number;
  tool: string;
  input: unknown;
  createdAt: string;
}

/** What a write tool was called with, for the history. */
export interface WriteRecord {
  tool: string;
  input: unknown;
}

/** Several documents extracted into one table (the spec's "stacks"). */
export interface Stack {
  id: string;
  tenantId: string;
  userId: string;
  name: string;
  /** The documents the stack's agent may read, in table order. */
  documentIds: string[];
  columns: StackColumn[];
  status: DocumentExtractionStatus;
  instructions: string | null;
  costMicroUsd: number;
  tokens: number;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A stack's row for one document: a value and a confidence (0..1) per column. */
export interface StackRow {
  tenantId: string;
  stackId: string;
  documentId: string;
  cells: Record<string, unknown>;
  confidences: Record<string, number>;
  createdAt: string;
  updatedAt: string;
}

// ---------------------------------------------------------------- inputs

/**
 * A new task: who asked what, where, and optionally any field an update could set, so a task
 * whose first step is already decided is written once. Absent fields take their defaults.
 */
export type NewTask = Pick<Task, 'userId' | 'url' | 'query'> &
  Partial<Pick<Task, 'id' | 'sessionId'>> &
  TaskPatch;

/**
 * Fields a task update may change. `version`, ids, tenant and createdAt are never patched.
 * A key that is absent or `undefined` leaves the field unchanged; `null` clears it.
 */
export type TaskPatch = Partial<
  Omit<Task, 'id' | 'tenantId' | 'userId' | 'version' | 'createdAt' | 'updatedAt'>
>;

export type NewTaskAction = Omit<TaskAction, 'id' | 'tenantId' | 'createdAt'> & {
  id?: string;
  createdAt?: string;
};

export type NewMessage = Pick<Message, 'sessionId' | 'role' | 'content'> &
  Partial<Pick<Message, 'id' | 'actionString' | 'taskId' | 'status' | 'error' | 'domSummary'>>;

export type NewTokenUsageLog = Omit<TokenUsageLog, 'tenantId'>;

export type NewSkill = Pick<Skill, 'domain' | 'goal' | 'failedState' | 'successfulAction'>;

export type NewKnowledgeDocument = Pick<KnowledgeDocument, 'domain' | 'title' | 'mimeType'> &
  Partial<Pick<KnowledgeDocument, 'id' | 'sourceUrl' | 'status' | 'metadata'>>;

export type NewKnowledgeChunk = Pick<KnowledgeChunk, 'ordinal' | 'content'> &
  Partial<
    Pick<
      KnowledgeChunk,
      'id' | 'headingPath' | 'tokenCount' | 'embedding' | 'phase' | 'triggerAction'
    >
  >;

export type NewExtraction = Pick<Extraction, 'url' | 'schema'> &
  Partial<Pick<Extraction, 'id' | 'taskId' | 'data' | 'status' | 'error'>>;

/** What upsert takes: everything but identity, counters and times; replay is optional. */
export type NewExtractionStrategy = Omit<
  ExtractionStrategy,
  | 'id'
  | 'tenantId'
  | 'successCount'
  | 'failureCount'
  | 'lastUsed'
  | 'createdAt'
  | 'updatedAt'
  | 'replay'
> & { replay?: Record<string, unknown> | null };

export type NewExtractionResult = Omit<ExtractionResultRecord, 'id' | 'tenantId' | 'createdAt'> & {
  id?: string;
};

export type NewDocumentRecord = Pick<
  DocumentRecord,
  'userId' | 'fileName' | 'title' | 'mimeType' | 'sizeBytes' | 'pages'
> &
  Partial<Pick<DocumentRecord, 'id' | 'warnings' | 'status'>>;

export type NewDocumentExtraction = Pick<DocumentExtraction, 'userId' | 'documentId'> &
  Partial<Pick<DocumentExtraction, 'id' | 'schema' | 'instructions'>>;

export type NewStack = Pick<Stack, 'userId' | 'name' | 'documentIds'> &
  Partial<Pick<Stack, 'id' | 'columns' | 'instructions'>>;

export type NewCollectedItem = Pick<CollectedItem, 'taskId' | 'type' | 'uniqueKey' | 'data'> &
  Partial<Pick<CollectedItem, 'id' | 'sourceUrl'>>;

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

// ---------------------------------------------------------------- repositories

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

export interface SessionRepository {
  create(
    tenantId: string,
    input: { userId: string; url?: string | null; title?: string | null; id?: string },
  ): Promise<Session>;
  get(tenantId: string, id: string): Promise<Session | null>;
  update(
    tenantId: string,
    id: string,
    patch: Partial<Pick<Session, 'status' | 'url' | 'title'>>,
  ): Promise<Session | null>;
  listByUser(
    tenantId: string,
    userId: string,
    options?: { limit?: number; cursor?: string | null },
  ): Promise<Page<Session>>;
}

export interface MessageRepository {
  append(tenantId: string, input: NewMessage): Promise<Message>;
  /** Oldest first. `limit` keeps the newest `limit` messages (still returned oldest first). */
  list(tenantId: string, sessionId: string, options?: { limit?: number }): Promise<Message[]>;
  /** Updates status/error of the newest message of the session (lastActionStatus). */
  updateLast(
    tenantId: string,
    sessionId: string,
    patch: Partial<Pick<Message, 'status' | 'error'>>,
  ): Promise<Message | null>;
}

export interface TaskRepository {
  create(tenantId: string, input: NewTask): Promise<Task>;
  get(tenantId: string, id: string): Promise<Task | null>;
  /**
   * Applies the patch and bumps `version`. With `ifVersion`, throws VersionConflictError unless
   * the stored version equals it (only one of two concurrent requests advances a task).
   * Returns null if the task does not exist for this tenant.
   */
  update(
    tenantId: string,
    id: string,
    patch: TaskPatch,
    options?: { ifVersion?: number },
  ): Promise<Task | null>;
  /** Newest first. */
  list(
    tenantId: string,
    options?: {
      status?: TaskStatus[];
      userId?: string;
      sessionId?: string;
      /** Creation window (admin reports): `createdFrom` inclusive, `createdTo` exclusive. */
      createdFrom?: string;
      createdTo?: string;
      limit?: number;
      cursor?: string | null;
    },
  ): Promise<Page<Task>>;
  /** The newest active/executing task of a session, optionally on a URL. */
  findActive(tenantId: string, input: { sessionId: string; url?: string }): Promise<Task | null>;
  /** Marks active/executing tasks not updated since `olderThan` as interrupted; returns count. */
  expireStale(tenantId: string, input: { olderThan: string; sessionId?: string }): Promise<number>;
}

export interface TaskActionRepository {
  insert(tenantId: string, input: NewTaskAction): Promise<TaskAction>;
  /** One batched write (one transaction / one insertMany). */
  insertMany(tenantId: string, inputs: NewTaskAction[]): Promise<TaskAction[]>;
  get(tenantId: string, id: string): Promise<TaskAction | null>;
  /** Ordered by stepIndex then createdAt. */
  listByTask(tenantId: string, taskId: string): Promise<TaskAction[]>;
  getLast(tenantId: string, taskId: string): Promise<TaskAction | null>;
  /**
   * The actions of several tasks at once (admin metrics over a page of tasks), ordered by
   * taskId, then like listByTask. Ids of other tenants' tasks contribute nothing.
   */
  listByTasks(tenantId: string, taskIds: readonly string[]): Promise<TaskAction[]>;
  update(
    tenantId: string,
    id: string,
    patch: Partial<Pick<TaskAction, 'verification' | 'status' | 'metrics' | 'expectedOutcome'>>,
  ): Promise<TaskAction | null>;
}

export interface TokenUsageRepository {
  /** Append-only. Returns false (and changes nothing) when the id was already logged. */
  append(tenantId: string, input: NewTokenUsageLog): Promise<boolean>;
  /** Oldest first, `from` inclusive, `to` exclusive. */
  list(
    tenantId: string,
    options?: { from?: string; to?: string; taskId?: string; limit?: number },
  ): Promise<TokenUsageLog[]>;
  /** Sums per group, ordered by key. `from` inclusive, `to` exclusive; days are UTC. */
  rollup(
    tenantId: string,
    options: { from?: string; to?: string; groupBy: UsageGroupBy },
  ): Promise<UsageRollupRow[]>;
  /**
   * Sums per (groupBy, seriesBy) pair — e.g. cost per day per action type for a stacked chart —
   * ordered by key then series. Window and key forms as in `rollup`.
   */
  rollupSeries(
    tenantId: string,
    options: { from?: string; to?: string; groupBy: UsageGroupBy; seriesBy: UsageGroupBy },
  ): Promise<UsageSeriesRow[]>;
  /** Sums per task for the given task ids (key = taskId), ordered by key; absent tasks omitted. */
  totalsByTask(tenantId: string, taskIds: readonly string[]): Promise<UsageRollupRow[]>;
}

export interface SkillRepository {
  /**
   * Inserts a skill (successCount 1, failureCount 0), or (same domain + goal + failed action +
   * successful action) bumps its successCount and lastUsed. Throws LimitExceededError when a
   * new skill would exceed the per-tenant maximum; an existing skill is still bumped.
   */
  upsert(tenantId: string, input: NewSkill, now?: string): Promise<Skill>;
  get(tenantId: string, id: string): Promise<Skill | null>;
  /**
   * Skills for a domain (optionally a goal substring), not expired (lastUsed within the TTL),
   * with success rate >= minSuccessRate (default 0.5), most recently used first.
   */
  find(
    tenantId: string,
    input: { domain: string; goal?: string; limit?: number; minSuccessRate?: number; now?: string },
  ): Promise<Skill[]>;
  recordOutcome(
    tenantId: string,
    id: string,
    success: boolean,
    now?: string,
  ): Promise<Skill | null>;
  count(tenantId: string): Promise<number>;
  /** The tenant's stored skills and the sums of their counters (the skill KPIs); zeros if none. */
  totals(tenantId: string): Promise<SkillTotals>;
  /** Deletes skills whose lastUsed is older than the TTL (Mongo also has a TTL index). */
  deleteExpired(now?: string): Promise<number>;
}

export interface KnowledgeRepository {
  createDocument(tenantId: string, input: NewKnowledgeDocument): Promise<KnowledgeDocument>;
  getDocument(tenantId: string, id: string): Promise<KnowledgeDocument | null>;
  /** Oldest first. `sourceUrl` finds the document a page or file was ingested as. */
  listDocuments(
    tenantId: string,
    options?: { domain?: string; sourceUrl?: string },
  ): Promise<KnowledgeDocument[]>;
  updateDocument(
    tenantId: string,
    id: string,
    patch: Partial<Pick<KnowledgeDocument, 'status' | 'title' | 'metadata'>>,
  ): Promise<KnowledgeDocument | null>;
  /** Deletes the document and its chunks. */
  deleteDocument(tenantId: string, id: string): Promise<boolean>;
  /** Chunks take the document's domain. Throws if the document does not exist for this tenant. */
  addChunks(
    tenantId: string,
    documentId: string,
    chunks: NewKnowledgeChunk[],
  ): Promise<KnowledgeChunk[]>;
  /** Ordered by documentId then ordinal. Superseded chunks are left out unless asked for. */
  listChunks(
    tenantId: string,
    /** `domain` as a list matches any of them: RAG reads every domain a page allows at once. */
    options?: { documentId?: string; domain?: string | string[]; includeSuperseded?: boolean },
  ): Promise<KnowledgeChunk[]>;
  markSuperseded(tenantId: string, chunkIds: string[], supersededBy: string): Promise<number>;
  /**
   * Lexical search over current (not superseded) chunks of the given domains: libSQL FTS5
   * bm25, Mongo `$text`. The query is plain words (no operator syntax reaches the engine).
   * Best first, at most `limit`; heading paths are searched with the content.
   */
  searchLexical(
    tenantId: string,
    options: { domains: string[]; query: string; limit: number },
  ): Promise<ScoredKnowledgeChunk[]>;
  /**
   * Nearest current chunks of the given domains by cosine similarity (score = 1 − distance):
   * libSQL's vector index, Mongo Atlas `$vectorSearch`. Only chunks whose embedding has the
   * query's length are candidates. Best first, at most `limit`.
   */
  searchVector(
    tenantId: string,
    options: { domains: string[]; embedding: number[]; limit: number },
  ): Promise<ScoredKnowledgeChunk[]>;
  /** Whether any current chunk exists for these domains, without reading chunks. */
  hasChunks(tenantId: string, domains: string[]): Promise<boolean>;
  /** Current (not superseded) chunk count per document id; documents with none are absent. */
  countChunks(tenantId: string): Promise<Record<string, number>>;
  usage(tenantId: string): Promise<KnowledgeUsage>;
  /** Defaults (every site allowed) when the tenant never saved settings. */
  getSettings(tenantId: string): Promise<KnowledgeSettings>;
  updateSettings(
    tenantId: string,
    patch: Pick<KnowledgeSettings, 'allowedDomains'>,
  ): Promise<KnowledgeSettings>;
}

export interface KnowledgeJobRepository {
  create(tenantId: string, input: NewKnowledgeJob): Promise<KnowledgeJob>;
  get(tenantId: string, id: string): Promise<KnowledgeJob | null>;
  /** Newest first. */
  list(
    tenantId: string,
    options?: { limit?: number; status?: KnowledgeJobStatus[]; kind?: KnowledgeJobKind },
  ): Promise<KnowledgeJob[]>;
  /**
   * With `unlessFinished`, a finished job keeps what it has: a completed or failed one comes
   * back as stored, so a worker that lost its job overwrites nothing; a cancelled one still
   * takes counts and lists (the pages under way when the user cancelled were stored) but never
   * another status.
   */
  update(
    tenantId: string,
    id: string,
    patch: KnowledgeJobPatch,
    options?: { unlessFinished?: boolean },
  ): Promise<KnowledgeJob | null>;
  /** Queued or running jobs of every tenant (a restarted server resumes them), oldest first. */
  listUnfinished(): Promise<KnowledgeJob[]>;
}

/** An uploaded file kept for the job that reads it, without its bytes. */
export interface StoredUpload {
  id: string;
  tenantId: string;
  fileName: string;
  mimeType: string | null;
  sizeBytes: number;
  createdAt: string;
}

export interface NewUpload {
  /** Default: a new id. Knowledge uploads use their job's id, so a job finds its file. */
  id?: string;
  fileName: string;
  mimeType?: string | null;
  bytes: Uint8Array;
}

/**
 * Uploaded files waiting for the background job that reads them: whichever process runs the job
 * (several, maybe on several machines, share only the store) reads the bytes from here. Kept
 * until the job is finished for good, then deleted; the sweep finds the ones left behind.
 * MongoDB keeps them in chunks (a document holds at most 16 MB; an upload may be bigger).
 */
export interface UploadRepository {
  /** Stores the file; an id already stored is a DuplicateKeyError. */
  put(tenantId: string, input: NewUpload): Promise<StoredUpload>;
  get(tenantId: string, id: string): Promise<(StoredUpload & { bytes: Uint8Array }) | null>;
  /** False when there was none (or it is another tenant's). */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** Every tenant's uploads stored before `before` (ISO), oldest first: the sweep's candidates. */
  listCreatedBefore(before: string, limit?: number): Promise<StoredUpload[]>;
}

export type QueuedJobStatus = 'waiting' | 'active' | 'completed' | 'failed';

/**
 * A unit of background work in the embedded job queue (@tandem/jobs' embedded adapter): what it
 * is, who holds it and until when, and how often it has been tried. Every process on the store
 * claims from the same rows, so a job runs on one worker at a time and a worker that dies (its
 * lease not renewed) is replaced by another process's claim.
 */
export interface QueuedJob {
  /** The caller's id (a crawl's job id…): unique within `queue`. */
  id: string;
  queue: string;
  tenantId: string;
  /** JSON, as given. */
  data: unknown;
  status: QueuedJobStatus;
  /** Times a worker claimed it (an attempt cut short by a dead worker counts). */
  attempts: number;
  maxAttempts: number;
  /** Delay before the second attempt; doubled for each further one. */
  backoffMs: number;
  /** Not claimed before this (backoff). */
  runAt: string;
  /** The worker holding it while active; null otherwise. */
  owner: string | null;
  leaseExpiresAt: string | null;
  /** Why the last attempt failed (kept when a later attempt is waiting). */
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface NewQueuedJob {
  id: string;
  queue: string;
  tenantId: string;
  data: unknown;
  maxAttempts: number;
  backoffMs: number;
  /** Default: now. */
  runAt?: string;
}

/**
 * The embedded queue's rows. Reads for views are tenant-scoped; claiming, renewing and finishing
 * are the workers' and go by (queue, id, owner): a worker serves every tenant, and only the
 * owner of a live lease can finish an attempt (a worker that lost its lease changes nothing).
 */
export interface QueuedJobRepository {
  /** Inserts the job waiting; when (queue, id) exists in any state, returns it unchanged. */
  add(input: NewQueuedJob, now?: string): Promise<{ job: QueuedJob; created: boolean }>;
  get(tenantId: string, queue: string, id: string): Promise<QueuedJob | null>;
  /**
   * Claims for `owner`, until `now + leaseMs`, the runnable job of `queue` with the earliest
   * runAt (then createdAt, id): a waiting job whose runAt has come, or an active one whose lease
   * has expired (its worker died) and that has attempts left (one without is for `abandon`). It
   * becomes active and its attempts grow by one. With
   * `onePerTenant`, a job whose tenant already has a live active job in the queue is passed over.
   * Null when none is runnable.
   */
  claim(
    queue: string,
    owner: string,
    leaseMs: number,
    options?: { onePerTenant?: boolean },
    now?: string,
  ): Promise<QueuedJob | null>;
  /** Extends the owner's live lease to `now + leaseMs`; false when it is no longer the owner's. */
  renew(queue: string, id: string, owner: string, leaseMs: number, now?: string): Promise<boolean>;
  /** Completed, when `owner` still holds it; false otherwise (nothing changes). */
  complete(queue: string, id: string, owner: string, now?: string): Promise<boolean>;
  /**
   * The owner's attempt failed with `error`: waiting again from `retryAt`, or failed for good
   * when `retryAt` is null. False (nothing changes) when `owner` no longer holds it.
   */
  fail(
    queue: string,
    id: string,
    owner: string,
    error: string,
    retryAt: string | null,
    now?: string,
  ): Promise<boolean>;
  /**
   * The owner stops without finishing (its process is closing): the job waits again at once,
   * its attempt not counted. False (nothing changes) when `owner` no longer holds it.
   */
  release(queue: string, id: string, owner: string, now?: string): Promise<boolean>;
  /**
   * Fails for good an active job whose lease expired with no attempt left (its last worker
   * died), whoever held it; false when the job is not such a job.
   */
  abandon(queue: string, id: string, error: string, now?: string): Promise<boolean>;
  /** A failed job waits again with its attempts reset (the retry button); null if not failed. */
  retry(tenantId: string, queue: string, id: string, now?: string): Promise<QueuedJob | null>;
  /**
   * Active jobs of `queue` whose lease has expired with no attempt left (to abandon), oldest
   * first, at most `limit` (default 20).
   */
  listExhausted(queue: string, options?: { limit?: number }, now?: string): Promise<QueuedJob[]>;
}

/**
 * One live event (a task step, a crawl's progress…) as the embedded event bus (@tandem/jobs)
 * relays it between processes on one store: each process appends what it publishes and reads
 * what the others appended after the last seq it saw.
 */
export interface LiveEventRecord {
  /** Increasing over the whole store, in append order. */
  seq: number;
  /** Names its subject, tenant included: `task:<tenantId>:<taskId>`. */
  channel: string;
  /** The process that published it (it has delivered it to its own listeners already). */
  origin: string;
  /** JSON, as given. */
  data: unknown;
  createdAt: string;
}

/**
 * The embedded event bus's relay. System-level like the job queue's claims: channels carry the
 * tenant, and only the bus reads it (a route reads its own tenant's channel through the bus).
 */
export interface LiveEventRepository {
  /** Appends the event; its seq is greater than every seq appended before it. */
  append(
    input: { channel: string; origin: string; data: unknown },
    now?: string,
  ): Promise<LiveEventRecord>;
  /**
   * Events with seq > `afterSeq` on any of `channels`, oldest first, at most `limit` (default
   * 500). An empty `channels` list answers nothing.
   */
  listAfter(
    afterSeq: number,
    options: { channels: readonly string[]; limit?: number },
  ): Promise<LiveEventRecord[]>;
  /** The greatest seq appended so far (0 when none): where a new reader starts. */
  lastSeq(): Promise<number>;
  /** Deletes the events created before `before`; returns how many. */
  prune(before: string): Promise<number>;
}

export interface ExtractionRepository {
  create(tenantId: string, input: NewExtraction): Promise<Extraction>;
  get(tenantId: string, id: string): Promise<Extraction | null>;
  /** Newest first. */
  list(tenantId: string, options?: { taskId?: string; limit?: number }): Promise<Extraction[]>;
  update(
    tenantId: string,
    id: string,
    patch: Partial<Pick<Extraction, 'data' | 'status' | 'error'>>,
  ): Promise<Extraction | null>;
}

export interface ExtractionStrategyRepository {
  /**
   * Inserts (counts 0, replay null unless given), or, for the tenant's strategy with the same
   * (urlPattern, schemaHash, cssSelector), replaces queryTemplate, outputSchema, domain,
   * lastUsed and updatedAt, and replay only when `input.replay !== undefined`, keeping its id,
   * counts and createdAt.
   */
  upsert(tenantId: string, input: NewExtractionStrategy, now?: string): Promise<ExtractionStrategy>;
  get(tenantId: string, id: string): Promise<ExtractionStrategy | null>;
  /** Strategies of a domain, most recently used first (then id, descending); default 50. */
  listByDomain(
    tenantId: string,
    domain: string,
    options?: { limit?: number },
  ): Promise<ExtractionStrategy[]>;
  /** Adds one success or failure and sets lastUsed (and updatedAt) to `now`. */
  recordResult(
    tenantId: string,
    id: string,
    success: boolean,
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  /** Sets (or, with null, forgets) the learned recipe; updatedAt moves, lastUsed does not. */
  setReplay(
    tenantId: string,
    id: string,
    replay: Record<string, unknown> | null,
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  /**
   * The replay as a list of recipes, `{ recipes: [{ id, replays, used, … }] }` (the rest of each
   * entry is opaque): each change below is one atomic write, so concurrent replays all count and
   * a retire is never undone by a count written from an older read. updatedAt moves, lastUsed
   * does not. Each returns the strategy after the write, or null when there is no such strategy
   * (add) or it holds no recipe `recipeId` (count, retire).
   *
   * addRecipe: puts `entry` in (replacing an entry with its id, with `replays` 0 and `used` =
   * now), then keeps the `keep` most recently used (`used`, newest first). A replay that is not
   * such a list (null, or an older single recipe) is replaced by a list of `entry` alone.
   */
  addRecipe(
    tenantId: string,
    id: string,
    entry: ExtractionRecipeEntry,
    keep: number,
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  /** One more replay of recipe `recipeId` (`replays` + 1), used now. */
  countRecipeReplay(
    tenantId: string,
    id: string,
    recipeId: string,
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  /** Removes recipe `recipeId` from the list, leaving the others as they are. */
  retireRecipe(
    tenantId: string,
    id: string,
    recipeId: string,
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  /**
   * Moves the strategy to another URL pattern when it still has `from` (compare and set: two
   * widenings from one read do not undo each other); null when there is no such strategy, its
   * pattern is no longer `from`, or another strategy of the tenant already has `to` with the same
   * schemaHash and cssSelector. updatedAt moves, lastUsed does not.
   */
  setUrlPattern(
    tenantId: string,
    id: string,
    change: { from: string; to: string },
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  delete(tenantId: string, id: string): Promise<boolean>;
}

export interface ExtractionResultRepository {
  create(
    tenantId: string,
    input: NewExtractionResult,
    now?: string,
  ): Promise<ExtractionResultRecord>;
  get(tenantId: string, id: string): Promise<ExtractionResultRecord | null>;
  /** Oldest first (createdAt, then id); default limit 1000, at most 10,000. */
  listByTask(
    tenantId: string,
    taskId: string,
    options?: { extractionId?: string; limit?: number },
  ): Promise<ExtractionResultRecord[]>;
}

export interface DocumentRepository {
  create(tenantId: string, input: NewDocumentRecord): Promise<DocumentRecord>;
  /** With `userId`, null unless that user uploaded it. */
  get(tenantId: string, id: string, options?: { userId?: string }): Promise<DocumentRecord | null>;
  /** Newest first, without the text; default 50. */
  list(tenantId: string, options?: { userId?: string; limit?: number }): Promise<DocumentSummary[]>;
  /**
   * A `processing` document read: its text and what the reader found. Null (nothing changed)
   * unless it was `processing`: a finished document is never overwritten.
   */
  markReady(
    tenantId: string,
    id: string,
    input: Pick<DocumentRecord, 'title' | 'mimeType' | 'pages' | 'warnings'>,
  ): Promise<DocumentRecord | null>;
  /** A `processing` document that could not be read; null unless it was `processing`. */
  markFailed(
    tenantId: string,
    id: string,
    input: { error: string; failureCode: string },
  ): Promise<DocumentRecord | null>;
  /** A `failed` document back to `processing` for a retry (error cleared); null unless `failed`. */
  reopen(tenantId: string, id: string): Promise<DocumentRecord | null>;
}

/**
 * Extractions and their write history. Every write names the user as well as the tenant and
 * changes nothing of another user's extraction. Writes that carry a `write` append it to the
 * history in the same atomic write as the change: a history entry exists exactly when its
 * change does. A write that returns null changed nothing.
 */
export interface DocumentExtractionRepository {
  create(tenantId: string, input: NewDocumentExtraction): Promise<DocumentExtraction>;
  /** With `userId`, null unless the extraction is that user's. */
  get(
    tenantId: string,
    id: string,
    options?: { userId?: string },
  ): Promise<DocumentExtraction | null>;
  /** Newest first (createdAt, then id); default 20. */
  list(
    tenantId: string,
    options?: { userId?: string; documentId?: string; limit?: number; cursor?: string | null },
  ): Promise<Page<DocumentExtraction>>;
  setDocumentType(
    tenantId: string,
    id: string,
    input: { userId: string; documentType: string; write: WriteRecord },
  ): Promise<DocumentExtraction | null>;
  /** Replaces every field and confidence (the agent's extract_fields). */
  replaceFields(
    tenantId: string,
    id: string,
    input: {
      userId: string;
      fields: Record<string, unknown>;
      confidences: Record<string, unknown>;
      write: WriteRecord;
    },
  ): Promise<DocumentExtraction | null>;
  /**
   * Sets `value` at `path` in the fields and `confidence` at the same path in the confidences,
   * in one atomic update (libSQL json_set, Mongo $set/$push on the path). The path's parent must
   * already exist in the fields: an object (the key is set or replaced) or an array whose length
   * is at least the index (the element is replaced, or appended at index = length). Otherwise
   * null and nothing changes.
   */
  setField(
    tenantId: string,
    id: string,
    input: {
      userId: string;
      path: FieldPathSegment[];
      value: unknown;
      confidence: unknown;
      write: WriteRecord;
    },
  ): Promise<DocumentExtraction | null>;
  /**
   * Removes the value at `path` (and its confidence) in one atomic update; an array element's
   * followers move up one place. Null, changing nothing, when the path does not exist.
   */
  removeField(
    tenantId: string,
    id: string,
    input: { userId: string; path: FieldPathSegment[]; write: WriteRecord },
  ): Promise<DocumentExtraction | null>;
  /** Marks it completed unless it has no fields (then null, unchanged); clears `error`. */
  complete(
    tenantId: string,
    id: string,
    input: { userId: string; write: WriteRecord },
  ): Promise<DocumentExtraction | null>;
  /** The run's outcome (no history entry: not a tool write). */
  setStatus(
    tenantId: string,
    id: string,
    input: { userId: string; status?: DocumentExtractionStatus; error: string | null },
  ): Promise<DocumentExtraction | null>;
  /** Adds one model call's cost and tokens (atomic increments; concurrent adds both count). */
  addUsage(
    tenantId: string,
    id: string,
    usage: { costMicroUsd: number; tokens: number },
  ): Promise<void>;
  /**
   * The history, oldest first; with `afterSeq`, only the writes after that seq (what a run's
   * stream follower missed, or the write a tool just made).
   */
  listWrites(
    tenantId: string,
    id: string,
    options?: { afterSeq?: number },
  ): Promise<ExtractionWrite[]>;
}

/** Stacks and their rows; like extractions, every write names the user. */
export interface StackRepository {
  create(tenantId: string, input: NewStack): Promise<Stack>;
  get(tenantId: string, id: string, options?: { userId?: string }): Promise<Stack | null>;
  /** Newest first; default 20. */
  list(tenantId: string, options?: { userId?: string; limit?: number }): Promise<Stack[]>;
  setColumns(
    tenantId: string,
    id: string,
    input: { userId: string; columns: StackColumn[] },
  ): Promise<Stack | null>;
  /** Writes a document's whole row (inserted, or replaced). Null when the stack is not the user's. */
  putRow(
    tenantId: string,
    stackId: string,
    input: {
      userId: string;
      documentId: string;
      cells: Record<string, unknown>;
      confidences: Record<string, number>;
    },
  ): Promise<StackRow | null>;
  /** Sets one cell and its confidence in one atomic update; null when the row does not exist. */
  setCell(
    tenantId: string,
    stackId: string,
    input: {
      userId: string;
      documentId: string;
      column: string;
      value: unknown;
      confidence: number;
    },
  ): Promise<StackRow | null>;
  /** Rows in the order they were first written. */
  listRows(tenantId: string, stackId: string): Promise<StackRow[]>;
  /** Marks it completed unless it has no rows (then null, unchanged); clears `error`. */
  complete(tenantId: string, id: string, input: { userId: string }): Promise<Stack | null>;
  setStatus(
    tenantId: string,
    id: string,
    input: { userId: string; status?: DocumentExtractionStatus; error: string | null },
  ): Promise<Stack | null>;
  addUsage(
    tenantId: string,
    id: string,
    usage: { costMicroUsd: number; tokens: number },
  ): Promise<void>;
}

export interface CollectedItemRepository {
  /** Inserts unless (task, type, uniqueKey) exists; `inserted: false` returns the existing item. */
  insert(
    tenantId: string,
    input: NewCollectedItem,
  ): Promise<{ inserted: boolean; item: CollectedItem }>;
  /** Ordered by seq. */
  list(
    tenantId: string,
    taskId: string,
    options?: { type?: string; afterSeq?: number; limit?: number },
  ): Promise<CollectedItem[]>;
  countByType(tenantId: string, taskId: string): Promise<Record<string, number>>;
}

export interface IdempotencyRepository {
  /** Claims a key. Throws DuplicateKeyError if (tenant, key) already exists and has not expired. */
  begin(
    tenantId: string,
    input: { key: string; scope: string; requestHash: string; ttlMs: number },
    now?: string,
  ): Promise<IdempotencyRecord>;
  /** Null when the key is unknown or its claim has expired. */
  get(tenantId: string, key: string): Promise<IdempotencyRecord | null>;
  /**
   * Extends a live in-progress claim to `now + ttlMs` (a lease its holder keeps renewing, so a
   * holder that died frees the key within one lease). False when the claim is gone, expired or
   * completed, or (with `requestHash`) is another holder's: the holder has lost it.
   */
  renew(
    tenantId: string,
    key: string,
    ttlMs: number,
    options?: { now?: string; requestHash?: string },
  ): Promise<boolean>;
  /**
   * Stores the response and marks the claim completed; with `ttlMs`, the completed record is
   * kept until `now + ttlMs` (the replay window), else until the claim's own expiry.
   */
  complete(
    tenantId: string,
    key: string,
    response: unknown,
    options?: { ttlMs?: number; now?: string },
  ): Promise<IdempotencyRecord | null>;
  /**
   * Releases a claim whose request failed, so the client may retry with the same key. With
   * `requestHash`, only a claim made with it (an owned lease: never one taken since by another
   * owner), in the same statement.
   */
  release(tenantId: string, key: string, options?: { requestHash?: string }): Promise<boolean>;
}

/** Counters for the store-backed rate limiter (keys already carry the tenant). */
export interface RateLimitRepository {
  /**
   * Adds `points` to the counter `key`, starting a new window of `durationMs` if the previous
   * one ended. Returns the points consumed in the current window and when it ends (epoch ms).
   */
  increment(
    key: string,
    points: number,
    durationMs: number,
    nowMs?: number,
  ): Promise<{ consumed: number; expiresAtMs: number }>;
  get(key: string, nowMs?: number): Promise<{ consumed: number; expiresAtMs: number } | null>;
  delete(key: string): Promise<boolean>;
}

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

export const SKILL_TTL_MS = 90 * 24 * 60 * 60 * 1000;
export const MAX_SKILLS_PER_TENANT = 10_000;
export const MIN_SKILL_SUCCESS_RATE = 0.5;
