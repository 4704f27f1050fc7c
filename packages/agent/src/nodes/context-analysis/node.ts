// COMPLEX path, step 1 (docs/specs.md, "reasoning before planning"): decide MEMORY / PAGE /
// WEB_SEARCH / ASK_USER (plus requiredSources for multi-source synthesis). ASK_USER stops here: no
// task is created.
import type { AgentDeps } from '../../deps';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { renderHistory } from '../history';
import { llmContext, logFor, withUsage } from '../node-context';
import { askUser, MAX_QUESTIONS } from '../outcomes';
import { routineForGoal } from '../../routines/lookup';
import { startRun } from '../../routines/run';
import {
  ContextAndPlanOutput,
  contextAndPlanSystem,
  contextAnalysisPrompt,
  contextAnalysisSystem,
  type ContextAnalysisOutput,
  type Source,
} from './prompt';

export const contextAnalysis =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const page = state.page;
    if (!page) throw new Error('context_analysis needs the page state');
    const routine = await routineForGoal(deps, state, page);
    if (routine && 'routine' in routine) {
      logFor(deps, state, 'context_analysis').info('goal matches a routine', {
        routineId: routine.routine.id,
        version: routine.routine.version,
      });
      return {
        requiredSources: ['PAGE'],
        missingInformation: [],
        draftPlan: null,
        tokens: routine.tokens,
        routineRun: startRun(routine.routine, routine.values, routine.tokens),
      };
    }
    if (routine)
      logFor(deps, state, 'context_analysis').info('routine declined', {
        reason: routine.declined,
      });
    // A task with no plan yet gets its plan in the same call (planning then takes it).
    const plans = state.plan === null;
    const result = await deps.llm.generate({
      node: 'context_analysis',
      actionType: 'CONTEXT_ANALYSIS',
      // Priced under planning too, by the plan's share of the answer.
      ...(plans ? { alsoFor: [{ node: 'planning', actionType: 'PLANNING', field: 'plan' }] } : {}),
      system: plans ? contextAndPlanSystem : contextAnalysisSystem,
      prompt: contextAnalysisPrompt({
        query: state.query,
        page,
        conversation: state.conversation,
        answer: state.answer,
        history: state.previousActions.length > 0 ? renderHistory(state) : '',
        rag: state.ragContext.text,
        ...(plans ? { maxElements: 200 } : {}),
      }),
      schema: ContextAndPlanOutput,
      schemaName: plans ? 'context_and_plan' : 'context_analysis',
      context: llmContext(state),
    });
    const out = result.output;
    const log = logFor(deps, state, 'context_analysis');
    const required = sourcesOf(out, state.questionsAsked);
    if (required.length < new Set([out.source, ...out.requiredSources]).size)
      log.warn('question cap reached; going on with what the task has', {
        asked: state.questionsAsked,
      });
    // A plan made before a search or an answer it needs would plan without them.
    const draftPlan =
      plans && out.plan && !required.some((s) => s === 'WEB_SEARCH' || s === 'ASK_USER')
        ? out.plan
        : null;
    log.info('analysed', {
      source: out.source,
      requiredSources: required.join(','),
      hasOrgKnowledge: state.ragContext.hasOrgKnowledge,
      ragChunks: state.ragContext.chunkIds.length,
      planned: draftPlan !== null,
    });
    return {
      requiredSources: required,
      missingInformation: out.missingInformation,
      searchQuery: out.searchQuery,
      draftPlan,
      tokens: withUsage({ tokens: routine?.tokens ?? state.tokens }, result),
      ...(required.includes('ASK_USER') ? question(state, out) : {}),
    };
  };

/**
 * The sources the task will use. ASK_USER is dropped once the task asked MAX_QUESTIONS
 * times: the agent goes on with what it has (the page, the conversation) rather than ask
 * forever; a value it still lacks fails the task later with a reason.
 */
export function sourcesOf(out: ContextAnalysisOutput, questionsAsked: number): Source[] {
  const all = [...new Set([out.source, ...out.requiredSources])];
  if (questionsAsked < MAX_QUESTIONS || !all.includes('ASK_USER')) return all;
  const rest = all.filter((s) => s !== 'ASK_USER');
  return rest.length > 0 ? rest : ['PAGE'];
}

function question(state: InteractStateType, out: ContextAnalysisOutput) {
  return askUser(state, 'context_analysis', {
    message:
      out.missingInformation.length > 0
        ? `I need the following information to continue: ${out.missingInformation.join(', ')}.`
        : `I need more information to do this: ${out.reasoning}`,
    missingInformation: out.missingInformation,
    thought: out.reasoning,
  });
}
