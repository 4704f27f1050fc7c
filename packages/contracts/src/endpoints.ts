// The endpoint registry: server routes validate against these schemas and the extension's
// API client builds its calls from them, so a path or shape can only change in one place.
import { z } from 'zod';
import {
  AdminTaskDetail,
  AdminTaskList,
  AdminTaskListQuery,
  AdminTaskParams,
  BillingQuery,
  BillingResponse,
  MetricsQuery,
  MetricsResponse,
} from './admin';
import {
  CollectedItemsQuery,
  CollectedItemsResponse,
  TaskEvent,
  TaskEventsQuery,
  TaskParams,
} from './collect';
import {
  CorrectDocumentExtractionRequest,
  CreateDocumentExtractionRequest,
  CreateStackRequest,
  DOCUMENT_LIMITS,
  DocumentExtractionDetail,
  DocumentExtractionList,
  DocumentExtractionParams,
  DocumentExtractionsQuery,
  DocumentList,
  DocumentParams,
  ExtractionStreamEvent,
  StackList,
  StackParams,
  StackQuery,
  StackStreamEvent,
  StackView,
  UploadDocumentAccepted,
  UploadDocumentResponse,
} from './documents';
import type { ErrorCode } from './errors';
import {
  EXTRACTION_LIMITS,
  ExtractApiRequest,
  ExtractionResult,
  TaskExtractionsQuery,
  TaskExtractionsResponse,
} from './extraction';
import {
  ActiveTaskParams,
  ActiveTaskQuery,
  ActiveTaskResponse,
  CancelTaskResponse,
  InteractRequest,
  InteractResponse,
} from './interact';
import {
  DeleteKnowledgeDocumentResponse,
  IndexLinkRequest,
  IndexLinkResponse,
  IngestAccepted,
  IngestFormFields,
  IngestResponse,
  KNOWLEDGE_LIMITS,
  KnowledgeDocumentList,
  KnowledgeDocumentParams,
  KnowledgeDocumentsQuery,
  KnowledgeJobEvent,
  KnowledgeJobList,
  KnowledgeJobParams,
  KnowledgeSettingsView,
  PageContentRequest,
  PageContentResponse,
  ResolveKnowledgeQuery,
  ResolveKnowledgeResponse,
} from './knowledge';
import {
  DeleteRoutineResponse,
  RoutineDetail,
  RoutineList,
  RoutineListQuery,
  RoutineOfferList,
  RoutineOffersQuery,
  RoutineParams,
  RoutinePatchRequest,
  ROUTINE_OFFERS_MAX,
} from './routine';
import { HealthResponse, OpenApiDocument, WhoAmIResponse } from './system';

export const HttpMethod = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
export type HttpMethod = z.infer<typeof HttpMethod>;

/** `apiKey`: `Authorization: Bearer <key>`; `admin`: the same with an admin key. */
export const EndpointAuth = z.enum(['none', 'apiKey', 'admin']);
export type EndpointAuth = z.infer<typeof EndpointAuth>;

export interface EndpointDefinition {
  readonly path: `/${string}`;
  readonly method: HttpMethod;
  readonly auth: EndpointAuth;
  /** One line for docs/api.md. */
  readonly summary: string;
  /** JSON body; absent for endpoints that take none (GET). */
  readonly request?: z.ZodType;
  /** Body of the success answer (200 unless `successStatuses` says otherwise). */
  readonly response: z.ZodType;
  /** The 2xx statuses the success answer comes with, when not just 200 (first is the usual). */
  readonly successStatuses?: readonly [number, ...number[]];
  /** A `multipart/form-data` body: its text fields (besides the `file` part), for the OpenAPI document. */
  readonly form?: z.ZodType;
  /**
   * `sse`: the answer is `text/event-stream`, and `response` is the schema of each event's
   * `data` (one JSON value per event). Absent for plain JSON answers.
   */
  readonly stream?: 'sse';
  readonly query?: z.ZodType;
  /** Path parameters; its keys are exactly the `:name` segments of `path`. */
  readonly params?: z.ZodType;
  /** Error codes this endpoint answers with, besides the ones every endpoint can give. */
  readonly errors: readonly ErrorCode[];
  /** Extra notes for docs/api.md (status codes with a non-error body, retries…). */
  readonly notes?: readonly string[];
}

/** Keeps the literal path/method/auth types, so `buildPath` can type the params. */
export function defineEndpoint<const E extends EndpointDefinition>(endpoint: E): E {
  return endpoint;
}

/**
 * Every endpoint can answer with these (validation, limits, a body nested past
 * STRUCTURED_MAX_DEPTH, another method than its own, unexpected failure, a server whose runtime
 * did not start).
 */
export const COMMON_ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_ERROR',
  'PAYLOAD_TOO_LARGE',
  'INPUT_TOO_COMPLEX',
  'METHOD_NOT_ALLOWED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const satisfies readonly ErrorCode[];
const AUTHENTICATED_ERROR_CODES = [
  'UNAUTHORIZED',
  'RATE_LIMITED',
] as const satisfies readonly ErrorCode[];

export const endpoints = {
  health: defineEndpoint({
    path: '/api/health',
    method: 'GET',
    auth: 'none',
    summary: 'Liveness and store health.',
    response: HealthResponse,
    errors: [],
    notes: ['Answers 503 with the same body when `status` is "degraded".'],
  }),
  openapi: defineEndpoint({
    path: '/api/openapi.json',
    method: 'GET',
    auth: 'none',
    summary: 'This API as an OpenAPI 3.1 document, generated from the endpoint registry.',
    response: OpenApiDocument,
    errors: [],
  }),
  whoami: defineEndpoint({
    path: '/api/auth/whoami',
    method: 'GET',
    auth: 'apiKey',
    summary: 'Check an API key: who it belongs to and which store the server runs on.',
    response: WhoAmIResponse,
    errors: [...AUTHENTICATED_ERROR_CODES],
  }),
  interact: defineEndpoint({
    path: '/api/agent/interact',
    method: 'POST',
    auth: 'apiKey',
    summary:
      'One step of the agent loop: send the page state (and the taskId after the first step), get the next action.',
    request: InteractRequest,
    response: InteractResponse,
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'NOT_FOUND',
      'CONFLICT',
      'TASK_COMPLETED',
      'TASK_FAILED',
      'TASK_BUSY',
      'TASK_CANCELLED',
      'INVALID_ACTION',
      'MAX_STEPS_EXCEEDED',
      'MAX_RETRIES_EXCEEDED',
      'LLM_NOT_CONFIGURED',
      'LLM_ERROR',
      'LLM_REFUSED',
      'CONCURRENCY_LIMITED',
    ],
    notes: [
      'Without `taskId` every request starts a new task: persist the taskId of each response (per tab) and send it back.',
      'When the response sets `needs_full_dom` or `needs_snapshot`, execute nothing and resend the step with the requested page state.',
      'A NeedsUserInputResponse pauses its task (status `needs_user_input`): send the user’s `answer` with its taskId and sessionId, and the page state, to continue that same task. Until then every other request for the task answers 409 CONFLICT.',
      'A cancelled task answers 409 TASK_CANCELLED.',
      'A model that fails to answer is 502 LLM_ERROR: resend the same request (same idempotency key) and the task continues. A model that refuses the request (a safety block) is 422 LLM_REFUSED and fails the task: resending will not help.',
    ],
  }),
  activeTask: defineEndpoint({
    path: '/api/session/:sessionId/task/active',
    method: 'GET',
    auth: 'apiKey',
    summary:
      'Recover the task of a session when the client lost its taskId (marks tasks untouched for 30 minutes as interrupted).',
    params: ActiveTaskParams,
    query: ActiveTaskQuery,
    response: ActiveTaskResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'DAILY_LIMIT_EXCEEDED', 'NOT_FOUND'],
    notes: ['404 `NOT_FOUND` means no active task: start a new one.'],
  }),
  cancelTask: defineEndpoint({
    path: '/api/tasks/:taskId/cancel',
    method: 'POST',
    auth: 'apiKey',
    summary:
      'Stop a task (the extension’s Stop): it is marked cancelled, and every later interact request for it answers 409 TASK_CANCELLED.',
    params: TaskParams,
    response: CancelTaskResponse,
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'NOT_FOUND',
      'CONFLICT',
      'TASK_COMPLETED',
      'TASK_FAILED',
    ],
    notes: [
      'Cancelling a cancelled task answers 200 again, so a client may retry it.',
      'A completed or failed task cannot be cancelled (409 TASK_COMPLETED / TASK_FAILED), nor an interrupted one (409 CONFLICT).',
      'An interact request of the task that is still running when it is cancelled answers 409 TASK_CANCELLED, and its step is not recorded.',
      'Another tenant’s task is NOT_FOUND, like a task that does not exist.',
    ],
  }),
  collectedItems: defineEndpoint({
    path: '/api/tasks/:taskId/collected',
    method: 'GET',
    auth: 'apiKey',
    summary:
      'The items a task stored with collect: JSON pages by seq, or every item as one CSV file.',
    params: TaskParams,
    query: CollectedItemsQuery,
    response: CollectedItemsResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
    notes: [
      'Page with `afterSeq`: pass the previous `nextSeq` until `hasMore` is false; polling with the last `nextSeq` returns only new items.',
      '`format=csv` answers `text/csv; charset=utf-8` as an attachment (`Content-Disposition`): every item (after `afterSeq`, of `type` if given), columns `_seq`, `_type`, `_sourceUrl`, then the union of the data fields in first-seen order; nested values are JSON.',
      'A task of another tenant is `NOT_FOUND`, like a task that does not exist.',
    ],
  }),
  taskExtractions: defineEndpoint({
    path: '/api/tasks/:taskId/extractions',
    method: 'GET',
    auth: 'apiKey',
    summary:
      'The structured extractions of a task: each page result and each extraction merged across pages, as JSON, or one list as CSV.',
    params: TaskParams,
    query: TaskExtractionsQuery,
    response: TaskExtractionsResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
    notes: [
      '`aggregates` merge the results of one `extractionId` across pages: arrays concatenated without duplicates (exact match on every field), objects deep-merged.',
      '`format=csv` answers `text/csv; charset=utf-8` as an attachment: one row per item of an aggregate whose data is a list of objects (columns in first-seen order, nested values as JSON). With several aggregates, `extractionId` picks one (400 otherwise); data that is not a list is 400.',
      'A task of another tenant is `NOT_FOUND`, like a task that does not exist.',
    ],
  }),
  extract: defineEndpoint({
    path: '/api/extract',
    method: 'POST',
    auth: 'apiKey',
    summary:
      'Extracts structured data from HTML or Markdown you send, without the extension: schema-checked, chunked when large, strategies learned and replayed.',
    request: ExtractApiRequest,
    response: ExtractionResult,
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'DAILY_LIMIT_EXCEEDED',
      'PAYLOAD_TOO_LARGE',
      'LLM_NOT_CONFIGURED',
      'LLM_ERROR',
      'LLM_REFUSED',
      'CONCURRENCY_LIMITED',
    ],
    notes: [
      'The HTML is parsed in the server’s worker pool within its budgets (HTML_MAX_MB, HTML_MAX_DEPTH, HTML_MAX_ELEMENTS, and `outputSchema`’s SCHEMA_MAX_DEPTH, SCHEMA_MAX_NODES): past one, 422 INPUT_TOO_COMPLEX naming the setting.',
      `A body over ${EXTRACTION_LIMITS.bodyBytes / 1_000_000} MB is 413 PAYLOAD_TOO_LARGE.`,
      'With `outputSchema` the data is validated against it; a schema with features the extractor cannot enforce (`anyOf`, `$ref`, …) is not an error: `warnings` says so and `data` is free text.',
      'With `url`, a successful schema extraction registers a strategy for pages like it; a later call on a matching URL with the same schema replays its selectors (`method: "replay"`, zero model tokens but for the sampled check below) when they still fit.',
      'A replayed result carries `replay`: the recipe, what the spot check verified on the page, and whether the model cross-checked it. A recipe’s first replay, then every Nth (EXTRACTION_REPLAY_CHECK_EVERY), also has the model read a slice of the page; when it disagrees the recipe is retired, the model’s data is returned and `warnings` says so.',
      'Model calls are billed to the key’s tenant under the action type EXTRACTION, like the agent’s; the replay cross-check under EXTRACTION_CHECK.',
    ],
  }),
  taskEvents: defineEndpoint({
    path: '/api/tasks/:taskId/events',
    method: 'GET',
    auth: 'apiKey',
    stream: 'sse',
    summary:
      'Live task events as server-sent events: each dispatched step, each collected item, and done.',
    params: TaskParams,
    query: TaskEventsQuery,
    response: TaskEvent,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
    notes: [
      'Replays the items collected so far (`event: collected`, `id: <seq>`), then streams new ones; a reconnect with `Last-Event-ID` resumes after that seq.',
      'Sends `: heartbeat` comments while idle, and closes after `event: done` (task completed, failed or interrupted).',
    ],
  }),
  knowledgeIngest: defineEndpoint({
    path: '/api/knowledge/ingest',
    method: 'POST',
    auth: 'apiKey',
    summary:
      'Upload a document (multipart `file`, optional `domain`, `title`, `sourceUrl`): its type is detected, its text extracted (OCR for scans), chunked by headings, embedded when an embeddings model is configured, and stored. The file is stored and read by a background job (any process that runs jobs), which the request waits for.',
    form: IngestFormFields,
    response: z.union([IngestResponse, IngestAccepted]),
    successStatuses: [201, 200, 202],
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'DAILY_LIMIT_EXCEEDED',
      'PAYLOAD_TOO_LARGE',
      'QUOTA_EXCEEDED',
      'CONCURRENCY_LIMITED',
      'CONFLICT',
      'SERVICE_UNAVAILABLE',
    ],
    notes: [
      'The file is read in the server’s worker pool within its budgets (ZIP size and ratio, PDF pages, OCR pages and seconds, pixels, CSV rows and columns, JSON/YAML/XML depth; docs/security-operations.md): work cut at a budget says so in the document’s warnings, anything else past one is 422 INPUT_TOO_COMPLEX naming the setting; an unreadable file is 400. More than INGESTIONS_PER_TENANT uploads of one tenant at once: 429 CONCURRENCY_LIMITED with Retry-After.',
      `The body is \`multipart/form-data\`, not JSON. A file over ${KNOWLEDGE_LIMITS.uploadBytes / 1024 / 1024} MB is 413 PAYLOAD_TOO_LARGE; a type Tandem cannot read is 400 naming it.`,
      'Answers 201 with the stored document; 200 with `unchanged: true` when the same source (`sourceUrl`, else the file name) was ingested before with the same content. Changed content supersedes the old chunks.',
      'A tenant over its documents or bytes quota gets 403 QUOTA_EXCEEDED; `GET /api/knowledge/documents` shows the usage.',
      'The upload is a knowledge job (`kind: "upload"`, listed by `GET /api/knowledge/jobs` and on /admin/knowledge). It runs on one worker at a time; a worker that dies is replaced within a lease and the job reads the stored file again; a store or converter failure is retried with backoff. An unreadable, unsupported or over-budget file fails the job at once, for good, and the request answers its 4xx as above. A failed job (quota, or every attempt failed) can be retried with `POST /api/knowledge/jobs/:jobId/retry` while its file is kept (7 days); the file is deleted when the job completes or fails for good.',
      'When the job has not ended after KNOWLEDGE_INGEST_WAIT_SECONDS (60 by default; a busy or `RUN_JOBS=false`-only deployment), answers 202 with the job and `links` to follow it (`GET /api/knowledge/jobs/:jobId`, its event stream); the job’s `upload.result` then says what was stored.',
      'With REDIS_URL set and Redis not answering within 5 s: 503 SERVICE_UNAVAILABLE with Retry-After, and the job is recorded as failed. Every attempt failing on the server’s side (the store, the office converter) is 503 too, naming the job to retry. 409 CONFLICT when the job was cancelled (`POST /api/knowledge/jobs/:jobId/cancel`) before the file was read.',
    ],
  }),
  knowledgeIndexLink: defineEndpoint({
    path: '/api/knowledge/index-link',
    method: 'POST',
    auth: 'apiKey',
    summary:
      'Crawl a site into knowledge in the background: one page, its sitemap, or a spider crawl by links; robots.txt is obeyed.',
    request: IndexLinkRequest,
    response: IndexLinkResponse,
    successStatuses: [202],
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'DAILY_LIMIT_EXCEEDED',
      'QUOTA_EXCEEDED',
      'CONCURRENCY_LIMITED',
      'SERVICE_UNAVAILABLE',
    ],
    notes: [
      'At most KNOWLEDGE_CRAWLS_PER_TENANT crawls of one tenant queued or running (2 by default): past it, 429 CONCURRENCY_LIMITED with Retry-After.',
      'With REDIS_URL set and Redis not answering within 5 s: 503 SERVICE_UNAVAILABLE with Retry-After, and the job is recorded as failed (it could not be queued).',
      'Answers 202 with the queued job; follow it with `GET /api/knowledge/jobs/:jobId` or its event stream. A job survives a server restart and resumes where it stopped.',
      'A URL outside the tenant’s allowed domains, or on a private network address, is 400.',
    ],
  }),
  knowledgeJobs: defineEndpoint({
    path: '/api/knowledge/jobs',
    method: 'GET',
    auth: 'apiKey',
    summary: "The tenant's knowledge jobs (crawls and file uploads, `kind`), newest first.",
    response: KnowledgeJobList,
    errors: [...AUTHENTICATED_ERROR_CODES],
  }),
  knowledgeJob: defineEndpoint({
    path: '/api/knowledge/jobs/:jobId',
    method: 'GET',
    auth: 'apiKey',
    summary:
      'One knowledge job: status, progress counters and the latest page errors (a crawl), or the file and what was stored from it (an upload: `upload.result`, or `error` and `upload.failureCode`).',
    params: KnowledgeJobParams,
    response: IndexLinkResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
  }),
  knowledgeJobEvents: defineEndpoint({
    path: '/api/knowledge/jobs/:jobId/events',
    method: 'GET',
    auth: 'apiKey',
    stream: 'sse',
    summary:
      "A crawl job's progress as server-sent events: its state after each page, then `done`.",
    params: KnowledgeJobParams,
    response: KnowledgeJobEvent,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
    notes: ['Starts with the current state; a finished job answers one `done` event and closes.'],
  }),
  knowledgeCancelJob: defineEndpoint({
    path: '/api/knowledge/jobs/:jobId/cancel',
    method: 'POST',
    auth: 'apiKey',
    summary: 'Stop a crawl job; pages already stored stay.',
    params: KnowledgeJobParams,
    response: IndexLinkResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
  }),
  knowledgeRetryJob: defineEndpoint({
    path: '/api/knowledge/jobs/:jobId/retry',
    method: 'POST',
    auth: 'apiKey',
    summary:
      'Run a failed knowledge job again with fresh attempts: a crawl from where it stopped (its stored frontier and counts), an upload from its stored file.',
    params: KnowledgeJobParams,
    response: IndexLinkResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND', 'CONFLICT'],
    notes: [
      '409 CONFLICT when the job has not failed, or failed for a reason a retry does not mend: a crawl stopped by the knowledge quota (make room, then index again), an unreadable or over-budget file, or an upload whose file is no longer kept (7 days after it failed; upload it again).',
    ],
  }),
  knowledgeDocuments: defineEndpoint({
    path: '/api/knowledge/documents',
    method: 'GET',
    auth: 'apiKey',
    summary:
      "The tenant's knowledge documents with their chunk counts, and the tenant's usage against its quotas.",
    query: KnowledgeDocumentsQuery,
    response: KnowledgeDocumentList,
    errors: [...AUTHENTICATED_ERROR_CODES],
  }),
  knowledgeDeleteDocument: defineEndpoint({
    path: '/api/knowledge/documents/:documentId',
    method: 'DELETE',
    auth: 'apiKey',
    summary: 'Delete a document and all its chunks (RAG stops using them at once).',
    params: KnowledgeDocumentParams,
    response: DeleteKnowledgeDocumentResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
  }),
  knowledgeReindexDocument: defineEndpoint({
    path: '/api/knowledge/documents/:documentId/reindex',
    method: 'POST',
    auth: 'apiKey',
    summary:
      'Fetch a crawled document’s page again (a one-page crawl job); changed content supersedes the old chunks.',
    params: KnowledgeDocumentParams,
    response: IndexLinkResponse,
    successStatuses: [202],
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'DAILY_LIMIT_EXCEEDED',
      'NOT_FOUND',
      'CONCURRENCY_LIMITED',
    ],
    notes: [
      'Answers 202 with the job. A document without a web source (an upload) is 400: upload it again.',
    ],
  }),
  knowledgeResolve: defineEndpoint({
    path: '/api/knowledge/resolve',
    method: 'GET',
    auth: 'apiKey',
    summary:
      'What RAG retrieves for a page and a query: BM25 and vector search fused by reciprocal rank, over the domains the page allows.',
    query: ResolveKnowledgeQuery,
    response: ResolveKnowledgeResponse,
    errors: [...AUTHENTICATED_ERROR_CODES],
  }),
  knowledgePageContent: defineEndpoint({
    path: '/api/knowledge/page-content',
    method: 'POST',
    auth: 'apiKey',
    summary:
      'Two-phase SPA ingestion: the extension sends a page’s content (with the user’s consent for that site) on load and after an interaction that revealed more.',
    request: PageContentRequest,
    response: PageContentResponse,
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'DAILY_LIMIT_EXCEEDED',
      'PAYLOAD_TOO_LARGE',
      'QUOTA_EXCEEDED',
      'CONCURRENCY_LIMITED',
    ],
    notes: [
      'Phase `initial` keeps hidden content (an SPA shows it later); `post-interaction` drops hidden content, leaves out chunks the page already had word for word, and supersedes the initial chunks it replaces.',
    ],
  }),
  knowledgeSettings: defineEndpoint({
    path: '/api/knowledge/settings',
    method: 'GET',
    auth: 'apiKey',
    summary: "The tenant's knowledge settings (`allowedDomains`).",
    response: KnowledgeSettingsView,
    errors: [...AUTHENTICATED_ERROR_CODES],
  }),
  knowledgeUpdateSettings: defineEndpoint({
    path: '/api/knowledge/settings',
    method: 'PUT',
    auth: 'admin',
    summary:
      "Set the tenant's allowed domains: the sites whose knowledge RAG uses and that may be crawled (empty = all).",
    request: KnowledgeSettingsView,
    response: KnowledgeSettingsView,
    errors: [...AUTHENTICATED_ERROR_CODES, 'FORBIDDEN'],
  }),
  documentsUpload: defineEndpoint({
    path: '/api/documents',
    method: 'POST',
    auth: 'apiKey',
    summary:
      'Upload a document for extraction (multipart `file`): its type is detected and its text read page by page (OCR for scans and images). The file is stored and read by a background job (any process that runs jobs), which the request waits for.',
    // The `file` part only.
    form: z.strictObject({}),
    // The 202 shape first: a union takes the first that matches, and the 201 one has no links.
    response: z.union([UploadDocumentAccepted, UploadDocumentResponse]),
    successStatuses: [201, 202],
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'PAYLOAD_TOO_LARGE',
      'CONCURRENCY_LIMITED',
      'SERVICE_UNAVAILABLE',
    ],
    notes: [
      'The file is read in the server’s worker pool within its budgets (ZIP size and ratio, PDF pages, OCR pages and seconds, pixels, CSV rows and columns, JSON/YAML/XML depth; docs/security-operations.md): work cut at a budget says so in the document’s warnings, anything else past one is 422 INPUT_TOO_COMPLEX naming the setting; an unreadable file is 400. More than INGESTIONS_PER_TENANT uploads of one tenant at once: 429 CONCURRENCY_LIMITED with Retry-After.',
      `The body is \`multipart/form-data\`, not JSON. A file over ${DOCUMENT_LIMITS.uploadBytes / 1024 / 1024} MB is 413 PAYLOAD_TOO_LARGE; a type Tandem cannot read is 400 naming it. Answers 201 with the document (\`status: "ready"\`).`,
      'The document is stored at once with `status: "processing"` and no pages; a job (queue `document-upload`) reads the stored file on one worker at a time, and a worker that dies is replaced within a lease and reads it again. A file at fault fails the document at once, for good (`status: "failed"` with its `error`; the file is deleted) and the request answers its 4xx as above; a server-side failure (the store, the office converter) is retried with backoff, then the document fails with the reason and its file is kept 7 days for `POST /api/documents/:documentId/retry`; the request answers 503 naming it.',
      'When the job has not ended after DOCUMENT_UPLOAD_WAIT_SECONDS (60 by default; a busy or `RUN_JOBS=false`-only deployment), answers 202 with the document (`status: "processing"`) and `links.document` (also in `Location`) to follow until it is `ready`. Extractions and stacks take `ready` documents only (409 CONFLICT otherwise).',
      'The document is the uploading user’s: other users of the tenant cannot read or extract it.',
    ],
  }),
  documents: defineEndpoint({
    path: '/api/documents',
    method: 'GET',
    auth: 'apiKey',
    summary:
      "The caller's uploaded documents, newest first (without their text), each with its `status`: `processing` (being read), `ready`, or `failed` with its `error`.",
    response: DocumentList,
    errors: [...AUTHENTICATED_ERROR_CODES],
  }),
  document: defineEndpoint({
    path: '/api/documents/:documentId',
    method: 'GET',
    auth: 'apiKey',
    summary:
      "One of the caller's documents (without its text): follow an upload answered 202 until its `status` is `ready` or `failed`.",
    params: DocumentParams,
    response: UploadDocumentResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
  }),
  documentRetry: defineEndpoint({
    path: '/api/documents/:documentId/retry',
    method: 'POST',
    auth: 'apiKey',
    summary:
      'Read a failed document again from its stored file, with fresh attempts: answers 202 with the document back in `processing`.',
    params: DocumentParams,
    response: UploadDocumentResponse,
    successStatuses: [202],
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND', 'CONFLICT', 'SERVICE_UNAVAILABLE'],
    notes: [
      '409 CONFLICT when the document has not failed, failed because of the file itself (unreadable, unsupported, over a budget), or its file is no longer kept (7 days after it failed; upload it again).',
    ],
  }),
  extractionsCreate: defineEndpoint({
    path: '/api/extractions',
    method: 'POST',
    auth: 'apiKey',
    stream: 'sse',
    summary:
      'Extract a document with the extraction agent: its tools read the text and write validated fields with confidences; the answer streams what it does.',
    request: CreateDocumentExtractionRequest,
    response: ExtractionStreamEvent,
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'NOT_FOUND',
      'CONFLICT',
      'LLM_NOT_CONFIGURED',
      'CONCURRENCY_LIMITED',
    ],
    notes: [
      'At most DOCUMENT_RUNS_PER_TENANT runs of one tenant at once (2 by default): past it, 429 CONCURRENCY_LIMITED with Retry-After.',
      'Each event is `data: <json>` with one of three flat shapes (no type field): `{ "text" }` the agent’s words for the user, `{ "tool", "input" }` a tool it called, `{ "complete": true, "extraction_id", "cost" }` the end of the run and its cost in USD. `: heartbeat` comments keep the stream open.',
      'Send `documentId` (POST /api/documents) or `upload` (`fileName`, `contentType`, `dataBase64`; at most 6 MB, and the body within the server’s MAX_BODY_BYTES). GET /api/extractions/{id} has the result: a run that stopped early says why in `error`, and its writes so far are kept.',
      'The run goes on if the client disconnects. Model calls are billed as `DOCUMENT_EXTRACTION`.',
      'The response header `Tandem-Extraction-Id` names the new extraction before the first event: anyone with the key can follow the run from any server with GET /api/extractions/{id}/events.',
    ],
  }),
  extractions: defineEndpoint({
    path: '/api/extractions',
    method: 'GET',
    auth: 'apiKey',
    summary: "The caller's extractions, newest first.",
    query: DocumentExtractionsQuery,
    response: DocumentExtractionList,
    errors: [...AUTHENTICATED_ERROR_CODES],
    notes: ['Page with `cursor`: pass the previous `nextCursor` until it is null.'],
  }),
  extraction: defineEndpoint({
    path: '/api/extractions/:extractionId',
    method: 'GET',
    auth: 'apiKey',
    summary:
      'One extraction: status, document type, fields, confidences of the same shape, cost, its document and the history of every tool write.',
    params: DocumentExtractionParams,
    response: DocumentExtractionDetail,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
  }),
  extractionEvents: defineEndpoint({
    path: '/api/extractions/:extractionId/events',
    method: 'GET',
    auth: 'apiKey',
    stream: 'sse',
    summary:
      "Follow an extraction's run from any server: its events as they happen, ending with `complete`.",
    params: DocumentExtractionParams,
    response: ExtractionStreamEvent,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
    notes: [
      'The same events as the stream of the request that started the run (POST /api/extractions or a correction), from the moment you connect; GET /api/extractions/{id} has what was written before. An extraction with no run going answers one `complete` event and closes.',
      'The run may go on in another server process: its events reach this stream within a second.',
      "Each write's event (a tool that changed the extraction) carries an SSE `id`: the seq of the history entry it made. A client whose stream dropped reconnects with `Last-Event-ID: <seq>` and first gets the writes after it, from the stored history, then the live events; the model's words and read-only calls in the gap are not kept. The streams of POST /api/extractions, /correct and /retry carry the same ids.",
    ],
  }),
  extractionCorrect: defineEndpoint({
    path: '/api/extractions/:extractionId/correct',
    method: 'POST',
    auth: 'apiKey',
    stream: 'sse',
    summary:
      'Correct an extraction in plain words ("the total is 1,240.50, not 1,204.50"): the agent changes the fields it names and nothing else. Streams like POST /api/extractions.',
    params: DocumentExtractionParams,
    request: CorrectDocumentExtractionRequest,
    response: ExtractionStreamEvent,
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'NOT_FOUND',
      'CONFLICT',
      'LLM_NOT_CONFIGURED',
      'CONCURRENCY_LIMITED',
    ],
    notes: [
      'At most DOCUMENT_RUNS_PER_TENANT runs of one tenant at once (2 by default): past it, 429 CONCURRENCY_LIMITED with Retry-After.',
      'A run already going on the extraction is 409 CONFLICT. A message to an extraction that stopped early lets the agent finish it.',
    ],
  }),
  extractionRetry: defineEndpoint({
    path: '/api/extractions/:extractionId/retry',
    method: 'POST',
    auth: 'apiKey',
    stream: 'sse',
    summary:
      'Run a failed extraction again: the agent keeps the fields saved so far and finishes the rest. Streams like POST /api/extractions.',
    params: DocumentExtractionParams,
    response: ExtractionStreamEvent,
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'NOT_FOUND',
      'CONFLICT',
      'LLM_NOT_CONFIGURED',
      'CONCURRENCY_LIMITED',
    ],
    notes: [
      'An extraction whose run failed (its attempts ran out, or the agent gave up) has `status: failed` and the reason in `error`; this puts its run back in the queue.',
      '409 CONFLICT when the extraction has not failed, or a run is already going on it. At most DOCUMENT_RUNS_PER_TENANT runs of one tenant at once: past it, 429 CONCURRENCY_LIMITED with Retry-After.',
    ],
  }),
  stacksCreate: defineEndpoint({
    path: '/api/stacks',
    method: 'POST',
    auth: 'apiKey',
    stream: 'sse',
    summary:
      'Extract several documents into one table (a stack): the agent defines the columns (or keeps the ones given) and writes a row per document.',
    request: CreateStackRequest,
    response: StackStreamEvent,
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'NOT_FOUND',
      'LLM_NOT_CONFIGURED',
      'CONCURRENCY_LIMITED',
    ],
    notes: [
      'At most DOCUMENT_RUNS_PER_TENANT runs of one tenant at once (2 by default): past it, 429 CONCURRENCY_LIMITED with Retry-After.',
      'Events as for POST /api/extractions; the last is `{ "complete": true, "stack_id", "cost" }`. Model calls are billed as `STACK_EXTRACTION`.',
      'The run is a job: it goes on if the client disconnects, and another server takes it over if the one running it dies (documents that already have their row are not extracted again). A run that fails for good marks the stack `failed`, the reason in `error`.',
      'The response header `Tandem-Stack-Id` names the new stack before the first event: anyone with the key can follow the run from any server with GET /api/stacks/{id}/events.',
    ],
  }),
  stacks: defineEndpoint({
    path: '/api/stacks',
    method: 'GET',
    auth: 'apiKey',
    summary: "The caller's stacks, newest first (without their rows).",
    response: StackList,
    errors: [...AUTHENTICATED_ERROR_CODES],
  }),
  stack: defineEndpoint({
    path: '/api/stacks/:stackId',
    method: 'GET',
    auth: 'apiKey',
    summary:
      'One stack: its columns and a row per document, as JSON or (`?format=csv`) a CSV file.',
    params: StackParams,
    query: StackQuery,
    response: StackView,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
    notes: [
      'CSV: a `_document` column (the document id), then one column per stack column; cells a spreadsheet would run as formulas are defused.',
    ],
  }),
  stackEvents: defineEndpoint({
    path: '/api/stacks/:stackId/events',
    method: 'GET',
    auth: 'apiKey',
    stream: 'sse',
    summary:
      "Follow a stack's run from any server: its events as they happen, ending with `complete`.",
    params: StackParams,
    response: StackStreamEvent,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
    notes: [
      'The same events as the stream of POST /api/stacks, from the moment you connect; GET /api/stacks/{id} has the rows saved before. A stack with no run going answers one `complete` event and closes.',
      'The run may go on in another server process: its events reach this stream within a second. Stack events carry no SSE ids: a client whose stream dropped reconnects and reads the rows from GET /api/stacks/{id}.',
    ],
  }),
  adminBilling: defineEndpoint({
    path: '/api/admin/billing',
    method: 'GET',
    auth: 'admin',
    summary:
      "Token usage and cost of the admin key's tenant, summed by day, model, action type or user.",
    query: BillingQuery,
    response: BillingResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'FORBIDDEN'],
    notes: [
      'The window defaults to the last 30 days and may span at most 366; `from` is inclusive, `to` exclusive (a date-only `to` covers that whole day). An empty or too long window is `BAD_REQUEST`.',
      'Cost is integer micro-USD (`costMicroUsd`) and the same amount in dollars as an exact decimal string (`costUsd`); `totals` is the sum of `rows`.',
      '`cachedInputTokens` is the part of `inputTokens` the provider read from its prompt cache, billed at the cached rate; it is counted in `inputTokens` too, never added to it.',
      "One model call may answer for two nodes (context analysis writes the plan, the action answer states its expected outcome). Its tokens and cost are split between their action types by each answer's share of the output, so `PLANNING` and `OUTCOME_PREDICTION` rows show what they cost with `calls` 0: `calls` counts model calls, once, under the node that made them.",
    ],
  }),
  adminMetrics: defineEndpoint({
    path: '/api/admin/metrics',
    method: 'GET',
    auth: 'admin',
    summary:
      'The interact KPIs over the tasks created in a window: completion rate, step latency p50/p95 (all, SIMPLE, COMPLEX), chain, verification and correction success rates, classification accuracy, round-trip reduction from chaining, re-plan frequency, critic catch rate, skill hit rate and effectiveness, look-ahead hit rate and early detection.',
    query: MetricsQuery,
    response: MetricsResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'FORBIDDEN'],
    notes: [
      'Window as for `adminBilling`. Every rate and percentile carries its sample count and is `null` when there were no samples.',
    ],
  }),
  adminTasks: defineEndpoint({
    path: '/api/admin/tasks',
    method: 'GET',
    auth: 'admin',
    summary: "The tenant's tasks created in a window, newest first, with their usage and cost.",
    query: AdminTaskListQuery,
    response: AdminTaskList,
    errors: [...AUTHENTICATED_ERROR_CODES, 'FORBIDDEN'],
    notes: ['Page with `cursor`: pass the previous `nextCursor` until it is null.'],
  }),
  adminTask: defineEndpoint({
    path: '/api/admin/tasks/:taskId',
    method: 'GET',
    auth: 'admin',
    summary:
      'The in-app trace of one task: its plan and sub-tasks, every step with its thought, action, verification (tier included), corrections, tokens, cost and latency.',
    params: AdminTaskParams,
    response: AdminTaskDetail,
    errors: [...AUTHENTICATED_ERROR_CODES, 'FORBIDDEN', 'NOT_FOUND'],
  }),
  routines: defineEndpoint({
    path: '/api/routines',
    method: 'GET',
    auth: 'admin',
    summary:
      "The tenant's routines (tasks done once, kept to run again without the model), newest first, with their parameters, runs, heals and tokens saved.",
    query: RoutineListQuery,
    response: RoutineList,
    errors: [...AUTHENTICATED_ERROR_CODES, 'FORBIDDEN'],
    notes: [
      'A routine is one site and goal template; each heal stores a new version and keeps the old ones. `versions=latest` (the default) lists each routine once, as its highest version; `versions=all` lists every version. `runs`, `heals` and `tokensSaved` count the reruns of that version.',
      'Page with `cursor`: pass the previous `nextCursor` until it is null. With `versions=latest` a page may hold fewer than `limit` routines (older versions are skipped) even when more follow.',
    ],
  }),
  routineOffers: defineEndpoint({
    path: '/api/routines/offers',
    method: 'GET',
    auth: 'apiKey',
    summary:
      "The routines the popup offers to run again on a site: the caller's tenant's enabled routines of that site, the latest version of each, newest first.",
    query: RoutineOffersQuery,
    response: RoutineOfferList,
    errors: [...AUTHENTICATED_ERROR_CODES],
    notes: [
      `At most ${ROUTINE_OFFERS_MAX} routines. \`site\` is a host with its port when not the default ("emr.example.com", "localhost:3000"), as the routine was saved with; another host or port is another site.`,
      '`runs` counts the reruns of the version offered. Any API key of the tenant may ask: the offer shows names, templates and example values, never the steps.',
    ],
  }),
  routine: defineEndpoint({
    path: '/api/routines/:routineId',
    method: 'GET',
    auth: 'admin',
    summary: 'One routine version with its steps, and the summaries of all its versions.',
    params: RoutineParams,
    response: RoutineDetail,
    errors: [...AUTHENTICATED_ERROR_CODES, 'FORBIDDEN', 'NOT_FOUND'],
    notes: ["Another tenant's routine is `NOT_FOUND`, like one that does not exist."],
  }),
  routineUpdate: defineEndpoint({
    path: '/api/routines/:routineId',
    method: 'PATCH',
    auth: 'admin',
    summary: 'Rename a routine, or enable or disable it; answers the routine as GET does.',
    params: RoutineParams,
    request: RoutinePatchRequest,
    response: RoutineDetail,
    errors: [...AUTHENTICATED_ERROR_CODES, 'FORBIDDEN', 'NOT_FOUND'],
    notes: [
      'Applies to every version of the routine the id belongs to: disabling only the newest would let a rerun fall back to an older one. A disabled routine is never run again until enabled.',
      'The name is trimmed and must be 1 to 120 characters; a body with neither `name` nor `enabled`, or with other fields, is `VALIDATION_ERROR`.',
    ],
  }),
  routineDelete: defineEndpoint({
    path: '/api/routines/:routineId',
    method: 'DELETE',
    auth: 'admin',
    summary: 'Delete a routine: every version of the routine the id belongs to.',
    params: RoutineParams,
    response: DeleteRoutineResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'FORBIDDEN', 'NOT_FOUND'],
    notes: [
      'Every version goes, because deleting only the newest would bring the previous one back into use; `deleted` is how many. To keep a routine but stop it running, disable it with PATCH.',
    ],
  }),
} as const;
export type EndpointName = keyof typeof endpoints;

// ------------------------------------------------------------------ paths

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** `{ sessionId: string }` for "/api/session/:sessionId/task/active". */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

export type QueryValues = Record<string, string | number | boolean | null | undefined>;

type BuildPathArgs<P extends string> = [ParamNames<P>] extends [never]
  ? [params?: Record<string, never>, query?: QueryValues]
  : [params: PathParams<P>, query?: QueryValues];

const PARAM_SEGMENT = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/** The `:name` segments of a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PARAM_SEGMENT)].map((m) => m[1] ?? '');
}

/**
 * Fills `:name` segments (URI-encoded) and appends the query (null/undefined values are
 * left out). Throws when a parameter is missing or empty, rather than calling a wrong URL.
 */
export function buildPath<E extends Pick<EndpointDefinition, 'path'>>(
  endpoint: E,
  ...[params, query]: BuildPathArgs<E['path']>
): string {
  const values: Record<string, unknown> = params ?? {};
  const path = endpoint.path.replace(PARAM_SEGMENT, (_segment, name: string) => {
    const value = values[name];
    if (typeof value !== 'string' || value === '') {
      throw new Error(`buildPath(${endpoint.path}): missing path parameter "${name}"`);
    }
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}
