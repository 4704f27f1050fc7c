// What each graph node puts on its span (spec 003, Foundation Task 2, "What's Traced"), as
// types, so the agent's nodes record the same fields and a LangFuse filter on them keeps
// working. LLM usage is not repeated on the node span: it is the child generation's.
import type { LlmNode } from '@tandem/contracts';

export interface NodeSpanData {
  complexity_check: {
    input: { query: string; domLength: number };
    output: { complexity: 'SIMPLE' | 'COMPLEX'; reason?: string };
  };
  context_analysis: {
    input: { query: string; hasOrgKnowledge: boolean };
    output: { analysis: unknown };
  };
  planning: {
    input: { query: string; complexity: 'SIMPLE' | 'COMPLEX' | null };
    output: { stepCount: number; goal: string };
  };
  step_refinement: {
    input: { query: string; stepIndex: number };
    output: { action: string | null };
  };
  direct_action: {
    input: { query: string };
    output: { action: string | null; thought?: string; resolvedWithoutLlm?: boolean };
  };
  action_generation: {
    input: { query: string; stepIndex: number };
    output: { action: string | null; thought?: string };
  };
  critic: {
    input: { action: string };
    output: { approved: boolean; reason?: string };
  };
  outcome_prediction: {
    input: { action: string };
    output: { expectedOutcome: unknown };
  };
  verification: {
    input: { action: string; stepIndex: number };
    output: { success: boolean; confidence: number; tier?: string };
  };
  correction: {
    input: { strategy?: string; attempt: number };
    output: { strategy: string; success: boolean; action?: string | null };
  };
  replanning: {
    input: { reason: string };
    output: { stepCount: number };
  };
  finalize: {
    input: { reason: string };
    output: { status: string };
  };
}

export type NodeSpanName = keyof NodeSpanData;

/**
 * The generation names spec 003's trace structure uses, by the LLM port's node. Keyed by every
 * LlmNode, so a node added to contracts fails this typecheck until its generation is named.
 */
const GENERATION_NAMES: Record<LlmNode, string> = {
  context_analysis: 'analyzeContext',
  web_search: 'webSearch',
  planning: 'generatePlan',
  direct_action: 'callActionLLM',
  action_generation: 'callActionLLM',
  outcome_prediction: 'predictOutcome',
  verification: 'verifyAction',
  correction: 'generateCorrection',
};

export function generationName(node: LlmNode): string {
  return GENERATION_NAMES[node];
}
