// The one place bench/knowledge reads the environment: the embeddings model to measure recall
// with, from the same variables the server reads (apps/server/src/env.ts). Keys are never printed.
import { createGeminiEmbedder, createOpenAiEmbedder, type Embedder } from '@tandem/llm';

export function embedderFromEnv(): Embedder | null {
  const env = process.env;
  if (env.EMBEDDINGS_BASE_URL && env.EMBEDDINGS_MODEL) {
    return createOpenAiEmbedder({
      baseUrl: env.EMBEDDINGS_BASE_URL,
      model: env.EMBEDDINGS_MODEL,
      ...(env.EMBEDDINGS_API_KEY ? { apiKey: env.EMBEDDINGS_API_KEY } : {}),
    });
  }
  if (env.GEMINI_API_KEY) return createGeminiEmbedder({ apiKey: env.GEMINI_API_KEY });
  return null;
}
