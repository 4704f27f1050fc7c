// Knowledge in the runtime: the embeddings model chosen from env, the ingestion pipeline, the
// retriever RAG and /api/knowledge/resolve share, and the crawl and upload job runners.
import { randomUUID } from 'node:crypto';
import type { LlmProvider } from '@tandem/contracts';
import { createKnowledgeRetriever, type KnowledgeRetriever } from '@tandem/knowledge';
import {
  createGeminiEmbedder,
  createOpenAiEmbedder,
  type Embedder,
  type EmbeddingUsage,
} from '@tandem/llm';
import { priceUsage } from '@tandem/observability';
import {
  gotenbergHandler,
  KnowledgeIngestion,
  type ContentParsers,
  type FormatHandler,
  type KnowledgeQuotas,
} from '@tandem/knowledge/ingestion';
import type { EventBus, JobQueue } from '@tandem/jobs';
import type { Store } from '@tandem/store';
import type { Env } from '../env';
import { KnowledgeJobRunner } from './knowledge-jobs';
import { KnowledgeUploadRunner } from './knowledge-uploads';
import type { Logger } from '@tandem/observability';

export interface KnowledgeRuntime {
  /** Null: retrieval is lexical only. */
  embedder: Embedder | null;
  ingestion: KnowledgeIngestion;
  retriever: KnowledgeRetriever;
  jobs: KnowledgeJobRunner;
  /** Uploaded files read by jobs (queue "ingest"), listed with the crawls as knowledge jobs. */
  uploads: KnowledgeUploadRunner;
  quotas: KnowledgeQuotas;
}

type UsageRecorder = (provider: LlmProvider) => (usage: EmbeddingUsage) => void;

/**
 * Embedding calls are billed like every model call: a TokenUsageLog row for the tenant whose
 * knowledge was embedded (action type EMBEDDING, input tokens only), priced from the central
 * table. They are not LangFuse generations: they belong to no interact trace.
 */
export function embeddingUsageRecorder(
  store: Pick<Store, 'tokenUsage'>,
  log: Logger,
): UsageRecorder {
  return (provider) => (usage) => {
    if (!usage.context) return;
    const priced = { inputTokens: usage.inputTokens, outputTokens: 0, cachedInputTokens: 0 };
    store.tokenUsage
      .append(usage.context.tenantId, {
        id: randomUUID(),
        userId: usage.context.userId ?? null,
        sessionId: null,
        messageId: null,
        taskId: null,
        traceId: null,
        provider,
        model: usage.model,
        actionType: 'EMBEDDING',
        ...priced,
        thinkingTokens: 0,
        totalTokens: usage.inputTokens,
        costMicroUsd: priceUsage(usage.model, { ...priced, thinkingTokens: 0 }),
        durationMs: usage.durationMs,
        timestamp: new Date().toISOString(),
      })
      .catch((error: unknown) => log.error('embedding usage not recorded', { error }));
  };
}

/** EMBEDDINGS=auto: an OpenAI-compatible endpoint when configured, else Gemini with a key. */
export function embedderFrom(env: Env, record?: UsageRecorder): Embedder | null {
  if (env.EMBEDDINGS === 'off') return null;
  if (env.EMBEDDINGS_BASE_URL && env.EMBEDDINGS_MODEL) {
    return createOpenAiEmbedder({
      baseUrl: env.EMBEDDINGS_BASE_URL,
      model: env.EMBEDDINGS_MODEL,
      ...(env.EMBEDDINGS_API_KEY ? { apiKey: env.EMBEDDINGS_API_KEY } : {}),
      ...(env.EMBEDDINGS_DIMENSIONS ? { dimensions: env.EMBEDDINGS_DIMENSIONS } : {}),
      timeoutMs: env.LLM_TIMEOUT_MS,
      ...(record ? { onUsage: record('OPENAI_COMPATIBLE') } : {}),
    });
  }
  if (env.GEMINI_API_KEY) {
    return createGeminiEmbedder({
      apiKey: env.GEMINI_API_KEY,
      ...(env.GEMINI_BASE_URL ? { baseUrl: env.GEMINI_BASE_URL } : {}),
      ...(env.EMBEDDINGS_MODEL ? { model: env.EMBEDDINGS_MODEL } : {}),
      ...(env.EMBEDDINGS_DIMENSIONS ? { dimensions: env.EMBEDDINGS_DIMENSIONS } : {}),
      timeoutMs: env.LLM_TIMEOUT_MS,
      ...(record ? { onUsage: record('GOOGLE') } : {}),
    });
  }
  return null;
}

/** Gotenberg converts; what it is sent and what comes back are parsed in the parse pool. */
function officeHandler(url: string, parsers: ContentParsers): FormatHandler {
  const file = (bytes: Uint8Array, context: { tenantId?: string; fileName?: string }) => ({
    bytes,
    fileName: context.fileName ?? 'document',
    ...(context.tenantId ? { tenantId: context.tenantId } : {}),
  });
  return gotenbergHandler({
    url,
    inspectArchive: (bytes, context) => parsers.inspectArchive(file(bytes, context)),
    readPdf: (pdf, context) =>
      parsers.document({ ...file(pdf, context), mimeType: 'application/pdf' }),
  });
}

export function createKnowledgeRuntime(options: {
  env: Env;
  store: Store;
  log: Logger;
  /** Tests pass their own (a loopback embeddings server); otherwise chosen from env. */
  embedder?: Embedder | null;
  /** Where files and pages are parsed: the runtime's parse pool. */
  parsers: ContentParsers;
  /** Where crawls are queued and run. */
  jobs: JobQueue;
  /** Where crawl progress is published, for every process's streams. */
  events: EventBus;
}): KnowledgeRuntime {
  const { env, store } = options;
  const log = options.log.child({ component: 'knowledge' });
  const embedder =
    options.embedder !== undefined
      ? options.embedder
      : embedderFrom(env, embeddingUsageRecorder(store, log));
  const onEmbeddingError = (error: unknown) =>
    log.warn('embeddings failed; lexical only', { error });
  const quotas: KnowledgeQuotas = {
    documents: env.KNOWLEDGE_QUOTA_DOCUMENTS,
    bytes: env.KNOWLEDGE_QUOTA_MB * 1024 * 1024,
  };
  const ingestion = new KnowledgeIngestion({
    knowledge: store.knowledge,
    embedder,
    quotas,
    onEmbeddingError,
    parsers: options.parsers,
    ...(env.GOTENBERG_URL
      ? {
          extractOptions: {
            handlers: { office: officeHandler(env.GOTENBERG_URL, options.parsers) },
          },
        }
      : {}),
  });
  const jobs = new KnowledgeJobRunner({
    store,
    queue: options.jobs,
    events: options.events,
    ingestion,
    log,
    crawlsPerTenant: env.KNOWLEDGE_CRAWLS_PER_TENANT,
    crawl: {
      concurrency: env.KNOWLEDGE_CRAWL_CONCURRENCY,
      delayMs: env.KNOWLEDGE_CRAWL_DELAY_MS,
      allowPrivateNetwork: env.KNOWLEDGE_ALLOW_PRIVATE_URLS,
    },
  });
  const uploads = new KnowledgeUploadRunner({ store, queue: options.jobs, jobs, ingestion, log });
  return {
    embedder,
    ingestion,
    quotas,
    retriever: createKnowledgeRetriever({ knowledge: store.knowledge, embedder, onEmbeddingError }),
    jobs,
    uploads,
  };
}
