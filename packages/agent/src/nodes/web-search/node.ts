// COMPLEX path, step 2: Tavily web search, only when context analysis asked for WEB_SEARCH.
// Restricted to the current site's domain by default, refined up to 3 times.
import type { AgentDeps } from '../../deps';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { manageSearch } from '../../web-search/manage-search';
import { policyOf, searchProblem } from '../action-policy';
import { llmContext, logFor, withUsageOf } from '../node-context';
import { askUser } from '../outcomes';

export const webSearch =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const log = logFor(deps, state, 'web_search');
    if (!deps.webSearch.enabled) {
      log.warn(
        'web search requested but not configured (TAVILY_API_KEY unset); continuing without it',
      );
      return { webSearchSummary: null };
    }
    const outcome = await manageSearch({
      webSearch: deps.webSearch,
      llm: deps.llm,
      query: state.searchQuery ?? state.query,
      url: state.page?.url ?? '',
      context: llmContext(state),
      refuse: (q) => searchProblem(q, policyOf(state)),
    });
    log.info('searched', {
      attempts: outcome.attempts.length,
      solved: outcome.solved,
      results: outcome.results.length,
    });
    const tokens = withUsageOf(state, outcome.calls);
    if (!outcome.solved && outcome.shouldAskUser) {
      return {
        webSearchSummary: outcome.summary,
        tokens,
        // The answer goes back to context analysis, which re-reads the conversation.
        ...askUser(state, 'context_analysis', {
          message: `I could not find what I need on the web: ${state.missingInformation.join(', ') || state.query}. Can you tell me?`,
          missingInformation: state.missingInformation,
        }),
      };
    }
    return { webSearchSummary: outcome.summary, tokens };
  };
