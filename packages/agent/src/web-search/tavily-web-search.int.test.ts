// The Tavily adapter against a loopback fake of POST /search.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeHttpServer, unusedPort, type FakeHttpServer } from '@tandem/llm/testing';
import { createDisabledWebSearch } from './disabled-web-search';
import { WebSearchError } from './port';
import { createTavilyWebSearch } from './tavily-web-search';

const KEY = 'tvly-test-secret-key';

describe('Tavily web search', () => {
  let server: FakeHttpServer;
  beforeEach(async () => {
    server = await startFakeHttpServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('posts the query with the domain filter and bearer auth, and maps results', async () => {
    server.enqueue({
      body: {
        query: 'x',
        results: [
          {
            title: 'Zip codes',
            url: 'https://example.com/zip',
            content: '12345',
            score: 0.9,
            raw_content: null,
          },
          { title: null, url: 'https://example.com/other', content: null, score: null },
        ],
        response_time: 0.5,
      },
    });
    const search = createTavilyWebSearch({ apiKey: KEY, baseUrl: `${server.url}/` });
    expect(search.enabled).toBe(true);
    const { results } = await search.search({
      query: 'zip code of Springfield',
      domain: 'example.com',
      maxResults: 3,
    });

    expect(results).toEqual([
      { title: 'Zip codes', url: 'https://example.com/zip', content: '12345', score: 0.9 },
      { title: '', url: 'https://example.com/other', content: '', score: 0 },
    ]);
    const sent = server.requests[0];
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/search');
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.body).toEqual({
      query: 'zip code of Springfield',
      search_depth: 'basic',
      max_results: 3,
      include_domains: ['example.com'],
    });
  });

  it('omits include_domains without a domain and truncates long queries', async () => {
    server.enqueue({ body: { results: [] } });
    const search = createTavilyWebSearch({ apiKey: KEY, baseUrl: server.url });
    await search.search({ query: 'q'.repeat(500) });
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('include_domains');
    expect(body.query).toHaveLength(400);
    expect(body.max_results).toBe(5);
  });

  it('reports HTTP errors with status and a hint, never the key', async () => {
    server.enqueue({
      status: 401,
      body: { detail: { error: `Unauthorized: missing or invalid API key ${KEY}` } },
    });
    const search = createTavilyWebSearch({ apiKey: KEY, baseUrl: server.url });
    const error = await search.search({ query: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebSearchError);
    expect((error as WebSearchError).details).toEqual({ kind: 'http', status: 401 });
    expect((error as Error).message).toMatch(/HTTP 401: Unauthorized/);
    expect((error as Error).message).toMatch(/TAVILY_API_KEY/);
    expect((error as Error).message).not.toContain(KEY);
  });

  it('reports malformed answers, timeouts and unreachable servers', async () => {
    server.enqueue(
      { raw: 'oops' },
      { body: { results: [{ title: 'no url' }] } },
      { body: {}, delayMs: 1_000 },
    );
    const search = createTavilyWebSearch({ apiKey: KEY, baseUrl: server.url, timeoutMs: 100 });
    await expect(search.search({ query: 'x' })).rejects.toMatchObject({
      details: { kind: 'invalid_response' },
    });
    await expect(search.search({ query: 'x' })).rejects.toMatchObject({
      details: { kind: 'invalid_response' },
    });
    await expect(search.search({ query: 'x' })).rejects.toMatchObject({
      details: { kind: 'timeout' },
      message: expect.stringMatching(/within 100 ms/),
    });
    const port = await unusedPort();
    const offline = createTavilyWebSearch({ apiKey: KEY, baseUrl: `http://127.0.0.1:${port}` });
    await expect(offline.search({ query: 'x' })).rejects.toMatchObject({
      details: { kind: 'network' },
    });
  });
});

describe('disabled web search', () => {
  it('is disabled and finds nothing', async () => {
    const search = createDisabledWebSearch();
    expect(search.enabled).toBe(false);
    await expect(search.search({ query: 'anything' })).resolves.toEqual({ results: [] });
  });
});
