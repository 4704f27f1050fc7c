// A call's validated output: the model's answer parsed against the caller's zod schema, with
// one repair attempt that tells the model what was wrong with its first answer, and one that
// tells it its answers were blocked by the safety filter.
import type { z } from 'zod';
import {
  completeWithRetries,
  type AnswerRequest,
  type RetrySettings,
} from './complete-with-retries';
import { callFailure, type LlmCall } from './llm-call';
import { LlmCallError } from './port';
import { addUsage } from './provider';
import {
  parseStructuredOutput,
  toProviderJsonSchema,
  type ParseOutcome,
} from './structured-output';

export interface ValidAnswer<T> {
  value: T;
  /** The JSON the model answered, before zod's transforms and defaults (for the trace). */
  json: unknown;
}

export async function answerWithRepair<S extends z.ZodType>(
  call: LlmCall<S>,
  settings: RetrySettings,
): Promise<ValidAnswer<z.output<S>>> {
  const { request } = call;
  const jsonSchema = toProviderJsonSchema(request.schema);
  const first = await parsedAnswer(call, settings, {
    prompt: request.prompt,
    repairReason: null,
    jsonSchema,
  });
  if (first.parsed.ok) return { value: first.parsed.value, json: first.parsed.json };
  // One repair only: a model that fails twice on the same schema rarely succeeds on a third
  // try, and each attempt costs a full prompt.
  const repaired = await parsedAnswer(call, settings, {
    prompt: repairPrompt(request.prompt, first.text, first.parsed.reason),
    repairReason: first.parsed.reason,
    jsonSchema,
  });
  if (repaired.parsed.ok) return { value: repaired.parsed.value, json: repaired.parsed.json };
  // An empty, cut-off or garbled answer (no candidates, MAX_TOKENS, not JSON) says nothing
  // about the schema: the model's next sample of the original prompt usually works. Sampled
  // again while the answers stay so and the call's retry budget lasts; JSON that misses the
  // schema twice stops here.
  let latest = repaired;
  let unfinished = isNotJson(first.parsed) || isNotJson(repaired.parsed);
  while (unfinished && call.retriesLeft > 0) {
    call.retriesLeft--;
    latest = await parsedAnswer(call, settings, {
      prompt: request.prompt,
      repairReason: null,
      jsonSchema,
    });
    if (latest.parsed.ok) return { value: latest.parsed.value, json: latest.parsed.json };
    unfinished = isNotJson(latest.parsed);
  }
  // Still no JSON: a failure of the sampling or the transport more than of the model, so the
  // request may be sent again (retryable); JSON that misses the schema twice is not.
  if (unfinished)
    throw callFailure(
      call,
      `${call.provider.name} output for ${request.node} was empty, cut off or not JSON after one repair ` +
        `attempt and the retries left. ${latest.parsed.ok ? '' : latest.parsed.reason}`,
      true,
    );
  throw callFailure(
    call,
    `${call.provider.name} output for ${request.node} did not match the schema after one ` +
      `repair attempt. ${repaired.parsed.reason}`,
    false,
  );
}

/** One answer (with its retries), counted into the call and parsed against the schema. */
async function parsedAnswer<S extends z.ZodType>(
  call: LlmCall<S>,
  settings: RetrySettings,
  answer: AnswerRequest,
): Promise<{ text: string; parsed: ParseOutcome<z.output<S>> }> {
  const response = await completeWithRetries(call, settings, answer).catch((error: unknown) => {
    if (!refusedByBlocks(call, error)) throw error;
    // Two blocked samples of one prompt say the prompt draws the block, so a third sample of it
    // would likely be blocked too. Asked once more, from the call's retry budget, with a note
    // that its answers were blocked: a different request, the one thing left that can change
    // the sample. Blocked again, it is the model's refusal (not retryable).
    call.blockRephrased = true;
    call.retriesLeft--;
    return completeWithRetries(call, settings, {
      ...answer,
      prompt: blockedRepairPrompt(answer.prompt),
      repairReason: BLOCKED_REASON,
    });
  });
  call.usage = addUsage(call.usage, response.usage);
  // The answering model (often a more specific version) is what usage is billed as, and what
  // the repair attempt asks for.
  call.model = response.model;
  return { text: response.text, parsed: parseStructuredOutput(response.text, call.request.schema) };
}

const BLOCKED_REASON = 'Your previous answers were blocked by the safety filter.';

/** The call's answers were blocked twice in a row, and it has not yet asked again rephrased. */
const refusedByBlocks = (call: LlmCall, error: unknown): boolean =>
  error instanceof LlmCallError &&
  !error.details.retryable &&
  call.lastAttemptBlocked &&
  !call.blockRephrased &&
  call.request.signal?.aborted !== true &&
  call.retriesLeft > 0;

/** The prompt once more, saying why: the model may word an answer the filter lets through. */
export function blockedRepairPrompt(prompt: string): string {
  return [
    prompt,
    '',
    '---',
    BLOCKED_REASON,
    'Answer the same request again with one JSON value that matches the required schema, in plain factual words.',
  ].join('\n');
}

/**
 * No answer, or text that is not JSON at all (cut off by MAX_TOKENS, garbled on the way): the
 * provider's structured output makes that a failed sample, not the model's view of the schema.
 * The parse already told: a failure with no JSON value found.
 */
const isNotJson = (parsed: ParseOutcome<unknown>): boolean =>
  !parsed.ok && parsed.json === undefined;

const MAX_ECHOED_ANSWER_CHARS = 2_000;

/** The original prompt plus what was wrong, so the model can fix its own answer. */
export function repairPrompt(prompt: string, previousAnswer: string, reason: string): string {
  const echoed =
    previousAnswer.length > MAX_ECHOED_ANSWER_CHARS
      ? `${previousAnswer.slice(0, MAX_ECHOED_ANSWER_CHARS)}… (truncated)`
      : previousAnswer;
  return [
    prompt,
    '',
    '---',
    'Your previous answer could not be used.',
    reason,
    'Previous answer:',
    echoed,
    '',
    'Answer again with one JSON value that matches the required schema exactly: no prose, no code fences.',
  ].join('\n');
}
