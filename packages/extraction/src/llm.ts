// The model port of the extraction sub-agent: @tandem/llm's client, of which it calls only
// `generate`, with node `extraction`. The one LLM port, so every extraction call is priced,
// logged and traced like any other. The names below keep the sub-agent's signatures short.
import type { LlmCallContext, LlmClient, LlmRequest, LlmResult, LlmUsage } from '@tandem/llm';
import type { z } from 'zod';

export type ExtractionCallContext = LlmCallContext;

/** An extraction call (EXTRACTION, or EXTRACTION_CHECK for a replay's cross-check). */
export type ExtractionLlmRequest<S extends z.ZodType> = LlmRequest<S> & {
  node: 'extraction';
  actionType: 'EXTRACTION' | 'EXTRACTION_CHECK';
};

export type ExtractionLlmUsage = LlmUsage;
export type ExtractionLlmResult<T> = LlmResult<T>;
export type ExtractionLlm = Pick<LlmClient, 'generate'>;
