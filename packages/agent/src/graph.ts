// Wiring only: nodes, edges and the routing functions from routes.ts. The thread id is the
// taskId; the checkpointer persists the state after every node.
import { END, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { AgentDeps } from './deps';
import { actionGeneration } from './nodes/action-generation/node';
import { advance } from './nodes/advance/node';
import { chainRecovery } from './nodes/chain-recovery/node';
import { complexityCheck } from './nodes/complexity-check/node';
import { contextAnalysis } from './nodes/context-analysis/node';
import { correction } from './nodes/correction/node';
import { directAction } from './nodes/direct-action/node';
import { dispatch } from './nodes/dispatch/node';
import { finalize } from './nodes/finalize/node';
import { outcomePrediction } from './nodes/outcome-prediction/node';
import { planning } from './nodes/planning/node';
import { stepRefinement } from './nodes/step-refinement/node';
import { verification } from './nodes/verification/node';
import { webSearch } from './nodes/web-search/node';
import {
  END_RUN,
  routeAfterActionGeneration,
  routeAfterDispatch,
  routeAfterAdvance,
  routeAfterChainRecovery,
  routeAfterComplexity,
  routeAfterContext,
  routeAfterCorrection,
  routeAfterDirectAction,
  routeAfterOutcome,
  routeAfterRefinement,
  routeAfterVerification,
  routeAfterWebSearch,
} from './routes';
import { InteractState } from './state';
import { traced } from './tracing/node-span';

/** Without a checkpointer (LangGraph Studio / the platform server) the host supplies its own. */
export function buildInteractGraph(deps: AgentDeps, checkpointer?: BaseCheckpointSaver) {
  const toEnd = { [END_RUN]: END } as const;
  return new StateGraph(InteractState)
    .addNode('complexity_check', traced(deps.tracing, 'complexity_check', complexityCheck(deps)))
    .addNode('direct_action', traced(deps.tracing, 'direct_action', directAction(deps)))
    .addNode('context_analysis', traced(deps.tracing, 'context_analysis', contextAnalysis(deps)))
    .addNode('web_search', traced(deps.tracing, 'web_search', webSearch(deps)))
    .addNode('planning', traced(deps.tracing, 'planning', planning(deps)))
    .addNode('step_refinement', traced(deps.tracing, 'step_refinement', stepRefinement(deps)))
    .addNode('action_generation', traced(deps.tracing, 'action_generation', actionGeneration(deps)))
    .addNode(
      'outcome_prediction',
      traced(deps.tracing, 'outcome_prediction', outcomePrediction(deps)),
    )
    .addNode('dispatch', dispatch())
    .addNode('verification', traced(deps.tracing, 'verification', verification(deps)))
    .addNode('correction', traced(deps.tracing, 'correction', correction(deps)))
    .addNode('chain_recovery', traced(deps.tracing, 'chain_recovery', chainRecovery(deps)))
    .addNode('advance', traced(deps.tracing, 'advance', advance(deps)))
    .addNode('finalize', traced(deps.tracing, 'finalize', finalize(deps)))
    .addEdge(START, 'complexity_check')
    .addConditionalEdges('complexity_check', routeAfterComplexity, {
      direct_action: 'direct_action',
      context_analysis: 'context_analysis',
      ...toEnd,
    })
    .addConditionalEdges('direct_action', routeAfterDirectAction, {
      outcome_prediction: 'outcome_prediction',
      finalize: 'finalize',
      ...toEnd,
    })
    .addConditionalEdges('context_analysis', routeAfterContext, {
      web_search: 'web_search',
      planning: 'planning',
      ...toEnd,
    })
    .addConditionalEdges('web_search', routeAfterWebSearch, { planning: 'planning', ...toEnd })
    .addEdge('planning', 'step_refinement')
    .addConditionalEdges('step_refinement', routeAfterRefinement, {
      outcome_prediction: 'outcome_prediction',
      action_generation: 'action_generation',
    })
    .addConditionalEdges('action_generation', routeAfterActionGeneration, {
      outcome_prediction: 'outcome_prediction',
      finalize: 'finalize',
      dispatch: 'dispatch',
      ...toEnd,
    })
    .addConditionalEdges('outcome_prediction', routeAfterOutcome, {
      dispatch: 'dispatch',
      ...toEnd,
    })
    .addConditionalEdges('dispatch', routeAfterDispatch, {
      verification: 'verification',
      action_generation: 'action_generation',
    })
    .addConditionalEdges('verification', routeAfterVerification, {
      chain_recovery: 'chain_recovery',
      finalize: 'finalize',
      advance: 'advance',
      correction: 'correction',
    })
    .addConditionalEdges('correction', routeAfterCorrection, {
      outcome_prediction: 'outcome_prediction',
      finalize: 'finalize',
      ...toEnd,
    })
    .addConditionalEdges('chain_recovery', routeAfterChainRecovery, {
      outcome_prediction: 'outcome_prediction',
      advance: 'advance',
      action_generation: 'action_generation',
    })
    .addConditionalEdges('advance', routeAfterAdvance, {
      step_refinement: 'step_refinement',
      action_generation: 'action_generation',
    })
    .addEdge('finalize', END)
    .compile(checkpointer ? { checkpointer } : {});
}

export type InteractGraph = ReturnType<typeof buildInteractGraph>;
