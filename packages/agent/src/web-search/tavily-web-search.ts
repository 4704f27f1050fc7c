// Tavily search (https://docs.tavily.com/documentation/api-reference/endpoint/search). Plain
// fetch: one POST, and no SDK that might log the key.
import { WebSearchError, type WebSearch } from './port';
import {
  errorDetailOf,
  fetchFailure,
  httpFailure,
  tavilyRequestBody,
  tavilyResults,
} from './tavily-protocol';

export const TAVILY_BASE_URL = 'https://api.tavily.com';

export interface TavilyWebSearchOptions {
  apiKey: string;
  /** Default https://api.tavily.com (tests point it at a loopback fake). */
  baseUrl?: string;
  /** Default 10 000 ms: a search runs inside an interactive request. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

export function createTavilyWebSearch(options: TavilyWebSearchOptions): WebSearch {
  const endpoint = `${(options.baseUrl ?? TAVILY_BASE_URL).replace(/\/+$/, '')}/search`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const fetchFn = options.fetch ?? globalThis.fetch;

  /** The POST, bounded by our timeout and the caller's signal; throws WebSearchError. */
  async function post(body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await fetchFn(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${options.apiKey}`,
        },
        body: JSON.stringify(body),
        signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      throw fetchFailure(error, {
        callerAborted: signal?.aborted === true,
        timedOut: timeout.aborted,
        timeoutMs,
      });
    }
  }

  return {
    enabled: true,
    async search({ signal, ...query }) {
      const response = await post(tavilyRequestBody(query), signal);
      if (!response.ok) {
        throw httpFailure(response.status, await errorDetail(response, options.apiKey));
      }
      return { results: tavilyResults(await readJson(response)) };
    },
  };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch (error) {
    throw new WebSearchError(
      'Tavily answered with invalid JSON.',
      { kind: 'invalid_response' },
      { cause: error },
    );
  }
}

/** The error body's detail, or '' when the body can't be read. */
async function errorDetail(response: Response, apiKey: string): Promise<string> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return '';
  }
  return errorDetailOf(text, apiKey);
}
