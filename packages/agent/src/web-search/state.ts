// The web-search feature's fields of the interact state (state.ts gathers every feature's).
import { replace } from '../channel';

export const webSearchState = {
  /** Context analysis's query for a public fact (the web_search node runs it). */
  searchQuery: replace<string | null>(() => null),
  /** Web search summary injected into planning and action prompts (fenced as untrusted). */
  webSearchSummary: replace<string | null>(() => null),
};
