// One provider response for a call, retrying transient failures (429, 5xx, timeouts, network)
// and once a candidate blocked by a safety filter, from the call's one retry budget, with
// backoff between attempts.
import { attemptWithTimeout, sleepUnlessAborted } from './attempt-with-timeout';
import { abortedFailure, callFailure, callSubject, type LlmCall } from './llm-call';
import { ProviderError, addUsage, type ProviderRequest, type ProviderResponse } from './provider';
import { decideRetry, type BackoffPolicy } from './retry-policy';
import { toSchemaName } from './structured-output';

export interface RetrySettings {
  /** Timeout of each provider attempt, not of the call with its retries. */
  timeoutMs: number;
  backoff: BackoffPolicy;
}

/** What one answer asks: the caller's prompt, or the repair prompt and why it is needed. */
export interface AnswerRequest {
  prompt: string;
  repairReason: string | null;
  jsonSchema: Readonly<Record<string, unknown>>;
}

/**
 * Throws LlmCallError when the caller aborts, the failure is permanent, the budget is spent or
 * the provider asks for a longer wait than we allow. Errors that are not ProviderErrors are
 * programming errors and pass through unchanged. Tokens that failed attempts reported are
 * added to `call.usage`.
 */
export function completeWithRetries(
  call: LlmCall,
  settings: RetrySettings,
  answer: AnswerRequest,
): Promise<ProviderResponse> {
  return withRetries(call, settings, (attemptSignal) =>
    call.provider.complete(providerRequest(call, answer, attemptSignal)),
  );
}

/**
 * One provider attempt after another, from the call's one retry budget, until one answers:
 * the policy of completeWithRetries for any kind of provider request (tool-calling turns too).
 */
export async function withRetries<R>(
  call: LlmCall,
  settings: RetrySettings,
  attempt: (signal: AbortSignal) => Promise<R>,
): Promise<R> {
  const signal = call.request.signal;
  for (let retry = 0; ; retry++) {
    if (signal?.aborted === true) throw abortedFailure(call);
    let error: ProviderError;
    try {
      return await attemptWithTimeout({
        providerName: call.provider.name,
        timeoutMs: settings.timeoutMs,
        signal,
        complete: attempt,
      });
    } catch (caught) {
      if (!(caught instanceof ProviderError)) throw caught;
      error = caught;
    }
    if (error.usage !== undefined) call.usage = addUsage(call.usage, error.usage);
    call.lastAttemptBlocked = error.safetyBlock === 'candidate';
    if (error.kind === 'aborted') throw abortedFailure(call);
    const decision = decideRetry({
      failure: error,
      retry,
      retriesLeft: call.retriesLeft,
      candidateBlockRetried: call.candidateBlockRetried,
      subject: callSubject(call),
      policy: settings.backoff,
    });
    if (!decision.retry) throw callFailure(call, decision.message, decision.retryable);
    call.retriesLeft--;
    if (error.safetyBlock === 'candidate') call.candidateBlockRetried = true;
    try {
      await sleepUnlessAborted(decision.delayMs, signal);
    } catch {
      throw abortedFailure(call);
    }
  }
}

function providerRequest(
  call: LlmCall,
  answer: AnswerRequest,
  signal: AbortSignal,
): ProviderRequest {
  const { request } = call;
  return {
    node: request.node,
    model: call.model,
    system: request.system,
    prompt: answer.prompt,
    jsonSchema: answer.jsonSchema,
    schemaName: toSchemaName(request.schemaName, request.node),
    images: request.images ?? [],
    context: request.context,
    signal,
    repairReason: answer.repairReason,
    origin: request,
  };
}
