// Embeddings from any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio) through
// the `openai` SDK, the one the LLM port uses for such endpoints.
import OpenAI from 'openai';
import { messageOf } from './gemini-embedder';
import { EmbeddingError, batches, type Embedder, type EmbedderHooks } from './port';

const BATCH = 64;

export interface OpenAiEmbedderOptions extends EmbedderHooks {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Sent only when set: many local models have one fixed size and reject the parameter. */
  dimensions?: number;
  timeoutMs?: number;
}

export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const client = new OpenAI({
    baseURL: options.baseUrl,
    // Local servers take no key, but the SDK insists on one.
    apiKey: options.apiKey ?? 'not-needed',
    maxRetries: 2,
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  });
  return {
    id: `openai-compatible:${options.model}`,
    model: options.model,
    async embed(texts, _kind, context) {
      const vectors: number[][] = [];
      for (const batch of batches(texts, BATCH)) {
        let response;
        const started = Date.now();
        try {
          response = await client.embeddings.create({
            model: options.model,
            input: batch,
            encoding_format: 'float',
            ...(options.dimensions !== undefined ? { dimensions: options.dimensions } : {}),
          });
        } catch (error) {
          throw new EmbeddingError(`Embeddings failed: ${messageOf(error, options.apiKey)}`);
        }
        const ordered = [...response.data].sort((a, b) => a.index - b.index);
        if (ordered.length !== batch.length) {
          throw new EmbeddingError(
            `The embeddings endpoint answered ${ordered.length} vectors for ${batch.length} texts`,
          );
        }
        vectors.push(...ordered.map((d) => d.embedding));
        options.onUsage?.({
          model: options.model,
          inputTokens: response.usage.prompt_tokens,
          durationMs: Date.now() - started,
          ...(context ? { context } : {}),
        });
      }
      return vectors;
    },
  };
}
