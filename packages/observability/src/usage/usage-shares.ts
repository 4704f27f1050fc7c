// A merged call priced under each node it served. One model call may answer for two nodes (context
// analysis writes the plan, the action answer states its expected outcome); billing by action type
// should still show what planning or outcome prediction cost, or a rollup would credit those
// nodes with nothing and the calling node with everything. The call is split into one log for the
// calling node and one per other part, by each part's share of the answer: the prompt served the
// whole answer, so its input tokens follow the same shares as the output. Only the calling node's
// log counts as a call (`partOf` marks the others), so call counts stay true in every rollup.
import type { LlmActionType } from '@tandem/contracts';
import type { CallPart, UsageEventUsage } from './usage-event';

/** One log's amounts: a whole call's, or a part's share of it. */
export interface UsageAmounts extends UsageEventUsage {
  costMicroUsd: number;
}

export interface UsageShare {
  /** The caller's share keeps the call's own id; a part's is the id with its node appended. */
  idSuffix: string;
  actionType: LlmActionType;
  /** Null for the calling node's log; the part's node otherwise. */
  partNode: CallPart['node'] | null;
  amounts: UsageAmounts;
}

const sizeOf = (value: unknown): number => {
  if (value === undefined) return 0;
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
};

/**
 * Each part's fraction of the call: the size of its field in the answer over the whole answer's.
 * An answer without the field (the plan was null, the call failed) gives the part nothing.
 */
export function partFractions(output: unknown, parts: readonly CallPart[]): number[] {
  const whole = sizeOf(output);
  if (whole === 0 || typeof output !== 'object' || output === null) return parts.map(() => 0);
  const fields = output as Record<string, unknown>;
  const raw = parts.map((part) => {
    const value = fields[part.field];
    return value === null ? 0 : sizeOf(value) / whole;
  });
  const sum = raw.reduce((a, b) => a + b, 0);
  // Fields are inside the whole, so the sum stays below 1; the guard keeps rounding honest.
  return sum > 1 ? raw.map((f) => f / sum) : raw;
}

// Input is split as its cached and uncached parts, each rounded down, so that every log's cached
// tokens stay within its input tokens.
const SPLIT_KEYS = [
  'cachedInputTokens',
  'outputTokens',
  'thinkingTokens',
  'totalTokens',
  'costMicroUsd',
] as const satisfies readonly (keyof UsageAmounts)[];

/**
 * The logs of one call: the caller's first, then each part with a share above nothing. Amounts
 * are whole numbers, each part's rounded down and the caller keeping the rest, so the logs of a
 * call always add up to exactly the call.
 */
export function splitUsage(
  call: { actionType: LlmActionType; output?: unknown; alsoFor?: readonly CallPart[] },
  amounts: UsageAmounts,
): UsageShare[] {
  const parts = call.alsoFor ?? [];
  const fractions = partFractions(call.output, parts);
  const shares: UsageShare[] = [];
  const rest: UsageAmounts = { ...amounts };
  const uncached = amounts.inputTokens - amounts.cachedInputTokens;
  parts.forEach((part, i) => {
    const fraction = fractions[i] ?? 0;
    if (fraction <= 0) return;
    const share = {} as UsageAmounts;
    for (const key of SPLIT_KEYS) {
      share[key] = Math.floor(amounts[key] * fraction);
      rest[key] -= share[key];
    }
    share.inputTokens = share.cachedInputTokens + Math.floor(uncached * fraction);
    rest.inputTokens -= share.inputTokens;
    shares.push({
      idSuffix: `:${part.node}`,
      actionType: part.actionType,
      partNode: part.node,
      amounts: share,
    });
  });
  return [{ idSuffix: '', actionType: call.actionType, partNode: null, amounts: rest }, ...shares];
}
