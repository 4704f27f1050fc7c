// The process-wide runtime: validated env, the store, rate limiters and the logger. Built once
// and cached on globalThis, because Next.js may load route modules and instrumentation as
// separate module instances in one process.
import {
  CollectService,
  TaskEventHub,
  createDisabledWebSearch,
  createInteractService,
  createRagService,
  createTavilyWebSearch,
  DEFAULT_LIMITS,
  type InteractService,
} from '@tandem/agent';
import { DocumentAgentService } from '@tandem/documents';
import { createLlmClientFromConfig, type LlmClient, type LlmConfig } from '@tandem/llm';
import {
  createTracing,
  createUsageService,
  type Tracing,
  type UsageService,
} from '@tandem/observability';
import { ExtractionService } from '@tandem/extraction';
import { ParsePool, poolPageReader, poolParsers } from '@tandem/parse-pool';
import { SkillsService } from '@tandem/knowledge';
import { type Embedder } from '@tandem/llm';
import type { JobQueue } from '@tandem/jobs';
import { createStore, type Store } from '@tandem/store';
import { env as processEnv, inputLimitsFrom, type Env } from '../env';
import { DocumentRunner } from './document-runs';
import { DocumentUploadRunner } from './document-uploads';
import { StackRunner } from './stack-runs';
import { createEventBus, createJobQueue } from './job-queue';
import { createKnowledgeRuntime, type KnowledgeRuntime } from './knowledge-runtime';
import type { Logger } from '@tandem/observability';
import { createLogger } from './logger';
import {
  createAuthFailureLimiter,
  createRateLimiters,
  type AuthFailureLimiter,
  type RateLimiters,
} from './rate-limit';
import { createUsageCaps, type UsageCaps } from './usage-caps';
import { StoreOpenError } from './startup-failure';
import packageJson from '../../package.json' with { type: 'json' };

export interface Runtime {
  env: Env;
  store: Store;
  rateLimiters: RateLimiters;
  /** Failed authentications per client address (AUTH_FAILURES_PER_MIN). */
  authFailures: AuthFailureLimiter;
  /** Per-tenant daily token and cost caps (TENANT_DAILY_*_LIMIT). */
  usageCaps: UsageCaps;
  llm: LlmClient;
  agent: InteractService;
  /** Live task events (steps, collected items) for the SSE route; per process. */
  events: TaskEventHub;
  /**
   * Streaming extraction (docs/specs.md, "streaming extraction"): stores collected items and
   * announces them on `events`.
   */
  collect: CollectService;
  /**
   * Structured extraction (docs/specs.md, "extraction overhaul"): the agent's extract and POST
   * /api/extract.
   */
  extraction: ExtractionService;
  /** Knowledge: ingestion, hybrid retrieval, crawl jobs. */
  knowledge: KnowledgeRuntime;
  /**
   * Background jobs (crawls, knowledge uploads, document runs): embedded in the store, or BullMQ when REDIS_URL is set. Run in
   * this process when RUN_JOBS (the default) or in a worker (`npm run worker`).
   */
  jobs: JobQueue;
  /** Document extraction: uploads, the extraction agent's runs, stacks. */
  documents: DocumentAgentService;
  /** Uploaded documents read by jobs of `jobs` (queue "document-upload"), on any process. */
  documentUploads: DocumentUploadRunner;
  /**
   * Extraction and correction runs as jobs of `jobs` (queue "document-run"): any process that
   * serves the queue runs them, and another takes over a run whose process died.
   */
  documentRuns: DocumentRunner;
  /**
   * Stack runs (several documents into one table) as jobs of `jobs` (queue "stack-run"), on the
   * same per-tenant slots as document runs; taken over like them when their process dies.
   */
  stackRuns: StackRunner;
  /**
   * Where untrusted files and big pages are parsed: worker threads with a heap and
   * time limit per job, shared fairly between tenants. Nothing parses them on the event loop.
   */
  parsing: ParsePool;
  /** LangFuse traces (a no-op without keys); business code sees only this port. */
  tracing: Tracing;
  /**
   * Every LLM call's usage: TokenUsageLog + LangFuse generation, priced (docs/specs.md, "usage
   * dual-write").
   */
  usage: UsageService;
  /**
   * Stops the process's background work and closes what it opened: jobs hand back their leases,
   * the event bus and the parse pool stop, traces are sent, the store closes (a store passed to
   * createRuntime too: the runtime owns it from then on).
   */
  close(): Promise<void>;
  log: Logger;
  startedAt: number;
  version: string;
}

/** The LLM configuration from the validated env (the agent package never reads env). */
export function llmConfigFrom(env: Env): LlmConfig {
  return {
    geminiApiKey: env.GEMINI_API_KEY,
    geminiBaseUrl: env.GEMINI_BASE_URL,
    geminiModel: env.GEMINI_MODEL,
    ...(env.GEMINI_PLANNING_MODEL ? { geminiModels: { planning: env.GEMINI_PLANNING_MODEL } } : {}),
    baseUrl: env.LLM_BASE_URL,
    apiKey: env.LLM_API_KEY,
    model: env.LLM_MODEL,
    timeoutMs: env.LLM_TIMEOUT_MS,
    maxRetries: env.LLM_MAX_RETRIES,
    ...(env.LLM_VISION === 'auto' ? {} : { vision: env.LLM_VISION === 'true' }),
  };
}

export async function createRuntime(options: {
  env: Env;
  store?: Store;
  log?: Logger;
  /** Tests pass a scripted client; otherwise chosen from env. */
  llm?: LlmClient;
  /** Tests pass one (a loopback embeddings server, or null); otherwise chosen from env. */
  embedder?: Embedder | null;
  /** Whether this process runs background jobs; default env.RUN_JOBS (a worker: always). */
  runJobs?: boolean;
}): Promise<Runtime> {
  const { env } = options;
  const log = options.log ?? createLogger(env.LOG_LEVEL);
  const store =
    options.store ??
    (await createStore({ mongodbUri: env.MONGODB_URI, dataDir: env.DATA_DIR }).catch(
      (error: unknown) => {
        throw new StoreOpenError(env, error);
      },
    ));
  const tracing = createTracing({
    publicKey: env.LANGFUSE_PUBLIC_KEY,
    secretKey: env.LANGFUSE_SECRET_KEY,
    baseUrl: env.LANGFUSE_BASE_URL,
    timeoutMs: env.LANGFUSE_TIMEOUT_MS,
    environment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV,
    release: env.SENTRY_RELEASE ?? packageJson.version,
    log: log.child({ component: 'langfuse' }),
  });
  // The single usage hook: every LLM call is priced, logged and traced through it.
  const usage = createUsageService({ store, tracing, log });
  const llm =
    options.llm ??
    createLlmClientFromConfig(llmConfigFrom(env), {
      usageHook: usage.recordUsage,
      onHookError: (error) => log.error('usage hook failed', { error }),
    });
  const webSearch = env.TAVILY_API_KEY
    ? createTavilyWebSearch({ apiKey: env.TAVILY_API_KEY, baseUrl: env.TAVILY_BASE_URL })
    : createDisabledWebSearch();
  const parsing = createParsePool(env, log);
  // Task events reach the SSE listeners of every process on the store (or on REDIS_URL).
  const bus = createEventBus(env, store, log);
  const events = new TaskEventHub({ relay: bus });
  const collect = new CollectService(store, { events });
  const extraction = new ExtractionService({
    llm,
    store,
    pages: poolPageReader(parsing),
    limits: parsing.limits,
    replayCheckEvery: env.EXTRACTION_REPLAY_CHECK_EVERY,
    config: {
      maxConcurrentChunks: env.EXTRACTION_CONCURRENCY,
      maxChunkSize: env.EXTRACTION_MAX_CHUNK_CHARS,
    },
  });
  const jobs = createJobQueue(env, store, log);
  const knowledge = createKnowledgeRuntime({
    env,
    store,
    log,
    jobs,
    events: bus,
    parsers: poolParsers(parsing),
    ...(options.embedder !== undefined ? { embedder: options.embedder } : {}),
  });
  const runJobs = options.runJobs ?? env.RUN_JOBS;
  if (runJobs) {
    knowledge.jobs.serve();
    knowledge.uploads.serve();
  }
  const documents = new DocumentAgentService({
    store,
    llm,
    tracing,
    log,
    // Uploads are read as knowledge reads them: type detection, OCR, the office converter.
    readDocument: (file) => knowledge.ingestion.readFile(file),
    // Runs publish their events here, so any process can follow them.
    events: bus,
  });
  const documentRuns = new DocumentRunner({
    store,
    documents,
    queue: jobs,
    events: bus,
    runsPerTenant: env.DOCUMENT_RUNS_PER_TENANT,
    log,
  });
  if (runJobs) documentRuns.serve();
  const documentUploads = new DocumentUploadRunner({
    store,
    queue: jobs,
    events: bus,
    documents,
    log,
  });
  if (runJobs) documentUploads.serve();
  const stackRuns = new StackRunner({
    store,
    documents,
    queue: jobs,
    events: bus,
    runsPerTenant: env.DOCUMENT_RUNS_PER_TENANT,
    log,
  });
  if (runJobs) stackRuns.serve();
  const agent = createInteractService({
    store,
    // RAG and GET /api/knowledge/resolve answer from the same retriever.
    rag: createRagService(store, { retriever: knowledge.retriever }),
    events,
    digestHtml: (tenantId, html) => parsing.run(tenantId, 'htmlDigest', { html }),
    deps: {
      llm,
      webSearch,
      log,
      tracing,
      collect,
      extraction,
      skills: new SkillsService(store),
      limits: { ...DEFAULT_LIMITS, maxStepsPerTask: env.MAX_STEPS_PER_TASK },
    },
  });
  return {
    env,
    store,
    log,
    llm,
    agent,
    events,
    collect,
    extraction,
    knowledge,
    jobs,
    documents,
    documentUploads,
    documentRuns,
    stackRuns,
    parsing,
    tracing,
    usage,
    rateLimiters: createRateLimiters(store.rateLimits, {
      interact: env.RATE_LIMIT_INTERACT_PER_MIN,
      default: env.RATE_LIMIT_DEFAULT_PER_MIN,
    }),
    authFailures: createAuthFailureLimiter(store.rateLimits, {
      perMinute: env.AUTH_FAILURES_PER_MIN,
      blockSeconds: env.AUTH_BLOCK_SECONDS,
    }),
    usageCaps: createUsageCaps({
      usage: store.tokenUsage,
      limits: {
        tokens: env.TENANT_DAILY_TOKEN_LIMIT,
        costMicroUsd: Math.round(env.TENANT_DAILY_COST_LIMIT_USD * 1_000_000),
      },
    }),
    startedAt: Date.now(),
    version: packageJson.version,
    close: async () => {
      // Jobs first: a running crawl hands its job back (lease released) for another process,
      // and its last writes still need the store.
      await jobs.close();
      knowledge.uploads.close();
      documentUploads.close();
      // Runs this process started and another runs keep their slot and lock with that worker.
      documentRuns.close();
      stackRuns.close();
      await Promise.allSettled([bus.close(), parsing.close(), tracing.flush()]);
      await store.close();
    },
  };
}

function createParsePool(env: Env, log: Logger): ParsePool {
  const poolLog = log.child({ component: 'parse-pool' });
  return new ParsePool({
    threads: env.PARSE_WORKERS,
    heapMb: env.PARSE_WORKER_HEAP_MB,
    timeoutMs: env.PARSE_TIMEOUT_SECONDS * 1000,
    limits: inputLimitsFrom(env),
    // A parser failing in a way it did not foresee: the client hears its input was unreadable,
    // and the operator gets the stack (it may be a bug of ours).
    onUnexpected: (job, error) => poolLog.warn('parse job failed unexpectedly', { job, error }),
  });
}

const globalRuntime = globalThis as typeof globalThis & {
  __tandemRuntime?: Promise<Runtime>;
};

/** The shared runtime of this server process. */
export function getRuntime(): Promise<Runtime> {
  globalRuntime.__tandemRuntime ??= createRuntime({ env: processEnv() }).catch((error: unknown) => {
    // Let the next request try again instead of caching a failure forever.
    globalRuntime.__tandemRuntime = undefined;
    throw error;
  });
  return globalRuntime.__tandemRuntime;
}
