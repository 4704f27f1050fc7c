// Wiring only: nodes, edges and the routing functions from routes.ts. The thread id is the
// taskId; the checkpointer persists the state when a run stops (see interact-service).
import {
  Command,
  END,
  START,
  StateGraph,
  type LangGraphRunnableConfig,
} from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { AgentDeps } from './deps';
import { actionGeneration } from './nodes/action-generation/node';
import { advance } from './nodes/advance/node';
import { chainRecovery } from './nodes/chain-recovery/node';
import { complexityCheck } from './nodes/complexity-check/node';
import { contextAnalysis } from './nodes/context-analysis/node';
import { correction } from './nodes/correction/node';
import { directAction } from './nodes/direct-action/node';
import { dispatch, type InteractRunContext } from './nodes/dispatch/node';
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

type Node = (
  state: InteractStateType,
  config?: LangGraphRunnableConfig<InteractRunContext>,
) => Promise<InteractStateUpdate>;

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
  return routedStep(async (state, config) => {
    const update = await node(state, config);
    return { update, next: route({ ...state, ...update } as InteractStateType) };
  }, targets);
}

/**
 * Like `routed`, but when the route names `then.name`, that node runs too, in the same
 * superstep, and routing continues with its own routing function. For successors whose work
 * on that edge is too small for a superstep of its own: moving the plan on after a verified
 * step, and the outcome of a SIMPLE command (always a fixed template, never the model). A
 * LangGraph superstep costs about a millisecond of framework bookkeeping on these machines
 * (bench/interact prints this "framework floor"), more than those nodes' own work. The fused
 * node keeps its own span and log lines; it loses only its own box in LangGraph Studio.
 */
function routedThrough<Route extends string, Then extends Route, ThenRoute extends string>(
  node: Node,
  route: (state: InteractStateType) => Route,
  then: { name: Then; node: Node; route: (state: InteractStateType) => ThenRoute },
  targets: Record<Exclude<Route, Then> | ThenRoute, string>,
) {
  return routedStep(async (state, config) => {
    const update = await node(state, config);
    const merged = { ...state, ...update } as InteractStateType;
    const next = route(merged);
    if (next !== then.name) return { update, next: next as Exclude<Route, Then> };
    const thenUpdate = await then.node(merged, config);
    return {
      update: { ...update, ...thenUpdate },
      next: then.route({ ...merged, ...thenUpdate } as InteractStateType),
    };
  }, targets);
}

function routedStep<Route extends string>(
  step: (
    state: InteractStateType,
    config?: LangGraphRunnableConfig<InteractRunContext>,
  ) => Promise<{ update: InteractStateUpdate; next: Route }>,
  targets: Record<Route, string>,
) {
  const run = async (
    state: InteractStateType,
    config?: LangGraphRunnableConfig<InteractRunContext>,
  ) => {
    const { update, next } = await step(state, config);
    return new Command({ update, goto: targets[next] });
  };
  const ends: string[] = [...new Set(Object.values<string>(targets))];
  return [run, { ends }] as [typeof run, { ends: string[] }];
}

/** Without a checkpointer (LangGraph Studio / the platform server) the host supplies its own. */
export function buildInteractGraph(deps: AgentDeps, checkpointer?: BaseCheckpointSaver) {
  const toEnd = { [END_RUN]: END } as const;
  const t = (name: string, node: Node) => traced(deps.tracing, name, node);
  // Fused into the nodes that route to them (see routedThrough).
  const advanceStep = {
    name: 'advance' as const,
    node: t('advance', advance(deps)),
    route: routeAfterAdvance,
  };
  const simpleOutcome = {
    name: 'outcome_prediction' as const,
    node: t('outcome_prediction', outcomePrediction(deps)),
    route: routeAfterOutcome,
  };
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
        ...routedThrough(
          t('direct_action', directAction(deps)),
          routeAfterDirectAction,
          simpleOutcome,
          {
            dispatch: 'dispatch',
            finalize: 'finalize',
            ...toEnd,
          },
        ),
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
      // Not traced: it only takes the resuming request's page into the state.
      .addNode(
        'dispatch',
        ...routed(dispatch(), routeAfterDispatch, {
          verification: 'verification',
          action_generation: 'action_generation',
        }),
      )
      .addNode(
        'verification',
        ...routedThrough(
          t('verification', verification(deps)),
          routeAfterVerification,
          advanceStep,
          {
            chain_recovery: 'chain_recovery',
            finalize: 'finalize',
            correction: 'correction',
            step_refinement: 'step_refinement',
            action_generation: 'action_generation',
          },
        ),
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
        ...routedThrough(
          t('chain_recovery', chainRecovery(deps)),
          routeAfterChainRecovery,
          advanceStep,
          {
            outcome_prediction: 'outcome_prediction',
            step_refinement: 'step_refinement',
            action_generation: 'action_generation',
          },
        ),
      )
      .addNode('finalize', t('finalize', finalize(deps)))
      .addEdge(START, 'complexity_check')
      .addEdge('planning', 'step_refinement')
      .addEdge('finalize', END)
      // A run pauses before dispatch; the next request resumes it there (nodes/dispatch).
      .compile({ interruptBefore: ['dispatch'], ...(checkpointer ? { checkpointer } : {}) })
  );
}

export type InteractGraph = ReturnType<typeof buildInteractGraph>;
