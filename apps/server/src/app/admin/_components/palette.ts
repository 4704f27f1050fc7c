// One colour per LLM action type, fixed per type so a type keeps its colour across windows and
// pages (a legend that reshuffles colours misleads). Keyed by every LlmActionType: a new type
// fails this typecheck until it has a colour of its own.
import type { LlmActionType } from '@tandem/contracts';

const COLOURS: Record<LlmActionType, string> = {
  PLANNING: '#4e79a7',
  REFINEMENT: '#f28e2b',
  VERIFICATION: '#e15759',
  CONTEXT_ANALYSIS: '#76b7b2',
  SELF_CORRECTION: '#59a14f',
  OUTCOME_PREDICTION: '#edc948',
  ACTION_GENERATION: '#b07aa1',
  DIRECT_ACTION: '#ff9da7',
  CRITIC: '#9c755f',
  MULTI_SOURCE_SYNTHESIS: '#bab0ac',
  DYNAMIC_INTERRUPT: '#1f77b4',
  SKILLS_RETRIEVAL: '#8c564b',
  CONTINGENCY_CHECK: '#ffbb78',
  HIERARCHICAL_PLANNING: '#2ca02c',
  REPLANNING: '#9467bd',
  EXTRACTION: '#c49c94',
  EXTRACTION_CHECK: '#dbdb8d',
  EMBEDDING: '#17becf',
  FINAL_ANSWER: '#e377c2',
  DOCUMENT_EXTRACTION: '#7f7f7f',
  STACK_EXTRACTION: '#bcbd22',
  ROUTINE_RERUN: '#aec7e8',
  ROUTINE_HEAL: '#ff7f0e',
};

export function colourOf(actionType: string): string {
  return COLOURS[actionType as LlmActionType] ?? '#888888';
}
