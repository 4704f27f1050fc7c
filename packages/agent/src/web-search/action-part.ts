// Web search in action generation (docs/specs.md, "dynamic interrupt"): the results found so far
// are in the prompt, and a googleSearch action runs here, on the server: its results go into the
// thought and the client only waits.
import type { AgentDeps } from '../deps';
import {
  pendingUpdate,
  thoughtOf,
  type ActionPart,
  type ActionTurn,
} from '../nodes/action-generation/part';
import { policyOf, searchProblem } from '../nodes/action-policy';
import { llmContext, withUsageOf } from '../nodes/node-context';
import type { InteractStateUpdate } from '../state';
import { manageSearch, REFUSED_QUERY } from './manage-search';

/**
 * A public fact: run the search (the same checks as every way data leaves: a query may not
 * carry the task's data to the search engine), put the results in the thought, and have the
 * client wait.
 */
export async function googleSearch(
  deps: AgentDeps,
  turn: ActionTurn,
  query: string,
): Promise<InteractStateUpdate> {
  const policy = policyOf(turn.state);
  const outcome = await manageSearch({
    webSearch: deps.webSearch,
    llm: deps.llm,
    query,
    url: turn.page.url,
    context: llmContext(turn.state),
    maxAttempts: 1,
    refuse: (q) => searchProblem(q, policy),
  });
  const refused = outcome.attempts.find((a) => a.query === REFUSED_QUERY)?.error;
  const thought = refused
    ? `${thoughtOf(turn)}\nThe web search was not sent: ${refused}.`
    : `${thoughtOf(turn)}\nSearch results for "${query}":\n${outcome.summary || '(no results)'}`;
  return {
    ...pendingUpdate(turn, { name: 'wait', args: { seconds: 1 } }, null, thought),
    tokens: withUsageOf({ tokens: turn.tokens }, outcome.calls),
    webSearchSummary: outcome.summary,
  };
}

export const webSearchPart: ActionPart = {
  name: 'web-search',
  prepare: () => ({ sections: (now) => ({ web: now.webSearchSummary }) }),
  act: (deps, turn, action) =>
    action.name === 'googleSearch' ? googleSearch(deps, turn, action.args.query) : null,
};
