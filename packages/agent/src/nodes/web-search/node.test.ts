import { describe, expect, it } from 'vitest';
import { createScriptedLlm, type ScriptedStep } from '@tandem/llm/testing';
import { costOf, nodeDeps, pageOf, stateWith } from '../../testing/state';
import {
  WebSearchError,
  type WebSearch,
  type WebSearchQuery,
  type WebSearchResult,
} from '../../web-search/port';
import { webSearch } from './node';

const page = pageOf([{ i: 'vat', r: 'inp', n: 'VAT number' }], {
  url: 'https://www.crm.example/company',
});
const task = (extra: Parameters<typeof stateWith>[0] = {}) =>
  stateWith({
    query: "Fill in Acme's VAT number",
    complexity: 'COMPLEX',
    requiredSources: ['WEB_SEARCH'],
    missingInformation: ['VAT number of Acme'],
    searchQuery: 'Acme SAS VAT number',
    page,
    ...extra,
  });

/** The Tavily boundary: records each query and answers with `answer(query)`. */
function fakeSearch(
  answer: (query: WebSearchQuery) => WebSearchResult[] | Error,
): WebSearch & { queries: WebSearchQuery[] } {
  const queries: WebSearchQuery[] = [];
  return {
    enabled: true,
    queries,
    search: (query) => {
      queries.push(query);
      const results = answer(query);
      return results instanceof Error ? Promise.reject(results) : Promise.resolve({ results });
    },
  };
}

const legalNotice: WebSearchResult = {
  title: 'Acme legal notice',
  url: 'https://crm.example/legal',
  content: 'Acme SAS, VAT FR 12 345 678 901',
  score: 0.9,
};

const judged = (output: {
  solved: boolean;
  answer: string | null;
  shouldAskUser: boolean;
}): ScriptedStep => ({
  node: 'web_search',
  output: { refinedQuery: null, reason: 'judged', ...output },
  usage: { inputTokens: 50, outputTokens: 10 },
});

/** The task's totals after `calls` judge calls: they are counted like every other call. */
const judgedTokens = (calls: number) => ({
  input: 50 * calls,
  output: 10 * calls,
  saved: 0,
  calls,
  costMicroUsd: calls * costOf(50, 10),
});
const NO_TOKENS = { input: 0, output: 0, saved: 0, calls: 0, costMicroUsd: 0 };

describe('web_search', () => {
  it('disabled: goes on without web results, searching nothing and calling no model', async () => {
    const llm = createScriptedLlm([], { zeroLatency: true });
    const update = await webSearch(nodeDeps({ llm }))(task());
    llm.assertDone();
    expect(update).toEqual({ webSearchSummary: null });
  });

  it("searches context analysis's query on the page's site and keeps the summary for planning", async () => {
    const search = fakeSearch(() => [legalNotice]);
    const llm = createScriptedLlm(
      [judged({ solved: true, answer: 'FR 12 345 678 901', shouldAskUser: false })],
      { zeroLatency: true },
    );
    const update = await webSearch(nodeDeps({ llm, webSearch: search }))(task());

    llm.assertDone();
    expect(search.queries).toEqual([
      { query: 'Acme SAS VAT number', domain: 'crm.example', maxResults: 5 },
    ]);
    expect(update).toEqual({
      webSearchSummary: expect.stringContaining('Answer: FR 12 345 678 901') as string,
      tokens: judgedTokens(1),
    });
    expect(update.webSearchSummary).toContain('https://crm.example/legal');
    expect(update.outcome).toBeUndefined();
  });

  it('searches the goal itself when context analysis gave no query', async () => {
    const search = fakeSearch(() => [legalNotice]);
    // No model: any result counts as an answer.
    await webSearch(nodeDeps({ webSearch: search }))(task({ searchQuery: null }));
    expect(search.queries[0]?.query).toBe("Fill in Acme's VAT number");
  });

  it('asks the user for the missing information when the judge says only they know it', async () => {
    const search = fakeSearch(() => [legalNotice]);
    const llm = createScriptedLlm([judged({ solved: false, answer: null, shouldAskUser: true })], {
      zeroLatency: true,
    });
    const update = await webSearch(nodeDeps({ llm, webSearch: search }))(task());
    expect(update).toEqual({
      webSearchSummary: expect.stringContaining('https://crm.example/legal') as string,
      tokens: judgedTokens(1),
      outcome: {
        kind: 'ask_user',
        message: 'I could not find what I need on the web: VAT number of Acme. Can you tell me?',
        missingInformation: ['VAT number of Acme'],
      },
      // Context analysis re-reads the conversation with the answer.
      question: {
        askedBy: 'context_analysis',
        message: 'I could not find what I need on the web: VAT number of Acme. Can you tell me?',
      },
      questionsAsked: 1,
    });
  });

  it('asks the user about the goal when nothing at all is found', async () => {
    const search = fakeSearch(() => []);
    const update = await webSearch(nodeDeps({ webSearch: search }))(
      task({ missingInformation: [] }),
    );
    expect(search.queries.length).toBeGreaterThan(0);
    expect(update).toEqual({
      webSearchSummary: '',
      tokens: NO_TOKENS,
      outcome: {
        kind: 'ask_user',
        message:
          "I could not find what I need on the web: Fill in Acme's VAT number. Can you tell me?",
        missingInformation: [],
      },
      question: {
        askedBy: 'context_analysis',
        message:
          "I could not find what I need on the web: Fill in Acme's VAT number. Can you tell me?",
      },
      questionsAsked: 1,
    });
  });

  it('a failing search provider is not a reason to ask the user: the task goes on', async () => {
    const search = fakeSearch(() => new WebSearchError('HTTP 401', { kind: 'http', status: 401 }));
    const update = await webSearch(nodeDeps({ webSearch: search }))(task());
    expect(search.queries).toHaveLength(1);
    expect(update).toEqual({ webSearchSummary: '', tokens: NO_TOKENS });
  });
});
