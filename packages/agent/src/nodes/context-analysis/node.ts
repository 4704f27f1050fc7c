// COMPLEX path, step 1 (spec 003 Step 1.5): decide MEMORY / PAGE / WEB_SEARCH / ASK_USER
// (plus requiredSources for multi-source synthesis). ASK_USER stops here: no task is created.
import type { AgentDeps } from '../../deps';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { renderHistory } from '../history';
import { llmContext, logFor, withUsage } from '../node-context';
import { askUser } from '../outcomes';
import { ContextAnalysisOutput, contextAnalysisPrompt, contextAnalysisSystem } from './prompt';

export const contextAnalysis =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const page = state.page;
    if (!page) throw new Error('context_analysis needs the page state');
    const result = await deps.llm.generate({
      node: 'context_analysis',
      actionType: 'CONTEXT_ANALYSIS',
      system: contextAnalysisSystem,
      prompt: contextAnalysisPrompt({
        query: state.query,
        page,
        history: renderHistory(state),
        rag: state.ragContext.text,
      }),
      schema: ContextAnalysisOutput,
      schemaName: 'context_analysis',
      context: llmContext(state),
    });
    const out = result.output;
    const required = [...new Set([out.source, ...out.requiredSources])];
    logFor(deps, state, 'context_analysis').info('analysed', {
      source: out.source,
      requiredSources: required.join(','),
      hasOrgKnowledge: state.ragContext.hasOrgKnowledge,
      ragChunks: state.ragContext.chunkIds.length,
    });
    return {
      requiredSources: required,
      missingInformation: out.missingInformation,
      searchQuery: out.searchQuery,
      tokens: withUsage(state, result),
      ...(required.includes('ASK_USER')
        ? askUser({
            message:
              out.missingInformation.length > 0
                ? `I need the following information to continue: ${out.missingInformation.join(', ')}.`
                : `I need more information to do this: ${out.reasoning}`,
            missingInformation: out.missingInformation,
            thought: out.reasoning,
            usage: {
              inputTokens: result.usage.inputTokens,
              outputTokens: result.usage.outputTokens,
              totalTokens: result.usage.totalTokens,
            },
          })
        : {}),
    };
  };
