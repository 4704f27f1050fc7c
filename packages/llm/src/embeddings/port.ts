// The embeddings port: how knowledge turns text into vectors. Gemini, any OpenAI-compatible
// endpoint (OpenAI, Ollama, vLLM, LM Studio…), or none — then retrieval is lexical only and
// nothing breaks. Business code sees only this interface; the server picks one from env.

/** Documents and queries are embedded differently by models that support it (Gemini task types). */
export type EmbeddingKind = 'document' | 'query';

/** Whose knowledge the texts are: embeddings are billed to that tenant like any model call. */
export interface EmbeddingContext {
  tenantId: string;
  userId?: string | null;
}

export interface EmbeddingUsage {
  model: string;
  /** Input tokens the provider reported (estimated at 4 characters a token when it did not). */
  inputTokens: number;
  durationMs: number;
  context?: EmbeddingContext;
}

export interface Embedder {
  /** Provider and model, e.g. "gemini:gemini-embedding-001"; stored with each document. */
  readonly id: string;
  readonly model: string;
  /** One vector per text, in order; every vector has the same length. */
  embed(texts: string[], kind: EmbeddingKind, context?: EmbeddingContext): Promise<number[][]>;
}

export interface EmbedderHooks {
  /** Called after each provider call (billing, traces); errors in it never fail the embedding. */
  onUsage?: (usage: EmbeddingUsage) => void;
}

/** The embeddings provider failed; the message never contains the API key. */
export class EmbeddingError extends Error {
  override readonly name = 'EmbeddingError';
}

export const estimateTokens = (texts: string[]): number =>
  texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);

/** Splits `items` into batches of at most `size` (providers cap inputs per call). */
export function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
