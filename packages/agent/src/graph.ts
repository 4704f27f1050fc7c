// Wiring only: nodes, edges and the routing functions from routes.ts (the Command plumbing is
// graph-commands.ts). The thread id is the taskId; the checkpointer persists the state when a
// run stops (see service/graph-runner.ts).
import { END, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { TracedNode } from '@tandem/contracts';
import type { AgentDeps } from './deps';
import { routed, routedThrough, to, type Node } from './graph-commands';
import { actionGeneration } from './nodes/action-generation/node';
import { advance } from './nodes/advance/node';
import { chainRecovery } from './nodes/chain-recovery/node';
import { complexityCheck } from './nodes/complexity-check/node';
import { contextAnalysis } from './nodes/context-analysis/node';
import { critic } from './nodes/critic/node';
import { correction } from './nodes/correction/node';
import { directAction } from './nodes/direct-action/node';
import { extraction } from './nodes/extraction/node';
import { dispatch } from './nodes/dispatch/node';
import { finalize } from './nodes/finalize/node';
import { outcomePrediction } from './nodes/outcome-prediction/node';
import { planning } from './nodes/planning/node';
import { replanning } from './nodes/replanning/node';
import { routineStep } from './routines/step-node';
import { stepRefinement } from './nodes/step-refinement/node';
import { verification } from './nodes/verification/node';
import { webSearch } from './nodes/web-search/node';
import {
  END_RUN,
  routeAfterActionGeneration,
  routeAfterAdvance,
  routeAfterChainRecovery,
  routeAfterComplexity,
  routeAfterContext,
  routeAfterCritic,
  routeAfterCorrection,
  routeAfterDirectAction,
  routeAfterDispatch,
  routeAfterOutcome,
  routeAfterRefinement,
  routeAfterReplanning,
  routeAfterRoutineStep,
  routeAfterExtraction,
  routeAfterVerification,
  routeAfterWebSearch,
} from './routes';
import { InteractState } from './state';
import { traced } from './tracing/node-span';

/** Every traced node, built from the deps and wrapped in its span. */
function tracedNodes(deps: AgentDeps): Record<TracedNode, Node> {
  const nodes: Record<TracedNode, (deps: AgentDeps) => Node> = {
    complexity_check: complexityCheck,
    direct_action: directAction,
    context_analysis: contextAnalysis,
    web_search: webSearch,
    planning,
    step_refinement: stepRefinement,
    routine_step: routineStep,
    action_generation: actionGeneration,
    critic,
    extraction,
    outcome_prediction: outcomePrediction,
    verification,
    correction,
    chain_recovery: chainRecovery,
    advance,
    replanning,
    finalize,
  };
  const entries = Object.entries(nodes) as [TracedNode, (deps: AgentDeps) => Node][];
  return Object.fromEntries(
    entries.map(([name, build]) => [name, traced(deps.tracing, name, build(deps))]),
  ) as Record<TracedNode, Node>;
}

/** Without a checkpointer (LangGraph Studio / the platform server) the host supplies its own. */
// eslint-disable-next-line max-lines-per-function -- the wiring table: one entry per node, read whole
export function buildInteractGraph(deps: AgentDeps, checkpointer?: BaseCheckpointSaver) {
  const n = tracedNodes(deps);
  // Fused into the nodes that route to them (see routedThrough).
  const advanceStep = { name: 'advance' as const, node: n.advance, route: routeAfterAdvance };
  const simpleOutcome = {
    name: 'outcome_prediction' as const,
    node: n.outcome_prediction,
    route: routeAfterOutcome,
  };
  return (
    new StateGraph(InteractState)
      .addNode(
        'complexity_check',
        ...routed(
          n.complexity_check,
          routeAfterComplexity,
          to('direct_action', 'context_analysis', 'action_generation', END_RUN),
        ),
      )
      .addNode(
        'direct_action',
        ...routedThrough(
          n.direct_action,
          routeAfterDirectAction,
          simpleOutcome,
          to('dispatch', 'finalize', END_RUN),
        ),
      )
      .addNode(
        'context_analysis',
        ...routed(
          n.context_analysis,
          routeAfterContext,
          to('web_search', 'planning', 'dispatch', 'routine_step', END_RUN),
        ),
      )
      .addNode(
        'routine_step',
        ...routed(
          n.routine_step,
          routeAfterRoutineStep,
          to('outcome_prediction', 'action_generation', 'finalize', 'dispatch', END_RUN),
        ),
      )
      .addNode(
        'web_search',
        ...routed(n.web_search, routeAfterWebSearch, to('planning', 'dispatch', END_RUN)),
      )
      .addNode('planning', n.planning)
      .addNode(
        'step_refinement',
        ...routed(
          n.step_refinement,
          routeAfterRefinement,
          to('outcome_prediction', 'action_generation'),
        ),
      )
      .addNode(
        'action_generation',
        ...routed(
          n.action_generation,
          routeAfterActionGeneration,
          to('critic', 'outcome_prediction', 'finalize', 'dispatch', END_RUN),
        ),
      )
      .addNode(
        'critic',
        ...routed(
          n.critic,
          routeAfterCritic,
          to('action_generation', 'outcome_prediction', 'finalize'),
        ),
      )
      .addNode(
        'outcome_prediction',
        ...routed(n.outcome_prediction, routeAfterOutcome, to('dispatch', END_RUN)),
      )
      // Not traced: it only takes the resuming request's page into the state.
      .addNode(
        'dispatch',
        ...routed(
          dispatch(),
          routeAfterDispatch,
          to(
            'verification',
            'action_generation',
            'extraction',
            'context_analysis',
            'direct_action',
            'finalize',
            'routine_step',
            END_RUN,
          ),
        ),
      )
      // The model reasons again on the same step, with the extraction's summary (or a routine's
      // read goes on to its next step).
      .addNode(
        'extraction',
        ...routed(n.extraction, routeAfterExtraction, to('action_generation', 'routine_step')),
      )
      .addNode(
        'verification',
        ...routedThrough(
          n.verification,
          routeAfterVerification,
          advanceStep,
          to(
            'chain_recovery',
            'finalize',
            'correction',
            'replanning',
            'step_refinement',
            'action_generation',
            'routine_step',
          ),
        ),
      )
      .addNode(
        'correction',
        ...routed(
          n.correction,
          routeAfterCorrection,
          to('critic', 'outcome_prediction', 'finalize', END_RUN),
        ),
      )
      .addNode(
        'chain_recovery',
        ...routedThrough(
          n.chain_recovery,
          routeAfterChainRecovery,
          advanceStep,
          to(
            'outcome_prediction',
            'replanning',
            'step_refinement',
            'action_generation',
            'routine_step',
          ),
        ),
      )
      .addNode(
        'replanning',
        ...routed(n.replanning, routeAfterReplanning, to('step_refinement', 'action_generation')),
      )
      .addNode('finalize', n.finalize)
      .addEdge(START, 'complexity_check')
      .addEdge('planning', 'step_refinement')
      .addEdge('finalize', END)
      // A run pauses before dispatch; the next request resumes it there (nodes/dispatch).
      .compile({ interruptBefore: ['dispatch'], ...(checkpointer ? { checkpointer } : {}) })
  );
}

export type InteractGraph = ReturnType<typeof buildInteractGraph>;
