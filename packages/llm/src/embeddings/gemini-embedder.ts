// Gemini embeddings through @google/genai (the SDK the LLM port uses). Task types tell the
// model whether it embeds a passage or a question, which measurably helps retrieval.
import { GoogleGenAI } from '@google/genai';
import { EmbeddingError, batches, estimateTokens, type Embedder, type EmbedderHooks } from './port';

export const DEFAULT_GEMINI_EMBEDDING_MODEL = 'gemini-embedding-001';
/** 768 keeps vectors small (3 KB each) with little loss; the model's native size is 3072. */
export const DEFAULT_EMBEDDING_DIMENSIONS = 768;
/** The API takes at most 100 texts per batch request. */
const BATCH = 100;

export interface GeminiEmbedderOptions extends EmbedderHooks {
  apiKey: string;
  baseUrl?: string;
  model?: string;
  dimensions?: number;
  timeoutMs?: number;
}

export function createGeminiEmbedder(options: GeminiEmbedderOptions): Embedder {
  const model = options.model ?? DEFAULT_GEMINI_EMBEDDING_MODEL;
  const dimensions = options.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS;
  const ai = new GoogleGenAI({
    apiKey: options.apiKey,
    httpOptions: {
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    },
  });
  return {
    id: `gemini:${model}`,
    model,
    async embed(texts, kind, context) {
      const vectors: number[][] = [];
      for (const batch of batches(texts, BATCH)) {
        let response;
        const started = Date.now();
        try {
          response = await ai.models.embedContent({
            model,
            contents: batch,
            config: {
              taskType: kind === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT',
              outputDimensionality: dimensions,
            },
          });
        } catch (error) {
          throw new EmbeddingError(`Gemini embeddings failed: ${messageOf(error, options.apiKey)}`);
        }
        const values = (response.embeddings ?? []).map((e) => e.values ?? []);
        if (values.length !== batch.length || values.some((v) => v.length === 0)) {
          throw new EmbeddingError(
            `Gemini embeddings answered ${values.length} vectors for ${batch.length} texts`,
          );
        }
        vectors.push(...values);
        options.onUsage?.({
          model,
          inputTokens: estimateTokens(batch),
          durationMs: Date.now() - started,
          ...(context ? { context } : {}),
        });
      }
      return vectors;
    },
  };
}

/** The error's message without the key (the SDK may echo request URLs). */
export function messageOf(error: unknown, secret: string | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  return secret ? message.split(secret).join('[redacted]') : message;
}
