// What each graph node puts on its span (docs/specs.md, "What's Traced"), as
// types keyed by contracts' TracedNode: the agent's span table is typed by it, so a LangFuse
// filter on these fields keeps working and no node goes untraced. Small summaries only, never
// the page tree or RAG text; LLM usage is not repeated here: it is the child generation's.
import type {
  CollectedCounts,
  Complexity,
  ExpectedOutcome,
  LlmNode,
  SnapshotRequest,
  TaskStatus,
  TracedNode,
} from '@tandem/contracts';

export interface NodeSpanData {
  complexity_check: {
    input: { query: string; domLength: number };
    output: { complexity: Complexity | null; reason: string | undefined };
  };
  context_analysis: {
    input: { query: string; hasOrgKnowledge: boolean; ragChunkIds: string[] };
    output: {
      analysis: {
        requiredSources: string[] | undefined;
        missingInformation: string[] | undefined;
        searchQuery: string | null | undefined;
      };
    };
  };
  web_search: {
    input: { searchQuery: string | null };
    output: { found: boolean };
  };
  planning: {
    input: { query: string; complexity: Complexity | null };
    output: { stepCount: number; goal: string | null };
  };
  step_refinement: {
    input: { query: string; stepIndex: number };
    output: { action: string | null };
  };
  routine_step: {
    input: { routineId: string | null; step: number | null };
    output: {
      action: string | null;
      healing: number | null;
      fellBack: string | null;
      status: TaskStatus | null;
    };
  };
  direct_action: {
    input: { query: string };
    output: { action: string | null; thought: string | undefined };
  };
  action_generation: {
    input: { query: string; stepIndex: number };
    output: {
      action: string | null;
      thought: string | undefined;
      readPage: SnapshotRequest | null;
      collected: CollectedCounts | null;
    };
  };
  critic: {
    input: { action: string | null; stepIndex: number };
    output: { approved: boolean | null; reason: string | null };
  };
  extraction: {
    input: { query: string | null; extractionId: string | null; cssSelector: string | null };
    output: { summary: string | null };
  };
  outcome_prediction: {
    input: { action: string | null };
    output: { expectedOutcome: ExpectedOutcome | null };
  };
  verification: {
    input: { action: string | null; stepIndex: number };
    output: { success: boolean | null; confidence: number | null; tier: 1 | 2 | 3 | null };
  };
  correction: {
    input: { attempt: number; failedAction: string | null };
    output: { strategy: string | null; action: string | null; gaveUp: boolean };
  };
  chain_recovery: {
    input: { action: string | null };
    output: { action: string | null };
  };
  advance: {
    input: { stepIndex: number };
    output: { stepIndex: number | null; status: TaskStatus | null };
  };
  replanning: {
    input: { trigger: string | null; similarity: number | null; stepIndex: number };
    output: { verdict: 'continue' | 'modify' | 'regenerate' | null; stepCount: number | null };
  };
  finalize: {
    input: { status: TaskStatus; action: string | null };
    output: { status: TaskStatus | null; result: string | null };
  };
}

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** A traced node without span data, or span data of no such node, fails this typecheck. */
type _EveryTracedNodeHasSpanData = Assert<Exactly<keyof NodeSpanData, TracedNode>>;

export type NodeSpanName = keyof NodeSpanData;

/**
 * The generation names the spec's trace structure uses (docs/specs.md, "What's Traced"), by the LLM
 * port's node. Keyed by every LlmNode, so a node added to contracts fails this typecheck until its
 * generation is named.
 */
const GENERATION_NAMES: Record<LlmNode, string> = {
  context_analysis: 'analyzeContext',
  web_search: 'webSearch',
  planning: 'generatePlan',
  direct_action: 'callActionLLM',
  action_generation: 'callActionLLM',
  critic: 'critiqueAction',
  extraction: 'extractData',
  outcome_prediction: 'predictOutcome',
  verification: 'verifyAction',
  correction: 'generateCorrection',
  replanning: 'replan',
  finalize: 'writeFinalAnswer',
  document_extraction: 'extractDocument',
  stack_extraction: 'extractStack',
};

export function generationName(node: LlmNode): string {
  return GENERATION_NAMES[node];
}
