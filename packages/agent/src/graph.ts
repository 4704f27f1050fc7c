// Wiring only: nodes, edges and the routing functions from routes.ts. The thread id is the
// taskId; the checkpointer persists the state when a run stops (see interact-service).
import { Command, END, START, StateGraph } from '@langchain/langgraph';
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
import { InteractState, type InteractStateType, type InteractStateUpdate } from './state';
import { traced } from './tracing/node-span';

type Node = (state: InteractStateType) => Promise<InteractStateUpdate>;

/**
 * A node that names its successor (a LangGraph Command) with its routing function from
 * routes.ts, in place of a conditional edge. Same routing, decided on the same state: every
 * channel of InteractState is last-write-wins, so the state the edge would have seen is the
 * node's input with its update laid over it. Why not conditional edges: each one adds two
 * runnables per node run (the branch and its writer), each with its own config merge and
 * context, which was a fifth of a step's CPU (bench/interact); `ends` keeps the edges drawn in
 * LangGraph Studio.
 */
function routed<Route extends string>(
  node: Node,
  route: (state: InteractStateType) => Route,
  targets: Record<Route, string>,
) {
  const run = async (state: InteractStateType) => {
    const update = await node(state);
    const next = route({ ...state, ...update } as InteractStateType);
    return new Command({ update, goto: targets[next] });
  };
  const ends: string[] = [...new Set(Object.values<string>(targets))];
  return [run, { ends }] as [typeof run, { ends: string[] }];
}

/** Without a checkpointer (LangGraph Studio / the platform server) the host supplies its own. */
export function buildInteractGraph(deps: AgentDeps, checkpointer?: BaseCheckpointSaver) {
  const toEnd = { [END_RUN]: END } as const;
  const t = (name: string, node: Node) => traced(deps.tracing, name, node);
  return (
    new StateGraph(InteractState)
      .addNode(
        'complexity_check',
        ...routed(t('complexity_check', complexityCheck(deps)), routeAfterComplexity, {
          direct_action: 'direct_action',
          context_analysis: 'context_analysis',
          ...toEnd,
        }),
      )
      .addNode(
        'direct_action',
        ...routed(t('direct_action', directAction(deps)), routeAfterDirectAction, {
          outcome_prediction: 'outcome_prediction',
          finalize: 'finalize',
          ...toEnd,
        }),
      )
      .addNode(
        'context_analysis',
        ...routed(t('context_analysis', contextAnalysis(deps)), routeAfterContext, {
          web_search: 'web_search',
          planning: 'planning',
          ...toEnd,
        }),
      )
      .addNode(
        'web_search',
        ...routed(t('web_search', webSearch(deps)), routeAfterWebSearch, {
          planning: 'planning',
          ...toEnd,
        }),
      )
      .addNode('planning', t('planning', planning(deps)))
      .addNode(
        'step_refinement',
        ...routed(t('step_refinement', stepRefinement(deps)), routeAfterRefinement, {
          outcome_prediction: 'outcome_prediction',
          action_generation: 'action_generation',
        }),
      )
      .addNode(
        'action_generation',
        ...routed(t('action_generation', actionGeneration(deps)), routeAfterActionGeneration, {
          outcome_prediction: 'outcome_prediction',
          finalize: 'finalize',
          dispatch: 'dispatch',
          ...toEnd,
        }),
      )
      .addNode(
        'outcome_prediction',
        ...routed(t('outcome_prediction', outcomePrediction(deps)), routeAfterOutcome, {
          dispatch: 'dispatch',
          ...toEnd,
        }),
      )
      // Not traced: its interrupt() throws by design and would be recorded as an error.
      .addNode(
        'dispatch',
        ...routed(dispatch(), routeAfterDispatch, {
          verification: 'verification',
          action_generation: 'action_generation',
        }),
      )
      .addNode(
        'verification',
        ...routed(t('verification', verification(deps)), routeAfterVerification, {
          chain_recovery: 'chain_recovery',
          finalize: 'finalize',
          advance: 'advance',
          correction: 'correction',
        }),
      )
      .addNode(
        'correction',
        ...routed(t('correction', correction(deps)), routeAfterCorrection, {
          outcome_prediction: 'outcome_prediction',
          finalize: 'finalize',
          ...toEnd,
        }),
      )
      .addNode(
        'chain_recovery',
        ...routed(t('chain_recovery', chainRecovery(deps)), routeAfterChainRecovery, {
          outcome_prediction: 'outcome_prediction',
          advance: 'advance',
          action_generation: 'action_generation',
        }),
      )
      .addNode(
        'advance',
        ...routed(t('advance', advance(deps)), routeAfterAdvance, {
          step_refinement: 'step_refinement',
          action_generation: 'action_generation',
        }),
      )
      .addNode('finalize', t('finalize', finalize(deps)))
      .addEdge(START, 'complexity_check')
      .addEdge('planning', 'step_refinement')
      .addEdge('finalize', END)
      .compile(checkpointer ? { checkpointer } : {})
  );
}

export type InteractGraph = ReturnType<typeof buildInteractGraph>;
