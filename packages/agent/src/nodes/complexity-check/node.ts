import type { AgentDeps } from '../../deps';
import { classifyComplexity } from '../../engines/complexity';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { LlmNotConfiguredError } from '@tandem/llm';
import { logFor } from '../node-context';
import { refusal } from '../outcomes';

/** What a task can do without a model (only here: extraction routes cannot do without one). */
const NO_MODEL_HINT =
  'Without one, a goal that names one element on the page ("click Save", "click Search") still works.';

/** Entry node of a new task: SIMPLE commands skip reasoning and planning (no LLM). */
export const complexityCheck =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const result = classifyComplexity(state.query);
    logFor(deps, state, 'complexity_check').info('classified', {
      complexity: result.complexity,
      confidence: result.confidence,
      reason: result.reason,
      elements: state.page?.tree.length ?? 0,
    });
    if (result.complexity === 'COMPLEX' && !deps.llm.configured) {
      // COMPLEX goals need a model; say how to configure one instead of failing obscurely.
      return {
        complexity: result.complexity,
        complexityReason: result.reason,
        ...refusal(
          'LLM_NOT_CONFIGURED',
          `${new LlmNotConfiguredError().message} ${NO_MODEL_HINT}`,
          false,
        ),
      };
    }
    return { complexity: result.complexity, complexityReason: result.reason };
  };
