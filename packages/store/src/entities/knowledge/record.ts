// Knowledge for RAG: documents a tenant ingested, their chunks (text, optional embedding), the
// tenant's knowledge settings, and the jobs (crawls, uploads) that ingest documents.
import { newId } from '../../shared';

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

export type NewKnowledgeDocument = Pick<KnowledgeDocument, 'domain' | 'title' | 'mimeType'> &
  Partial<Pick<KnowledgeDocument, 'id' | 'sourceUrl' | 'status' | 'metadata'>>;

export type NewKnowledgeChunk = Pick<KnowledgeChunk, 'ordinal' | 'content'> &
  Partial<
    Pick<
      KnowledgeChunk,
      'id' | 'headingPath' | 'tokenCount' | 'embedding' | 'phase' | 'triggerAction'
    >
  >;

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

// ---------------------------------------------------------------- ingestion jobs

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
