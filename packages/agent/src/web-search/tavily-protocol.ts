// Tavily's search API as data: the request body we send, and what each way of failing becomes
// as a WebSearchError. Pure, so the adapter in tavily-web-search.ts only does the I/O.
import { z } from 'zod';
import {
  DEFAULT_MAX_RESULTS,
  WebSearchError,
  type WebSearchQuery,
  type WebSearchResult,
} from './port';

// Tavily rejects longer queries with a 400; a truncated query still finds something.
const MAX_QUERY_CHARS = 400;
// Tavily's own ceiling for max_results.
const MAX_RESULTS_CAP = 20;

export function tavilyRequestBody(query: Omit<WebSearchQuery, 'signal'>): Record<string, unknown> {
  return {
    query: query.query.slice(0, MAX_QUERY_CHARS),
    search_depth: 'basic',
    max_results: Math.min(MAX_RESULTS_CAP, Math.max(1, query.maxResults ?? DEFAULT_MAX_RESULTS)),
    ...(query.domain !== undefined && query.domain !== ''
      ? { include_domains: [query.domain] }
      : {}),
  };
}

/**
 * Why fetch threw. The caller's abort wins over our timeout (both abort the same request), and
 * undici hides the network reason (ECONNREFUSED…) in the error's cause.
 */
export function fetchFailure(
  error: unknown,
  state: { callerAborted: boolean; timedOut: boolean; timeoutMs: number },
): WebSearchError {
  if (state.callerAborted) {
    return new WebSearchError('Web search aborted.', { kind: 'aborted' }, { cause: error });
  }
  if (state.timedOut) {
    return new WebSearchError(
      `Tavily did not answer within ${state.timeoutMs} ms.`,
      { kind: 'timeout' },
      { cause: error },
    );
  }
  const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
  return new WebSearchError(
    `Tavily is unreachable${reason !== '' ? ` (${reason})` : ''}.`,
    { kind: 'network' },
    { cause: error },
  );
}

/** A non-2xx answer, with a hint for the statuses an operator can act on. */
export function httpFailure(status: number, detail: string): WebSearchError {
  const hint =
    status === 401 || status === 403
      ? ' Check TAVILY_API_KEY.'
      : status === 429 || status === 432
        ? ' Tavily rate or plan limit reached.'
        : '';
  return new WebSearchError(
    `Tavily search failed with HTTP ${status}${detail !== '' ? `: ${detail}` : ''}.${hint}`,
    { kind: 'http', status },
  );
}

/** Tavily errors look like {"detail":{"error":"…"}}; keep the text short and key-free. */
export function errorDetailOf(body: string, apiKey: string): string {
  let detail = body;
  try {
    const parsed = JSON.parse(body) as { detail?: { error?: unknown } | string };
    if (typeof parsed.detail === 'string') detail = parsed.detail;
    else if (typeof parsed.detail?.error === 'string') detail = parsed.detail.error;
  } catch {
    // Not JSON: keep the raw text.
  }
  // A key is never echoed by Tavily, but be sure: strip anything that looks like one.
  if (apiKey.length >= 4) detail = detail.split(apiKey).join('[redacted]');
  detail = detail.replace(/tvly-[A-Za-z0-9_-]+/g, '[redacted]');
  return detail.length > 300 ? `${detail.slice(0, 300)}…` : detail;
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

/** The results of a 2xx answer's JSON; missing fields become empty, not errors. */
export function tavilyResults(json: unknown): WebSearchResult[] {
  const parsed = TavilyResponse.safeParse(json);
  if (!parsed.success) {
    throw new WebSearchError(
      `Tavily answered in an unexpected shape: ${z.prettifyError(parsed.error)}`,
      { kind: 'invalid_response' },
    );
  }
  return parsed.data.results.map((result) => ({
    title: result.title ?? '',
    url: result.url,
    content: result.content ?? '',
    score: result.score ?? 0,
  }));
}
