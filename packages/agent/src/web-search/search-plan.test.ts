// The managed search's decisions as pure functions: domains, next queries, the conclusion.
import { describe, expect, it } from 'vitest';
import { createUnconfiguredLlmClient } from '@tandem/llm';
import { createDisabledWebSearch } from './disabled-web-search';
import type { SearchAttempt } from './manage-search';
import type { WebSearchResult } from './port';
import {
  attemptDomain,
  concludeSearch,
  emptyRun,
  keepBest,
  nextAttempt,
  planSearch,
  type SearchPlan,
} from './search-plan';

const plan = (overrides: Partial<SearchPlan> = {}): SearchPlan => ({
  maxAttempts: 3,
  maxResults: 5,
  baseDomain: 'example.com',
  widenLastAttempt: true,
  useLlm: false,
  ...overrides,
});
const attempt = (query: string, resultCount: number): SearchAttempt => ({
  query,
  domain: 'example.com',
  resultCount,
});
const result = (url: string, score: number): WebSearchResult => ({
  title: url,
  url,
  content: `about ${url}`,
  score,
});

describe('planSearch', () => {
  const base = { webSearch: createDisabledWebSearch(), query: 'q', context: { tenantId: 't' } };

  it("defaults to three attempts on the page's site, judged by the heuristic without an LLM", () => {
    expect(
      planSearch({ ...base, url: 'https://www.example.com/a', llm: createUnconfiguredLlmClient() }),
    ).toEqual(plan());
  });

  it('takes an explicit domain, null included, over the page host', () => {
    expect(
      planSearch({ ...base, url: 'https://example.com/', domain: null }).baseDomain,
    ).toBeNull();
    expect(planSearch({ ...base, url: 'https://example.com/', domain: 'docs.io' }).baseDomain).toBe(
      'docs.io',
    );
    expect(planSearch({ ...base, url: 'https://example.com/', maxAttempts: 0 }).maxAttempts).toBe(
      1,
    );
  });
});

describe('attemptDomain', () => {
  it('widens only the last attempt, and only after empty attempts on the site', () => {
    const empty = [attempt('a', 0), attempt('b', 0)];
    expect(attemptDomain(plan(), 1, empty.slice(0, 1))).toBe('example.com');
    expect(attemptDomain(plan(), 2, empty)).toBeNull();
    expect(attemptDomain(plan(), 2, [attempt('a', 0), attempt('b', 2)])).toBe('example.com');
  });

  it('never widens a single attempt, or when widening is off', () => {
    expect(attemptDomain(plan({ maxAttempts: 1 }), 0, [])).toBe('example.com');
    expect(attemptDomain(plan({ widenLastAttempt: false }), 2, [attempt('a', 0)])).toBe(
      'example.com',
    );
  });
});

describe('nextAttempt', () => {
  const tried = [attempt('What is the zip code of Springfield?', 0)];

  it("takes the judge's refinement when it is new", () => {
    expect(nextAttempt(plan(), '  springfield zip  ', tried[0]?.query ?? '', tried)).toEqual({
      query: 'springfield zip',
      skipToLast: false,
    });
  });

  it('falls back to the heuristic when the refinement is missing or already tried', () => {
    const query = tried[0]?.query ?? '';
    const expected = { query: 'zip code springfield', skipToLast: false };
    expect(nextAttempt(plan(), null, query, tried)).toEqual(expected);
    expect(nextAttempt(plan(), 'WHAT is the zip code  of Springfield?', query, tried)).toEqual(
      expected,
    );
  });

  it('skips to a widened last attempt when no new query is left, or stops', () => {
    const spent = [attempt('pricing', 0)];
    expect(nextAttempt(plan(), null, 'pricing', spent)).toEqual({
      query: 'pricing',
      skipToLast: true,
    });
    expect(nextAttempt(plan(), null, 'pricing', [attempt('pricing', 3)])).toBeNull();
    expect(nextAttempt(plan({ baseDomain: null }), null, 'pricing', spent)).toBeNull();
  });
});

describe('keepBest', () => {
  it('keeps the higher score of a URL seen twice', () => {
    const seen = new Map<string, WebSearchResult>();
    keepBest(seen, [result('a', 0.2), result('b', 0.9)]);
    keepBest(seen, [result('a', 0.7), result('b', 0.1)]);
    expect([...seen.values()].map((r) => [r.url, r.score])).toEqual([
      ['a', 0.7],
      ['b', 0.9],
    ]);
  });
});

describe('concludeSearch', () => {
  it("returns the answering attempt's results, best first and capped", () => {
    const run = emptyRun();
    run.attempts.push(attempt('q', 3));
    keepBest(run.seen, [result('old', 1)]);
    run.solvedWith = [result('a', 0.1), result('b', 0.8), result('c', 0.5)];
    run.answer = '42';
    const outcome = concludeSearch(run, 2);
    expect(outcome.results.map((r) => r.url)).toEqual(['b', 'c']);
    expect(outcome).toMatchObject({ solved: true, shouldAskUser: false, answer: '42' });
    expect(outcome.summary).toContain('Answer: 42');
  });

  it('returns the best results seen when nothing answered, without asking the user', () => {
    const run = emptyRun();
    run.attempts.push(attempt('q', 2));
    keepBest(run.seen, [result('a', 0.3), result('b', 0.6)]);
    const outcome = concludeSearch(run, 5);
    expect(outcome.results.map((r) => r.url)).toEqual(['b', 'a']);
    expect(outcome).toMatchObject({ solved: false, shouldAskUser: false });
  });

  it('asks the user when nothing was found or the judge said so, never after a failed search', () => {
    const nothing = emptyRun();
    nothing.attempts.push(attempt('q', 0));
    expect(concludeSearch(nothing, 5)).toMatchObject({ shouldAskUser: true, summary: '' });

    const private_ = emptyRun();
    private_.attempts.push(attempt('q', 1));
    keepBest(private_.seen, [result('a', 0.3)]);
    private_.askUser = true;
    expect(concludeSearch(private_, 5).shouldAskUser).toBe(true);

    const failed = emptyRun();
    failed.attempts.push({ ...attempt('q', 0), error: 'HTTP 401' });
    expect(concludeSearch(failed, 5).shouldAskUser).toBe(false);
  });
});
