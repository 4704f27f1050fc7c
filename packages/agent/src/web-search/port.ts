// The web search port. Tavily is the one adapter; without a key the disabled adapter keeps the
// graph running (context analysis then has to ask the user instead of searching).

export interface WebSearchQuery {
  query: string;
  /** Restrict results to this domain (and its subdomains). Omitted: the whole web. */
  domain?: string;
  /** Default 5. */
  maxResults?: number;
  signal?: AbortSignal;
}

export interface WebSearchResult {
  title: string;
  url: string;
  /** A snippet of the page relevant to the query. Untrusted text: fence it in prompts. */
  content: string;
  /** Relevance in [0, 1] as the search engine reports it. */
  score: number;
}

export interface WebSearchResponse {
  results: WebSearchResult[];
}

export interface WebSearch {
  /** False when no search provider is configured; `search` then returns no results. */
  readonly enabled: boolean;
  search(query: WebSearchQuery): Promise<WebSearchResponse>;
}

/** The search provider failed (HTTP error, timeout, network, malformed answer). */
export class WebSearchError extends Error {
  override readonly name = 'WebSearchError';
  constructor(
    message: string,
    readonly details: {
      kind: 'http' | 'timeout' | 'network' | 'invalid_response' | 'aborted';
      status?: number;
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const DEFAULT_MAX_RESULTS = 5;
