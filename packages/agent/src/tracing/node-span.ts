// One LangFuse span per graph node (docs/specs.md, "What's Traced"), with the fields the spec lists
// for it. Nodes stay unaware of tracing: graph.ts wraps them here. `dispatch` is not wrapped:
// it only takes the resuming request's page into the state, which the request's trace shows.
import { formatAction, type TracedNode } from '@tandem/contracts';
import type { NodeSpanData, Tracing } from '@tandem/observability';
import type { Node } from '../graph-commands';
import type { InteractStateType } from '../state';

/** What a node returns, read as plain values (our nodes never return Overwrite wrappers). */
type Update = Partial<InteractStateType>;

const actionOf = (s: Update) => (s.pending ? formatAction(s.pending.action) : null);

/** Span input and output per node, as observability's NodeSpanData types them. */
const SPAN_DATA: {
  [N in TracedNode]: {
    input: (s: InteractStateType) => NodeSpanData[N]['input'];
    output: (u: Update) => NodeSpanData[N]['output'];
  };
} = {
  complexity_check: {
    input: (s) => ({ query: s.query, domLength: s.page?.tree.length ?? 0 }),
    output: (u) => ({ complexity: u.complexity ?? null, reason: u.complexityReason }),
  },
  context_analysis: {
    input: (s) => ({
      query: s.query,
      hasOrgKnowledge: s.ragContext.hasOrgKnowledge,
      ragChunkIds: s.ragContext.chunkIds,
    }),
    output: (u) => ({
      analysis: {
        requiredSources: u.requiredSources,
        missingInformation: u.missingInformation,
        searchQuery: u.searchQuery,
      },
    }),
  },
  web_search: {
    input: (s) => ({ searchQuery: s.searchQuery }),
    output: (u) => ({ found: Boolean(u.webSearchSummary) }),
  },
  planning: {
    input: (s) => ({ query: s.query, complexity: s.complexity }),
    output: (u) => ({ stepCount: u.plan?.steps.length ?? 0, goal: u.plan?.goal ?? null }),
  },
  step_refinement: {
    input: (s) => ({ query: s.query, stepIndex: s.currentStepIndex }),
    output: (u) => ({ action: actionOf(u) }),
  },
  routine_step: {
    input: (s) => ({
      routineId: s.routineRun?.routine.id ?? null,
      step: s.routineRun?.next ?? null,
    }),
    output: (u) => ({
      action: actionOf(u),
      healing: u.routineRun?.healing?.step ?? null,
      fellBack: u.routineRun?.fellBack ?? null,
      status: u.status ?? null,
    }),
  },
  direct_action: {
    input: (s) => ({ query: s.query }),
    output: (u) => ({ action: actionOf(u), thought: u.pending?.thought }),
  },
  action_generation: {
    input: (s) => ({ query: s.query, stepIndex: s.currentStepIndex }),
    output: (u) => ({
      action: actionOf(u),
      thought: u.pending?.thought,
      readPage: u.pageRequest ?? null,
      collected: u.collectedCounts ?? null,
    }),
  },
  critic: {
    input: (s) => ({ action: actionOf(s), stepIndex: s.currentStepIndex }),
    output: (u) => ({
      // null: the critic errored and failed open (nothing was reviewed).
      approved: u.kpiCounts?.criticReviews ? !u.kpiCounts.criticRejections : null,
      reason: u.criticFeedback ?? null,
    }),
  },
  replanning: {
    input: (s) => ({
      trigger: s.replanSignal?.reason ?? null,
      similarity: s.replanSignal?.similarity ?? null,
      stepIndex: s.currentStepIndex,
    }),
    output: (u) => ({
      verdict: u.rePlanning ? (u.tokens ? 'regenerate' : 'modify') : 'continue',
      stepCount: u.plan?.steps.length ?? null,
    }),
  },
  extraction: {
    input: (s) => ({
      query: s.pendingExtraction?.query ?? null,
      extractionId: s.pendingExtraction?.extractionId ?? null,
      cssSelector: s.pendingExtraction?.cssSelector ?? null,
    }),
    output: (u) => ({ summary: u.extractionNotes?.at(-1)?.summary ?? null }),
  },
  outcome_prediction: {
    input: (s) => ({ action: actionOf(s) }),
    output: (u) => ({ expectedOutcome: u.pending?.expectedOutcome ?? null }),
  },
  verification: {
    input: (s) => ({ action: actionOf(s), stepIndex: s.pending?.stepIndex ?? s.currentStepIndex }),
    output: (u) => ({
      success: u.lastVerification?.success ?? null,
      confidence: u.lastVerification?.confidence ?? null,
      tier: u.lastVerification?.verificationTier ?? null,
    }),
  },
  correction: {
    input: (s) => ({ attempt: s.retryCount + 1, failedAction: actionOf(s) }),
    output: (u) => ({
      strategy: u.corrections?.at(-1)?.strategy ?? null,
      action: actionOf(u),
      gaveUp: u.status === 'failed',
    }),
  },
  chain_recovery: {
    input: (s) => ({ action: actionOf(s) }),
    output: (u) => ({ action: actionOf(u) }),
  },
  advance: {
    input: (s) => ({ stepIndex: s.currentStepIndex }),
    output: (u) => ({ stepIndex: u.currentStepIndex ?? null, status: u.status ?? null }),
  },
  finalize: {
    input: (s) => ({ status: s.status, action: actionOf(s) }),
    output: (u) => ({ status: u.status ?? null, result: u.result ?? null }),
  },
};

export function traced(tracing: Tracing | undefined, name: TracedNode, node: Node): Node {
  if (!tracing?.enabled) return node;
  const data = SPAN_DATA[name];
  return (state, config) =>
    tracing.span(name, { input: data.input(state) }, async (span) => {
      const update = await node(state, config);
      const values = update as Update;
      const refused = values.outcome?.kind === 'refused' ? values.outcome : null;
      span.update({
        output: data.output(values),
        ...(refused
          ? { level: 'WARNING' as const, statusMessage: `${refused.code}: ${refused.message}` }
          : {}),
      });
      return update;
    });
}
