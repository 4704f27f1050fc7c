// The cacheable-prefix share, measured offline from the requests the model received: for each
// call after a task's first, how much of it repeats the start of the call before it. A provider
// prompt cache (Gemini's implicit caching) can only reuse a shared prefix, so this is the most
// any cache could save; the cached-tokens column is what one actually did.
import type { RecordedCall } from '@tandem/agent/testing/model-double';

/** A request as the model double kept it (the provider reads the system prompt first). */
type ModelRequest = Pick<RecordedCall, 'node' | 'system' | 'prompt' | 'at'>;

/** Characters of a task's calls after its first: shared with the previous call, and in all. */
export interface PrefixStats {
  /** Calls counted (every call of a task but its first). */
  calls: number;
  sharedChars: number;
  inputChars: number;
}

export const NO_PREFIX: PrefixStats = { calls: 0, sharedChars: 0, inputChars: 0 };

export const addPrefix = (a: PrefixStats, b: PrefixStats): PrefixStats => ({
  calls: a.calls + b.calls,
  sharedChars: a.sharedChars + b.sharedChars,
  inputChars: a.inputChars + b.inputChars,
});

/** Σ shared / Σ input: the input-weighted share, null when no call after a first was made. */
export const prefixShare = (stats: PrefixStats): number | null =>
  stats.inputChars > 0 ? stats.sharedChars / stats.inputChars : null;

export function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * The scripted model's reading of a system prompt (model-double's nodeOfSystem) as the usage
 * log's action types it may be logged under. Step refinement asks with action generation's
 * prompt but logs REFINEMENT, and extraction's check logs apart from extraction, so those
 * have two; a node the table lacks keeps its name in capitals.
 */
const ACTION_TYPES_OF_NODE: Record<string, readonly string[]> = {
  action_generation: ['ACTION_GENERATION', 'REFINEMENT'],
  extraction: ['EXTRACTION', 'EXTRACTION_CHECK'],
  correction: ['SELF_CORRECTION'],
  finalize: ['FINAL_ANSWER'],
  web_search: ['CONTEXT_ANALYSIS'],
};

const actionTypesOfNode = (node: string) => ACTION_TYPES_OF_NODE[node] ?? [node.toUpperCase()];

/** A logged call of the task: its action type and when it started. */
export interface LoggedCall {
  actionType: string;
  startedAt: number;
}

/** Log and wire clocks are the same machine's, but the log keeps whole milliseconds. */
const CLOCK_SLACK_MS = 2;

/**
 * The logged call a request belongs to: of the logged calls its node may be, the latest that
 * started before it arrived (retries and repairs of a call arrive within that call).
 */
function callOf(request: ModelRequest, calls: readonly LoggedCall[]): LoggedCall | undefined {
  const types = actionTypesOfNode(request.node);
  let best: LoggedCall | undefined;
  for (const call of calls) {
    if (!types.includes(call.actionType) || call.startedAt > request.at + CLOCK_SLACK_MS) continue;
    if (!best || call.startedAt >= best.startedAt) best = call;
  }
  return best;
}

/**
 * Each call's first request with its action type. Retries and the repair request of a call are
 * left out: they resend the call's own prompt (a retry wholly), so counting them would credit
 * the fault mode with a shared prefix no prompt change earned.
 */
export function callRequests(
  requests: readonly ModelRequest[],
  calls: readonly LoggedCall[],
): { actionType: string; text: string }[] {
  const seen = new Set<LoggedCall>();
  const out: { actionType: string; text: string }[] = [];
  for (const request of requests) {
    const call = callOf(request, calls);
    if (call && seen.has(call)) continue;
    if (call) seen.add(call);
    const fallback = actionTypesOfNode(request.node)[0] ?? request.node;
    out.push({
      actionType: call?.actionType ?? fallback,
      text: `${request.system}\n${request.prompt}`,
    });
  }
  return out;
}

/** One task's requests (in order) → prefix stats per action type of the later call. */
export function prefixByActionType(
  requests: readonly ModelRequest[],
  calls: readonly LoggedCall[],
): Map<string, PrefixStats> {
  const out = new Map<string, PrefixStats>();
  const perCall = callRequests(requests, calls);
  for (let i = 1; i < perCall.length; i++) {
    const previous = perCall[i - 1];
    const current = perCall[i];
    if (!previous || !current) continue;
    out.set(
      current.actionType,
      addPrefix(out.get(current.actionType) ?? NO_PREFIX, {
        calls: 1,
        sharedChars: commonPrefixLength(previous.text, current.text),
        inputChars: current.text.length,
      }),
    );
  }
  return out;
}
