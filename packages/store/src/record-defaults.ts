// What a new record looks like before either adapter stores it: one function per record kind
// turns a create input into the complete record, filling every omitted field with its default.
// Both adapters build their row / document from these, so a default is decided once and the
// two stores cannot drift apart (the contract suite only catches a drift it happens to test).
//
// `now` is the write time in the port's ISO form; the caller normalises it. Adapter-owned
// values stay with the adapters: a message's or collected item's `seq` comes from the store
// (a sub-select or an atomic counter), so those builders return the record without it.
// Token usage logs are not here: every field of one is given, so there is no default to share.
import { emptyTaskMetrics } from '@tandem/contracts';
import type {
  ApiKeyRecord,
  ApiKeyRepository,
  CollectedItem,
  DocumentExtraction,
  DocumentRecord,
  Extraction,
  ExtractionResultRecord,
  ExtractionStrategy,
  IdempotencyRecord,
  IdempotencyRepository,
  KnowledgeChunk,
  KnowledgeDocument,
  KnowledgeJob,
  KnowledgeJobProgress,
  KnowledgeSettings,
  Message,
  NewCollectedItem,
  NewDocumentExtraction,
  NewDocumentRecord,
  NewExtraction,
  NewExtractionResult,
  NewExtractionStrategy,
  NewKnowledgeChunk,
  NewKnowledgeDocument,
  NewKnowledgeJob,
  NewMessage,
  NewQueuedJob,
  NewSkill,
  NewStack,
  NewTask,
  NewTaskAction,
  QueuedJob,
  Session,
  SessionRepository,
  Skill,
  Stack,
  Task,
  TaskAction,
  Tenant,
  TenantRepository,
} from './port';
import { hashApiKey, isoPlusMs, isoTime, keyDisplayPrefix, newId } from './shared';

// The port declares these inputs inline on its repositories; named here so the builders read.
export type NewTenant = Parameters<TenantRepository['create']>[0];
export type NewApiKey = Parameters<ApiKeyRepository['create']>[1];
export type NewSession = Parameters<SessionRepository['create']>[1];
export type NewIdempotencyClaim = Parameters<IdempotencyRepository['begin']>[1];

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

export function newSessionRecord(tenantId: string, input: NewSession, now: string): Session {
  return {
    id: input.id ?? newId(),
    tenantId,
    userId: input.userId,
    status: 'active',
    url: input.url ?? null,
    title: input.title ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

export function newMessageRecord(
  tenantId: string,
  input: NewMessage,
  now: string,
): Omit<Message, 'seq'> {
  return {
    id: input.id ?? newId(),
    tenantId,
    sessionId: input.sessionId,
    role: input.role,
    content: input.content,
    actionString: input.actionString ?? null,
    taskId: input.taskId ?? null,
    status: input.status ?? null,
    error: input.error ?? null,
    domSummary: input.domSummary ?? null,
    createdAt: now,
  };
}

/** A task starts active at step 0, version 1, unless the input already decided more. */
export function newTaskRecord(tenantId: string, input: NewTask, now: string): Task {
  return {
    id: input.id ?? newId(),
    tenantId,
    userId: input.userId,
    sessionId: input.sessionId ?? null,
    url: input.url,
    query: input.query,
    status: input.status ?? 'active',
    complexity: input.complexity ?? null,
    plan: input.plan ?? null,
    hierarchicalPlan: input.hierarchicalPlan ?? null,
    currentStepIndex: input.currentStepIndex ?? 0,
    corrections: input.corrections ?? [],
    metrics: input.metrics ?? emptyTaskMetrics(),
    lastChain: input.lastChain ?? null,
    webSearchResult: input.webSearchResult ?? null,
    result: input.result ?? null,
    collectLimit: input.collectLimit ?? null,
    consecutiveFailures: input.consecutiveFailures ?? 0,
    consecutiveSuccessWithoutTaskComplete: input.consecutiveSuccessWithoutTaskComplete ?? 0,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** A caller may backdate an action (replayed history); its time is normalised like `now`. */
export function newTaskActionRecord(
  tenantId: string,
  input: NewTaskAction,
  now: string,
): TaskAction {
  return {
    id: input.id ?? newId(),
    tenantId,
    taskId: input.taskId,
    stepIndex: input.stepIndex,
    thought: input.thought,
    action: input.action,
    expectedOutcome: input.expectedOutcome ?? null,
    beforeState: input.beforeState ?? null,
    verification: input.verification ?? null,
    status: input.status,
    metrics: input.metrics ?? null,
    createdAt: input.createdAt === undefined ? now : isoTime(input.createdAt),
  };
}

/** A new skill has just worked once, so it starts at one success. */
export function newSkillRecord(tenantId: string, input: NewSkill, now: string): Skill {
  return {
    id: newId(),
    tenantId,
    domain: input.domain,
    goal: input.goal,
    failedState: input.failedState,
    successfulAction: input.successfulAction,
    successCount: 1,
    failureCount: 0,
    lastUsed: now,
    createdAt: now,
  };
}

export function newKnowledgeDocumentRecord(
  tenantId: string,
  input: NewKnowledgeDocument,
  now: string,
): KnowledgeDocument {
  return {
    id: input.id ?? newId(),
    tenantId,
    domain: input.domain,
    sourceUrl: input.sourceUrl ?? null,
    title: input.title,
    mimeType: input.mimeType,
    status: input.status ?? 'pending',
    metadata: input.metadata ?? {},
    createdAt: now,
    updatedAt: now,
  };
}

/** A chunk copies its document's domain, so RAG reads a domain's chunks without a join. */
export function newKnowledgeChunkRecord(
  tenantId: string,
  document: Pick<KnowledgeDocument, 'id' | 'domain'>,
  input: NewKnowledgeChunk,
  now: string,
): KnowledgeChunk {
  return {
    id: input.id ?? newId(),
    tenantId,
    documentId: document.id,
    domain: document.domain,
    ordinal: input.ordinal,
    content: input.content,
    headingPath: input.headingPath ?? [],
    tokenCount: input.tokenCount ?? 0,
    embedding: input.embedding ?? null,
    phase: input.phase ?? null,
    triggerAction: input.triggerAction ?? null,
    supersededBy: null,
    createdAt: now,
  };
}

/** What a tenant that never saved knowledge settings gets: every site allowed. */
export function defaultKnowledgeSettings(tenantId: string): KnowledgeSettings {
  return { tenantId, allowedDomains: [], updatedAt: null };
}

export const emptyKnowledgeJobProgress = (): KnowledgeJobProgress => ({
  discovered: 0,
  fetched: 0,
  ingested: 0,
  unchanged: 0,
  skipped: 0,
  failed: 0,
});

/**
 * A crawl starts queued with zero progress. The frontier is what the caller seeds (empty by
 * default: the crawler decides how a job's URL enters it, e.g. after reading a sitemap).
 */
export function newKnowledgeJobRecord(
  tenantId: string,
  input: NewKnowledgeJob,
  now: string,
): KnowledgeJob {
  return {
    id: input.id ?? newId(),
    tenantId,
    userId: input.userId ?? null,
    kind: input.kind ?? 'crawl',
    upload: input.upload ?? null,
    url: input.url,
    strategy: input.strategy,
    maxPages: input.maxPages,
    maxDepth: input.maxDepth,
    domain: input.domain,
    status: 'queued',
    progress: emptyKnowledgeJobProgress(),
    frontier: input.frontier ?? [],
    visited: [],
    errors: [],
    error: null,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
  };
}

/**
 * A queued job waits from `runAt` (now unless given), untried and unowned. Its data is kept as
 * given; each adapter stores it as JSON.
 */
export function newQueuedJobRecord(input: NewQueuedJob, now: string): QueuedJob {
  return {
    id: input.id,
    queue: input.queue,
    tenantId: input.tenantId,
    data: input.data,
    status: 'waiting',
    attempts: 0,
    maxAttempts: input.maxAttempts,
    backoffMs: input.backoffMs,
    runAt: input.runAt === undefined ? now : isoTime(input.runAt),
    owner: null,
    leaseExpiresAt: null,
    error: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  };
}

export function newExtractionRecord(
  tenantId: string,
  input: NewExtraction,
  now: string,
): Extraction {
  return {
    id: input.id ?? newId(),
    tenantId,
    taskId: input.taskId ?? null,
    url: input.url,
    schema: input.schema,
    data: input.data ?? null,
    status: input.status ?? 'pending',
    error: input.error ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The strategy an upsert inserts when none exists yet. Counts start at 0: learning a strategy
 * is not yet a successful extraction. Fields are copied one by one so stray keys of the
 * caller's object never reach a row or document.
 */
export function newExtractionStrategyRecord(
  tenantId: string,
  input: NewExtractionStrategy,
  now: string,
): ExtractionStrategy {
  return {
    id: newId(),
    tenantId,
    domain: input.domain,
    urlPattern: input.urlPattern,
    cssSelector: input.cssSelector,
    outputSchema: input.outputSchema,
    schemaHash: input.schemaHash,
    queryTemplate: input.queryTemplate,
    replay: input.replay ?? null,
    successCount: 0,
    failureCount: 0,
    lastUsed: now,
    createdAt: now,
    updatedAt: now,
  };
}

/** Every field of a result is given; only the id (unless the caller chose one) and time are not. */
export function newExtractionResultRecord(
  tenantId: string,
  input: NewExtractionResult,
  now: string,
): ExtractionResultRecord {
  return {
    id: input.id ?? newId(),
    tenantId,
    taskId: input.taskId,
    extractionId: input.extractionId,
    query: input.query,
    sourceUrl: input.sourceUrl,
    data: input.data,
    schemaUsed: input.schemaUsed,
    isPartial: input.isPartial,
    method: input.method,
    contentStats: input.contentStats,
    warnings: input.warnings,
    errors: input.errors,
    createdAt: now,
  };
}

export function newCollectedItemRecord(
  tenantId: string,
  input: NewCollectedItem,
  now: string,
): Omit<CollectedItem, 'seq'> {
  return {
    id: input.id ?? newId(),
    tenantId,
    taskId: input.taskId,
    type: input.type,
    uniqueKey: input.uniqueKey,
    data: input.data,
    sourceUrl: input.sourceUrl ?? null,
    createdAt: now,
  };
}

/** A fresh claim: in progress, no response yet, live for `ttlMs` from `now`. */
export function newIdempotencyRecord(
  tenantId: string,
  input: NewIdempotencyClaim,
  now: string,
): IdempotencyRecord {
  return {
    tenantId,
    key: input.key,
    scope: input.scope,
    requestHash: input.requestHash,
    status: 'in_progress',
    response: null,
    createdAt: now,
    expiresAt: isoPlusMs(now, input.ttlMs),
  };
}

/** A document as uploaded: page count and characters are derived once, here. */
export function newDocumentRecord(
  tenantId: string,
  input: NewDocumentRecord,
  now: string,
): DocumentRecord {
  const pages = input.pages.map((page) => ({ number: page.number, text: page.text }));
  return {
    id: input.id ?? newId(),
    tenantId,
    userId: input.userId,
    fileName: input.fileName,
    title: input.title,
    mimeType: input.mimeType,
    sizeBytes: input.sizeBytes,
    pages,
    pageCount: pages.length,
    characters: pages.reduce((sum, page) => sum + page.text.length, 0),
    warnings: input.warnings ?? [],
    // Read before it is stored (an inline upload, a test) unless an upload job is to read it.
    status: input.status ?? 'ready',
    error: null,
    failureCode: null,
    createdAt: now,
  };
}

/** A new extraction starts in progress with no fields: the agent's tools write the rest. */
export function newDocumentExtractionRecord(
  tenantId: string,
  input: NewDocumentExtraction,
  now: string,
): DocumentExtraction {
  return {
    id: input.id ?? newId(),
    tenantId,
    userId: input.userId,
    documentId: input.documentId,
    status: 'in_progress',
    documentType: null,
    fields: {},
    confidences: {},
    schema: input.schema ?? null,
    instructions: input.instructions ?? null,
    costMicroUsd: 0,
    tokens: 0,
    error: null,
    createdAt: now,
    updatedAt: now,
  };
}

export function newStackRecord(tenantId: string, input: NewStack, now: string): Stack {
  return {
    id: input.id ?? newId(),
    tenantId,
    userId: input.userId,
    name: input.name,
    documentIds: [...input.documentIds],
    columns: input.columns ?? [],
    status: 'in_progress',
    instructions: input.instructions ?? null,
    costMicroUsd: 0,
    tokens: 0,
    error: null,
    createdAt: now,
    updatedAt: now,
  };
}
