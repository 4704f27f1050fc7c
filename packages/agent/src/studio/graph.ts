// The interact graph as LangGraph Studio opens it (see langgraph.json at the repository root).
// Studio provides the checkpointer and the thread; the state's `page` is what a request sends.
import { silentLogger } from '@tandem/observability';
import { DEFAULT_LIMITS } from '../deps';
import { buildInteractGraph } from '../graph';
import { createLlmClientFromConfig } from '@tandem/llm';
import { createDisabledWebSearch } from '../web-search/disabled-web-search';
import { createTavilyWebSearch } from '../web-search/tavily-web-search';
import { studioLlmConfig, studioTavilyKey } from './env';

const tavilyKey = studioTavilyKey();

export const graph = buildInteractGraph({
  llm: createLlmClientFromConfig(studioLlmConfig()),
  webSearch: tavilyKey ? createTavilyWebSearch({ apiKey: tavilyKey }) : createDisabledWebSearch(),
  log: silentLogger,
  limits: DEFAULT_LIMITS,
});
