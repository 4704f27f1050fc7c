// Knowledge (docs/specs.md, "ingestion pipeline", "RAG once per request" and "two-phase SPA
// ingestion"): what a tenant teaches the agent beyond the page. Documents come from uploads, crawls
// and the extension's page content; RAG reads their chunks on every interact request.
import { z } from 'zod';
import { ErrorCode } from './errors';

export const KNOWLEDGE_LIMITS = {
  /** One uploaded file (POST /api/knowledge/ingest); above it the answer is 413. */
  uploadBytes: 25 * 1024 * 1024,
  /** One page content the extension sends (POST /api/knowledge/page-content). */
  pageContentBytes: 5 * 1024 * 1024,
  maxPagesPerJob: 500,
  maxDepth: 5,
  /** Per tenant, unless the server's env sets other quotas. */
  defaultQuotaDocuments: 10_000,
  defaultQuotaBytes: 500 * 1024 * 1024,
  resolveMaxLimit: 20,
} as const;

export const KnowledgeDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^$|^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d+)?$/, {
    message: 'a host name like docs.example.com, or empty for tenant-wide knowledge',
  });

export const KnowledgeSource = z.enum(['upload', 'crawl', 'page']);
export type KnowledgeSource = z.infer<typeof KnowledgeSource>;

export const KnowledgeDocumentView = z.object({
  id: z.string(),
  /** The site the knowledge applies to (and its subdomains); '' = every site of the tenant. */
  domain: z.string(),
  sourceUrl: z.string().nullable(),
  title: z.string(),
  mimeType: z.string(),
  status: z.enum(['pending', 'ready', 'failed']),
  source: KnowledgeSource,
  sizeBytes: z.number().int().nonnegative(),
  /** Current chunks (superseded ones are not counted). */
  chunks: z.number().int().nonnegative(),
  /** The crawl that stored it, if any. */
  jobId: z.string().nullable(),
  error: z.string().nullable(),
  warnings: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type KnowledgeDocumentView = z.infer<typeof KnowledgeDocumentView>;

export const KnowledgeUsageView = z.object({
  documents: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  quotaDocuments: z.number().int().positive(),
  quotaBytes: z.number().int().positive(),
});
export type KnowledgeUsageView = z.infer<typeof KnowledgeUsageView>;

export const KnowledgeDocumentsQuery = z.object({
  domain: KnowledgeDomain.optional(),
});
export const KnowledgeDocumentList = z.object({
  documents: z.array(KnowledgeDocumentView),
  usage: KnowledgeUsageView,
});
export type KnowledgeDocumentList = z.infer<typeof KnowledgeDocumentList>;

export const KnowledgeDocumentParams = z.object({ documentId: z.string().min(1).max(100) });
export const DeleteKnowledgeDocumentResponse = z.object({ deleted: z.literal(true) });

/** Multipart form fields of POST /api/knowledge/ingest besides `file`. */
export const IngestFormFields = z.object({
  domain: KnowledgeDomain.optional(),
  title: z.string().trim().min(1).max(300).optional(),
  /** Where the file came from; re-ingesting the same source supersedes its old chunks. */
  sourceUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
});
export type IngestFormFields = z.infer<typeof IngestFormFields>;

export const IngestResponse = z.object({
  document: KnowledgeDocumentView,
  /** Chunks stored by this ingestion (0 when the content had not changed). */
  chunksAdded: z.number().int().nonnegative(),
  /** Older chunks of the same source that this ingestion replaced. */
  chunksSuperseded: z.number().int().nonnegative(),
  unchanged: z.boolean(),
  /** Whether the chunks carry embeddings (false: retrieval is lexical only). */
  embedded: z.boolean(),
});
export type IngestResponse = z.infer<typeof IngestResponse>;

export const CrawlStrategy = z.enum(['single', 'sitemap', 'spider']);
export type CrawlStrategy = z.infer<typeof CrawlStrategy>;

export const IndexLinkRequest = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2048),
  strategy: CrawlStrategy.default('single'),
  maxPages: z.number().int().min(1).max(KNOWLEDGE_LIMITS.maxPagesPerJob).default(50),
  maxDepth: z.number().int().min(0).max(KNOWLEDGE_LIMITS.maxDepth).default(2),
  /** Default: the URL's host. '' stores the pages as tenant-wide knowledge. */
  domain: KnowledgeDomain.optional(),
});
export type IndexLinkRequest = z.input<typeof IndexLinkRequest>;

export const KnowledgeJobStatus = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']);
export type KnowledgeJobStatus = z.infer<typeof KnowledgeJobStatus>;

/** What an upload ingested, when its job completed (IngestResponse without the document). */
export const KnowledgeUploadResultView = z.object({
  documentId: z.string(),
  chunksAdded: z.number().int().nonnegative(),
  chunksSuperseded: z.number().int().nonnegative(),
  unchanged: z.boolean(),
  embedded: z.boolean(),
});
export type KnowledgeUploadResultView = z.infer<typeof KnowledgeUploadResultView>;

/** An upload job's file and outcome (POST /api/knowledge/ingest). */
export const KnowledgeUploadView = z.object({
  fileName: z.string(),
  mimeType: z.string().nullable(),
  sizeBytes: z.number().int().nonnegative(),
  title: z.string().nullable(),
  sourceUrl: z.string().nullable(),
  result: KnowledgeUploadResultView.nullable(),
  /**
   * A failed upload's error code, the one the upload would have been answered with had it ended
   * within the request (400 unreadable file, 403 QUOTA_EXCEEDED, 422 INPUT_TOO_COMPLEX…).
   */
  failureCode: ErrorCode.nullable(),
});
export type KnowledgeUploadView = z.infer<typeof KnowledgeUploadView>;

export const KnowledgeJobKind = z.enum(['crawl', 'upload']);
export type KnowledgeJobKind = z.infer<typeof KnowledgeJobKind>;

export const KnowledgeJobView = z.object({
  id: z.string(),
  /**
   * `crawl`: POST /api/knowledge/index-link; `upload`: a file of POST /api/knowledge/ingest (url is
   * its sourceUrl or '', one page). Defaults for a view from a process that predates uploads.
   */
  kind: KnowledgeJobKind.default('crawl'),
  /** Upload jobs: the file and what came of it; null for crawls. */
  upload: KnowledgeUploadView.nullable().default(null),
  url: z.string(),
  strategy: CrawlStrategy,
  maxPages: z.number().int(),
  maxDepth: z.number().int(),
  domain: z.string(),
  status: KnowledgeJobStatus,
  progress: z.object({
    discovered: z.number().int().nonnegative(),
    fetched: z.number().int().nonnegative(),
    ingested: z.number().int().nonnegative(),
    unchanged: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  }),
  /** URLs still to fetch (the job's frontier). */
  pending: z.number().int().nonnegative(),
  errors: z.array(z.object({ url: z.string(), message: z.string(), at: z.string() })),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type KnowledgeJobView = z.infer<typeof KnowledgeJobView>;

/**
 * POST /api/knowledge/ingest's 202: the file is stored and its ingestion job queued or running,
 * but it did not end within KNOWLEDGE_INGEST_WAIT_SECONDS. The job's `upload.result` (or its
 * `error`) says how it ended; follow it at `links.job` or its event stream `links.events`.
 */
export const IngestAccepted = z.object({
  job: KnowledgeJobView,
  links: z.object({ job: z.string(), events: z.string() }),
});
export type IngestAccepted = z.infer<typeof IngestAccepted>;

export const IndexLinkResponse = z.object({ job: KnowledgeJobView });
export type IndexLinkResponse = z.infer<typeof IndexLinkResponse>;

export const KnowledgeJobParams = z.object({ jobId: z.string().min(1).max(100) });
export const KnowledgeJobList = z.object({ jobs: z.array(KnowledgeJobView) });
export type KnowledgeJobList = z.infer<typeof KnowledgeJobList>;

/** One SSE event of a job's stream: its state after each page, then once more when it ends. */
export const KnowledgeJobEvent = z.object({
  type: z.enum(['progress', 'done']),
  job: KnowledgeJobView,
});
export type KnowledgeJobEvent = z.infer<typeof KnowledgeJobEvent>;

export const ResolveKnowledgeQuery = z.object({
  /** The page the knowledge is for: its host picks the domains that apply. */
  url: z.url({ protocol: /^https?$/ }).max(2048),
  query: z.string().trim().min(1).max(2000),
  limit: z.coerce.number().int().min(1).max(KNOWLEDGE_LIMITS.resolveMaxLimit).default(5),
});
export type ResolveKnowledgeQuery = z.input<typeof ResolveKnowledgeQuery>;

export const ResolvedKnowledgeChunk = z.object({
  id: z.string(),
  documentId: z.string(),
  documentTitle: z.string(),
  sourceUrl: z.string().nullable(),
  domain: z.string(),
  headingPath: z.array(z.string()),
  content: z.string(),
  /** Reciprocal-rank fusion score; only comparable within one answer. */
  score: z.number(),
  /** 1-based rank in each retriever's list, null when that retriever did not return it. */
  lexicalRank: z.number().int().positive().nullable(),
  vectorRank: z.number().int().positive().nullable(),
  phase: z.enum(['initial', 'post-interaction']).nullable(),
  triggerAction: z.string().nullable(),
  createdAt: z.string(),
});
export type ResolvedKnowledgeChunk = z.infer<typeof ResolvedKnowledgeChunk>;

/**
 * What RAG gives the agent for a page and a query (`ResolveKnowledgeResponse`, docs/specs.md, "RAG
 * once per request").
 */
export const ResolveKnowledgeResponse = z.object({
  url: z.string(),
  /** The knowledge domains this page reads ('' = tenant-wide), after the tenant's allowed_domains. */
  domains: z.array(z.string()),
  /** The tenant has knowledge for this page, matched or not. */
  hasOrgKnowledge: z.boolean(),
  /** `hybrid`: BM25 and vectors fused; `lexical`: no embeddings configured or none stored. */
  mode: z.enum(['hybrid', 'lexical']),
  chunks: z.array(ResolvedKnowledgeChunk),
});
export type ResolveKnowledgeResponse = z.infer<typeof ResolveKnowledgeResponse>;

/** Two-phase SPA ingestion (Hardening B): a page's content the extension sends with consent. */
export const PageContentRequest = z
  .object({
    url: z.url({ protocol: /^https?$/ }).max(2048),
    title: z.string().max(300).optional(),
    /** The page's HTML content snapshot (the extension's capture). */
    html: z.string().min(1),
    phase: z.enum(['initial', 'post-interaction']),
    /** The action that revealed the content ("click(68)"); required after an interaction. */
    triggerAction: z.string().trim().min(1).max(200).optional(),
    taskId: z.string().max(100).optional(),
  })
  .refine((body) => body.phase === 'initial' || body.triggerAction !== undefined, {
    message: 'post-interaction content needs the triggerAction that revealed it',
    path: ['triggerAction'],
  });
export type PageContentRequest = z.infer<typeof PageContentRequest>;

export const PageContentResponse = z.object({
  documentId: z.string(),
  /** New chunks stored. */
  added: z.number().int().nonnegative(),
  /** Chunks left out because the page's knowledge already had them word for word. */
  duplicates: z.number().int().nonnegative(),
  /** Older chunks of the same page (phase 1) that the new content replaced. */
  superseded: z.number().int().nonnegative(),
});
export type PageContentResponse = z.infer<typeof PageContentResponse>;

export const KnowledgeSettingsView = z.object({
  /** Sites whose knowledge is used and that may be crawled; empty = every site. */
  allowedDomains: z.array(KnowledgeDomain.refine((d) => d !== '', 'a host name')).max(200),
});
export type KnowledgeSettingsView = z.infer<typeof KnowledgeSettingsView>;
