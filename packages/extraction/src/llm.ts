// The model port of the extraction sub-agent: the subset of the agent's LlmClient it uses.
// Declared here, not imported, because @tandem/agent depends on this package (the interact
// graph's extraction node calls it); the agent's client satisfies this interface as it stands,
// so every extraction call is priced, logged and traced by the one LLM port.
import type { z } from 'zod';

export interface ExtractionCallContext {
  tenantId: string;
  userId?: string | null;
  sessionId?: string | null;
  taskId?: string | null;
  traceId?: string | null;
}

export interface ExtractionLlmRequest<S extends z.ZodType> {
  node: 'extraction';
  /** EXTRACTION_CHECK: the model reading a slice of a replayed page to cross-check it. */
  actionType: 'EXTRACTION' | 'EXTRACTION_CHECK';
  system: string;
  prompt: string;
  schema: S;
  schemaName?: string;
  context: ExtractionCallContext;
  signal?: AbortSignal;
}

export interface ExtractionLlmUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  thinkingTokens: number;
  totalTokens: number;
}

export interface ExtractionLlmResult<T> {
  output: T;
  usage: ExtractionLlmUsage;
  model: string;
  latencyMs: number;
}

export interface ExtractionLlm {
  generate<S extends z.ZodType>(
    request: ExtractionLlmRequest<S>,
  ): Promise<ExtractionLlmResult<z.output<S>>>;
}
