// manageSearch over the real Tavily adapter and a loopback fake, with and without an LLM judge.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type FakeResponse } from '@tandem/llm/testing';
import { ProviderError } from '@tandem/llm';
import { ScriptedLlm } from '@tandem/llm/testing';
import { createUnconfiguredLlmClient } from '@tandem/llm';
import { domainOf, manageSearch, simplifyQuery } from './manage-search';
import { createTavilyWebSearch } from './tavily-web-search';

const context = { tenantId: 't1', taskId: 'task-1' };
const found = (n: number, prefix = 'r'): FakeResponse => ({
  body: {
    results: Array.from({ length: n }, (_, i) => ({
      title: `${prefix} ${i}`,
      url: `https://app.example.com/${prefix}/${i}`,
      content: `content ${prefix} ${i}`,
      score: 0.5 + i / 10,
    })),
  },
});
const none: FakeResponse = { body: { results: [] } };
type SentBody = { query: string; include_domains?: string[] };

describe('manageSearch', () => {
  let server: FakeHttpServer;
  const sent = (): SentBody[] => server.requests.map((r) => r.body as SentBody);
  beforeEach(async () => {
    server = await startFakeHttpServer();
  });
  afterEach(async () => {
    await server.close();
  });
  const webSearch = () => createTavilyWebSearch({ apiKey: 'tvly-k', baseUrl: server.url });

  it('restricts to the page domain and stops at the first results without an LLM', async () => {
    server.enqueue(found(2));
    const outcome = await manageSearch({
      webSearch: webSearch(),
      llm: createUnconfiguredLlmClient(),
      query: 'opening hours of the clinic',
      url: 'https://www.app.example.com/patients/new?x=1',
      context,
    });
    expect(sent()).toEqual([
      {
        query: 'opening hours of the clinic',
        search_depth: 'basic',
        max_results: 5,
        include_domains: ['app.example.com'],
      },
    ]);
    expect(outcome.solved).toBe(true);
    expect(outcome.shouldAskUser).toBe(false);
    expect(outcome.attempts).toEqual([
      { query: 'opening hours of the clinic', domain: 'app.example.com', resultCount: 2 },
    ]);
    // Best score first.
    expect(outcome.results.map((r) => r.title)).toEqual(['r 1', 'r 0']);
    expect(outcome.summary).toContain('(site app.example.com)');
    expect(outcome.summary).toContain('[1] r 1 — https://app.example.com/r/1');
  });

  it('simplifies the query, then widens the last attempt to the whole web, at most 3 attempts', async () => {
    server.enqueue(none, none, found(1));
    const outcome = await manageSearch({
      webSearch: webSearch(),
      query: 'What is the zip code of Springfield?',
      url: 'https://app.example.com/form',
      context,
    });
    expect(sent().map((b) => [b.query, b.include_domains])).toEqual([
      ['What is the zip code of Springfield?', ['app.example.com']],
      ['zip code springfield', ['app.example.com']],
      ['zip code', undefined],
    ]);
    expect(outcome.solved).toBe(true);
    expect(outcome.attempts.map((a) => a.domain)).toEqual([
      'app.example.com',
      'app.example.com',
      null,
    ]);
  });

  it('asks the user when three attempts find nothing', async () => {
    server.setHandler(() => none);
    const outcome = await manageSearch({
      webSearch: webSearch(),
      query: 'my insurance number',
      url: 'https://app.example.com/',
      context,
    });
    expect(server.requests).toHaveLength(3);
    expect(outcome).toMatchObject({ solved: false, shouldAskUser: true, summary: '', results: [] });
  });

  it('uses the LLM judge to refine the query and extract the answer', async () => {
    server.enqueue(found(2, 'off'), found(1, 'zip'));
    const llm = new ScriptedLlm(
      [
        {
          node: 'web_search',
          output: {
            solved: false,
            answer: null,
            shouldAskUser: false,
            refinedQuery: 'springfield postal code',
            reason: 'off topic',
          },
        },
        {
          node: 'web_search',
          output: {
            solved: true,
            answer: 'Springfield zip is 62701',
            shouldAskUser: false,
            refinedQuery: null,
            reason: 'found',
          },
        },
      ],
      { zeroLatency: true },
    );
    const outcome = await manageSearch({
      webSearch: webSearch(),
      llm,
      query: 'zip code of Springfield',
      url: 'https://app.example.com/',
      context,
      goal: 'fill in the address form',
    });
    llm.assertDone();
    expect(sent().map((b) => b.query)).toEqual([
      'zip code of Springfield',
      'springfield postal code',
    ]);
    expect(outcome.solved).toBe(true);
    expect(outcome.answer).toBe('Springfield zip is 62701');
    expect(outcome.results.map((r) => r.title)).toEqual(['zip 0']);
    expect(outcome.summary).toContain('Answer: Springfield zip is 62701');

    const first = llm.calls[0];
    expect(first).toMatchObject({ node: 'web_search', actionType: 'CONTEXT_ANALYSIS', context });
    expect(first?.prompt).toContain('<search_results>');
    expect(first?.prompt).toContain('User goal: fill in the address form');
    expect(first?.prompt).toContain('Search restricted to: app.example.com');
    expect(llm.usageEvents).toHaveLength(2);
  });

  it('stops when the LLM says only the user can answer', async () => {
    server.enqueue(found(1));
    const llm = new ScriptedLlm([
      {
        node: 'web_search',
        output: {
          solved: false,
          answer: null,
          shouldAskUser: true,
          refinedQuery: null,
          reason: 'private data',
        },
      },
    ]);
    const outcome = await manageSearch({
      webSearch: webSearch(),
      llm,
      query: 'my date of birth',
      url: 'https://app.example.com/',
      context,
    });
    expect(server.requests).toHaveLength(1);
    expect(outcome).toMatchObject({ solved: false, shouldAskUser: true, reason: 'private data' });
  });

  it('falls back to the heuristic when the LLM judge fails', async () => {
    server.enqueue(found(1));
    const failing = new ProviderError('HTTP 400', { kind: 'http', status: 400 });
    const llm = new ScriptedLlm([{ node: 'web_search', error: failing }]);
    const outcome = await manageSearch({
      webSearch: webSearch(),
      llm,
      query: 'clinic address',
      url: 'https://app.example.com/',
      context,
    });
    expect(outcome.solved).toBe(true);
  });

  it('reports a failing search without throwing or asking the user', async () => {
    server.enqueue({ status: 401, body: { detail: { error: 'Unauthorized' } } });
    const outcome = await manageSearch({
      webSearch: webSearch(),
      query: 'x y',
      url: 'https://app.example.com/',
      context,
    });
    expect(server.requests).toHaveLength(1);
    expect(outcome).toMatchObject({ solved: false, shouldAskUser: false, summary: '' });
    expect(outcome.attempts[0]?.error).toMatch(/HTTP 401/);
  });

  it('searches the whole web for local pages and when domain is null; honours maxAttempts', async () => {
    server.setHandler(() => none);
    await manageSearch({
      webSearch: webSearch(),
      query: 'a b c',
      url: 'http://localhost:3000/emr',
      context,
      maxAttempts: 1,
    });
    await manageSearch({
      webSearch: webSearch(),
      query: 'a b c',
      url: 'https://app.example.com/',
      context,
      domain: null,
      maxAttempts: 1,
    });
    expect(sent().map((b) => b.include_domains)).toEqual([undefined, undefined]);
  });
});

describe('helpers', () => {
  it('domainOf strips www and refuses local hosts', () => {
    expect(domainOf('https://www.example.com/a')).toBe('example.com');
    expect(domainOf('https://App.Example.com:8443/a')).toBe('app.example.com');
    expect(domainOf('http://127.0.0.1:3000/')).toBeNull();
    expect(domainOf('http://intranet/')).toBeNull();
    expect(domainOf('chrome://extensions')).toBeNull();
    expect(domainOf('not a url')).toBeNull();
  });

  it('simplifyQuery drops question words, then the last keyword', () => {
    expect(simplifyQuery('What is the price of the Pro plan?')).toBe('price pro plan');
    expect(simplifyQuery('price pro plan')).toBe('price pro');
    expect(simplifyQuery('pricing')).toBe('pricing');
  });
});
