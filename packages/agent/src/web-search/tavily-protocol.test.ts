// Tavily's request body and error mapping as pure functions (no I/O).
import { describe, expect, it } from 'vitest';
import { WebSearchError } from './port';
import {
  errorDetailOf,
  fetchFailure,
  httpFailure,
  tavilyRequestBody,
  tavilyResults,
} from './tavily-protocol';

describe('tavilyRequestBody', () => {
  it('restricts to the domain and defaults to five results', () => {
    expect(tavilyRequestBody({ query: 'q', domain: 'example.com' })).toEqual({
      query: 'q',
      search_depth: 'basic',
      max_results: 5,
      include_domains: ['example.com'],
    });
  });

  it("keeps the query and result count within Tavily's limits; an empty domain is the whole web", () => {
    const body = tavilyRequestBody({ query: 'x'.repeat(450), domain: '', maxResults: 50 });
    expect(body).toEqual({ query: 'x'.repeat(400), search_depth: 'basic', max_results: 20 });
    expect(tavilyRequestBody({ query: 'q', maxResults: 0 }).max_results).toBe(1);
  });
});

describe('fetchFailure', () => {
  const cause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });

  it("prefers the caller's abort over our timeout", () => {
    const error = fetchFailure(cause, { callerAborted: true, timedOut: true, timeoutMs: 10 });
    expect(error.details.kind).toBe('aborted');
    expect(error.cause).toBe(cause);
  });

  it('names the timeout', () => {
    expect(
      fetchFailure(cause, { callerAborted: false, timedOut: true, timeoutMs: 10_000 }),
    ).toMatchObject({
      message: 'Tavily did not answer within 10000 ms.',
      details: { kind: 'timeout' },
    });
  });

  it('reports the network reason when undici gives one', () => {
    const state = { callerAborted: false, timedOut: false, timeoutMs: 10 };
    expect(fetchFailure(cause, state)).toMatchObject({
      message: 'Tavily is unreachable (connect ECONNREFUSED).',
      details: { kind: 'network' },
    });
    expect(fetchFailure(new Error('odd'), state).message).toBe('Tavily is unreachable.');
  });
});

describe('httpFailure', () => {
  it('adds a hint for key and quota statuses', () => {
    expect(httpFailure(401, 'Unauthorized').message).toBe(
      'Tavily search failed with HTTP 401: Unauthorized. Check TAVILY_API_KEY.',
    );
    expect(httpFailure(432, '').message).toBe(
      'Tavily search failed with HTTP 432. Tavily rate or plan limit reached.',
    );
    expect(httpFailure(500, 'oops')).toMatchObject({
      message: 'Tavily search failed with HTTP 500: oops.',
      details: { kind: 'http', status: 500 },
    });
  });
});

describe('errorDetailOf', () => {
  it("reads Tavily's detail shapes and keeps raw text otherwise", () => {
    expect(errorDetailOf('{"detail":{"error":"bad key"}}', 'k')).toBe('bad key');
    expect(errorDetailOf('{"detail":"plain"}', 'k')).toBe('plain');
    expect(errorDetailOf('<html>502</html>', 'k')).toBe('<html>502</html>');
  });

  it('never lets a key through and keeps the text short', () => {
    expect(
      errorDetailOf('{"detail":"key secret-key-1 and tvly-abc_123 rejected"}', 'secret-key-1'),
    ).toBe('key [redacted] and [redacted] rejected');
    expect(errorDetailOf('y'.repeat(400), 'key1')).toBe(`${'y'.repeat(300)}…`);
  });
});

describe('tavilyResults', () => {
  it('fills missing fields and treats a missing list as no results', () => {
    expect(tavilyResults({ results: [{ url: 'https://a.example/' }] })).toEqual([
      { title: '', url: 'https://a.example/', content: '', score: 0 },
    ]);
    expect(tavilyResults({})).toEqual([]);
  });

  it('rejects an answer without URLs as an invalid response', () => {
    const error = (() => {
      try {
        tavilyResults({ results: [{ title: 'no url' }] });
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(WebSearchError);
    expect(error).toMatchObject({ details: { kind: 'invalid_response' } });
    expect((error as WebSearchError).message).toMatch(/^Tavily answered in an unexpected shape: /);
  });
});
