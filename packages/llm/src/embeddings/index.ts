export {
  EmbeddingError,
  type Embedder,
  type EmbeddingContext,
  type EmbedderHooks,
  type EmbeddingKind,
  type EmbeddingUsage,
} from './port';
export {
  createGeminiEmbedder,
  DEFAULT_EMBEDDING_DIMENSIONS,
  DEFAULT_GEMINI_EMBEDDING_MODEL,
  type GeminiEmbedderOptions,
} from './gemini-embedder';
export { createOpenAiEmbedder, type OpenAiEmbedderOptions } from './openai-embedder';
