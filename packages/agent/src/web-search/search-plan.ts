// The decisions of a managed search, apart from its I/O: where each attempt searches, which
// query comes next, and what the attempts add up to. See manage-search.ts for the why of the
// last attempt's widening.
import type { ManageSearchInput, ManageSearchResult, SearchAttempt } from './manage-search';
import type { LlmResult } from '@tandem/llm';
import { DEFAULT_MAX_RESULTS, type WebSearchResult } from './port';
import { domainOf, normalizeQuery, simplifyQuery } from './search-query';
import { summarize } from './search-text';

export interface SearchPlan {
  maxAttempts: number;
  maxResults: number;
  /** Where attempts search unless widened; null: the whole web. */
  baseDomain: string | null;
  widenLastAttempt: boolean;
  /** An LLM judges the results; the heuristic does otherwise. */
  useLlm: boolean;
}

export function planSearch(input: ManageSearchInput): SearchPlan {
  return {
    maxAttempts: Math.max(1, input.maxAttempts ?? 3),
    maxResults: input.maxResults ?? DEFAULT_MAX_RESULTS,
    baseDomain: input.domain === undefined ? domainOf(input.url) : input.domain,
    widenLastAttempt: input.widenLastAttempt ?? true,
    useLlm: input.llm?.configured === true,
  };
}

/** What the attempts so far found, and how the search ended. */
export interface SearchRun {
  attempts: SearchAttempt[];
  /** Every result seen, the best-scored one per URL. */
  seen: Map<string, WebSearchResult>;
  /** The answering attempt's results; null while nothing answered. */
  solvedWith: WebSearchResult[] | null;
  answer: string | null;
  /** The judge said only the user can provide this. */
  askUser: boolean;
  reason: string;
  /** The judge's model calls, for the task's token and cost totals. */
  calls: JudgeCall[];
}

/** One model call of the judge: its tokens and the model that priced them. */
export type JudgeCall = Pick<LlmResult<unknown>, 'usage' | 'model'>;

export const emptyRun = (): SearchRun => ({
  attempts: [],
  seen: new Map(),
  solvedWith: null,
  answer: null,
  askUser: false,
  reason: 'no attempt made',
  calls: [],
});

/** A last attempt may search the whole web only when nothing so far found anything on the site. */
export function mayWiden(plan: SearchPlan, attempts: readonly SearchAttempt[]): boolean {
  return (
    plan.widenLastAttempt &&
    plan.baseDomain !== null &&
    attempts.every((attempt) => attempt.resultCount === 0)
  );
}

/** The domain of attempt `index` (0-based): the base domain, or null for a widened last one. */
export function attemptDomain(
  plan: SearchPlan,
  index: number,
  attempts: readonly SearchAttempt[],
): string | null {
  const widen = index === plan.maxAttempts - 1 && index > 0 && mayWiden(plan, attempts);
  return widen ? null : plan.baseDomain;
}

/**
 * The query after an unsolved attempt: the judge's refinement, else the heuristic one, never a
 * query already tried. When neither is new, only a widened last attempt could still add
 * something: `skipToLast` then reruns the query there; null ends the search.
 */
export function nextAttempt(
  plan: SearchPlan,
  refinedQuery: string | null,
  query: string,
  attempts: readonly SearchAttempt[],
): { query: string; skipToLast: boolean } | null {
  const tried = new Set(attempts.map((attempt) => normalizeQuery(attempt.query)));
  let next = refinedQuery?.trim() ?? '';
  if (next === '' || tried.has(normalizeQuery(next))) next = simplifyQuery(query);
  if (!tried.has(normalizeQuery(next))) return { query: next, skipToLast: false };
  return mayWiden(plan, attempts) ? { query: next, skipToLast: true } : null;
}

/** Adds an attempt's results to those seen, keeping the higher score for a URL seen twice. */
export function keepBest(seen: Map<string, WebSearchResult>, results: WebSearchResult[]): void {
  for (const result of results) {
    const known = seen.get(result.url);
    if (known === undefined || known.score < result.score) seen.set(result.url, result);
  }
}

/**
 * The search's result. The user is asked only when nothing useful turned up and the search
 * itself worked: a failed search (bad key, outage) says nothing about where the answer is.
 */
export function concludeSearch(run: SearchRun, maxResults: number): ManageSearchResult {
  const solved = run.solvedWith !== null;
  const results = [...(run.solvedWith ?? run.seen.values())].sort(byScore).slice(0, maxResults);
  const failed = run.attempts.some((attempt) => attempt.error !== undefined);
  return {
    results,
    attempts: run.attempts,
    solved,
    shouldAskUser: !solved && !failed && (run.askUser || run.seen.size === 0),
    summary: summarize(results, run.answer, run.attempts[run.attempts.length - 1]),
    answer: run.answer,
    reason: run.reason,
    calls: run.calls,
  };
}

const byScore = (a: WebSearchResult, b: WebSearchResult): number => b.score - a.score;
