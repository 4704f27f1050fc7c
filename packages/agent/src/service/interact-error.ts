// The agent's refusals: an ErrorCode from the contracts and a message for the user. The HTTP
// status is the contract's (`ERROR_HTTP_STATUS`), never chosen here, so the server's error
// mapping, docs/api.md and the extension's retry logic all agree on it.
import { ERROR_HTTP_STATUS, type ErrorCode } from '@tandem/contracts';
import { LlmCallError } from '@tandem/llm';

export class InteractError extends Error {
  override readonly name = 'InteractError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = ERROR_HTTP_STATUS[code];
  }
}

/**
 * A model call that failed for good (a safety block, a request the provider rejects): sending
 * the same request again cannot change it, so it is answered 422 LLM_REFUSED, not the 502
 * LLM_ERROR a client resends. The provider's words stay in the log and the trace.
 */
export function modelRefusal(error: unknown): InteractError | null {
  if (!(error instanceof LlmCallError) || error.details.retryable) return null;
  return new InteractError(
    'LLM_REFUSED',
    `The language model refused to answer at the ${error.details.node.replace(/_/g, ' ')} step; sending the request again will not change that. Rephrase the goal, or try it on another page.`,
  );
}
