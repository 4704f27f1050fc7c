// The interact graph's node names: one vocabulary for the graph's wiring, its LangFuse spans
// (span names and span data), the LLM port (which node made a call) and the usage log. Kept in
// contracts because the agent, observability and the admin trace all name nodes, and a node
// that is renamed or added in one of them must fail the others' typecheck, not a dashboard.
import { z } from 'zod';

export const GRAPH_NODES = [
  'complexity_check',
  'direct_action',
  'context_analysis',
  'web_search',
  'planning',
  'step_refinement',
  'routine_step',
  'action_generation',
  'critic',
  'extraction',
  'outcome_prediction',
  'dispatch',
  'verification',
  'correction',
  'chain_recovery',
  'advance',
  'replanning',
  'finalize',
] as const;
export const GraphNode = z.enum(GRAPH_NODES);
export type GraphNode = z.infer<typeof GraphNode>;

/**
 * Nodes with a LangFuse span of their own. `dispatch` has none: it only takes the resuming
 * request's page into the state, which the request's trace already shows.
 */
export type TracedNode = Exclude<GraphNode, 'dispatch'>;

/** The interact graph's nodes that call a model through the LLM port. */
const INTERACT_LLM_NODES = [
  'context_analysis',
  'web_search',
  'planning',
  'direct_action',
  'action_generation',
  'critic',
  'extraction',
  'outcome_prediction',
  'verification',
  'correction',
  'replanning',
  'finalize',
] as const satisfies readonly GraphNode[];

/**
 * The model nodes of the document agents: tool-calling loops of their own graphs,
 * not interact-graph nodes, with their own model choice, usage rows and generation names.
 */
export const DOCUMENT_AGENT_NODES = ['document_extraction', 'stack_extraction'] as const;

/** The nodes that call a model through the LLM port (a usage event's `node`). */
export const LLM_NODES = [...INTERACT_LLM_NODES, ...DOCUMENT_AGENT_NODES] as const;
export const LlmNode = z.enum(LLM_NODES);
export type LlmNode = z.infer<typeof LlmNode>;
