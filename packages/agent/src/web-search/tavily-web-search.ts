// Tavily search (https://docs.tavily.com/documentation/api-reference/endpoint/search). Plain
// fetch: one POST, and no SDK that might log the key.
import { z } from 'zod';
import { DEFAULT_MAX_RESULTS, WebSearchError, type WebSearch, type WebSearchResult } from './port';

export const TAVILY_BASE_URL = 'https://api.tavily.com';
// Tavily rejects longer queries with a 400; a truncated query still finds something.
const MAX_QUERY_CHARS = 400;
// Tavily's own ceiling for max_results.
const MAX_RESULTS_CAP = 20;

export interface TavilyWebSearchOptions {
  apiKey: string;
  /** Default https://api.tavily.com (tests point it at a loopback fake). */
  baseUrl?: string;
  /** Default 10 000 ms: a search runs inside an interactive request. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

const TavilyResponse = z.object({
  results: z
    .array(
      z.object({
        title: z.string().nullish(),
        url: z.string(),
        content: z.string().nullish(),
        score: z.number().nullish(),
      }),
    )
    .default([]),
});

export function createTavilyWebSearch(options: TavilyWebSearchOptions): WebSearch {
  const endpoint = `${(options.baseUrl ?? TAVILY_BASE_URL).replace(/\/+$/, '')}/search`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const fetchFn = options.fetch ?? globalThis.fetch;

  return {
    enabled: true,
    async search({ query, domain, maxResults, signal }) {
      const body = {
        query: query.slice(0, MAX_QUERY_CHARS),
        search_depth: 'basic',
        max_results: Math.min(MAX_RESULTS_CAP, Math.max(1, maxResults ?? DEFAULT_MAX_RESULTS)),
        ...(domain !== undefined && domain !== '' ? { include_domains: [domain] } : {}),
      };
      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);

      let response: Response;
      try {
        response = await fetchFn(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${options.apiKey}`,
          },
          body: JSON.stringify(body),
          signal: combined,
        });
      } catch (error) {
        if (signal?.aborted === true) {
          throw new WebSearchError('Web search aborted.', { kind: 'aborted' }, { cause: error });
        }
        if (timeout.aborted) {
          throw new WebSearchError(
            `Tavily did not answer within ${timeoutMs} ms.`,
            { kind: 'timeout' },
            { cause: error },
          );
        }
        const reason =
          error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
        throw new WebSearchError(
          `Tavily is unreachable${reason !== '' ? ` (${reason})` : ''}.`,
          { kind: 'network' },
          { cause: error },
        );
      }

      if (!response.ok) {
        const detail = await errorDetail(response, options.apiKey);
        const hint =
          response.status === 401 || response.status === 403
            ? ' Check TAVILY_API_KEY.'
            : response.status === 429 || response.status === 432
              ? ' Tavily rate or plan limit reached.'
              : '';
        throw new WebSearchError(
          `Tavily search failed with HTTP ${response.status}${detail !== '' ? `: ${detail}` : ''}.${hint}`,
          { kind: 'http', status: response.status },
        );
      }

      let json: unknown;
      try {
        json = await response.json();
      } catch (error) {
        throw new WebSearchError(
          'Tavily answered with invalid JSON.',
          { kind: 'invalid_response' },
          { cause: error },
        );
      }
      const parsed = TavilyResponse.safeParse(json);
      if (!parsed.success) {
        throw new WebSearchError(
          `Tavily answered in an unexpected shape: ${z.prettifyError(parsed.error)}`,
          { kind: 'invalid_response' },
        );
      }
      const results: WebSearchResult[] = parsed.data.results.map((result) => ({
        title: result.title ?? '',
        url: result.url,
        content: result.content ?? '',
        score: result.score ?? 0,
      }));
      return { results };
    },
  };
}

/** Tavily errors look like {"detail":{"error":"…"}}; keep the text short and key-free. */
async function errorDetail(response: Response, apiKey: string): Promise<string> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return '';
  }
  let detail = text;
  try {
    const body = JSON.parse(text) as { detail?: { error?: unknown } | string };
    if (typeof body.detail === 'string') detail = body.detail;
    else if (typeof body.detail?.error === 'string') detail = body.detail.error;
  } catch {
    // Not JSON: keep the raw text.
  }
  // A key is never echoed by Tavily, but be sure: strip anything that looks like one.
  if (apiKey.length >= 4) detail = detail.split(apiKey).join('[redacted]');
  detail = detail.replace(/tvly-[A-Za-z0-9_-]+/g, '[redacted]');
  return detail.length > 300 ? `${detail.slice(0, 300)}…` : detail;
}
