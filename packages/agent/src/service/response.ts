// The client's answer, built once, from the state a run ended with and its outcome: nodes
// decide (state.ts `RunOutcome`), this turns the decision into the wire format.
import {
  actionTargetId,
  actionsRisks,
  describePageCapture,
  describePageRead,
  formatAction,
  parseAction,
  type ApprovalRequest,
  type CollectedItemsByType,
  type ExtractionAggregate,
  type InteractMetrics,
  type NeedsUserInputResponse,
  type NextActionResponse,
} from '@tandem/contracts';
import { actionSummaryOf } from '../nodes/pending-action';
import type { InteractStateType, PendingAction, RunOutcome } from '../state';

export interface ResponseExtras {
  /** Timing and counts of this request; absent on answers that create no task. */
  metrics?: InteractMetrics;
  /** What a finished task collected (spec 000 TaskResult.collected), read from the store. */
  collectedItems?: CollectedItemsByType;
  /** What a finished task extracted, merged per extractionId, read from the store. */
  extractedData?: ExtractionAggregate[];
}

export type StepOutcome = Extract<RunOutcome, { kind: 'action' | 'read_page' }>;
export type QuestionOutcome = Extract<RunOutcome, { kind: 'ask_user' }>;

/** The next step for the client: an action (or chain) to execute, or a page to read. */
export function stepResponse(
  state: InteractStateType,
  outcome: StepOutcome,
  extras: ResponseExtras = {},
): NextActionResponse {
  return outcome.kind === 'read_page'
    ? pageReadResponse(state, outcome.thought, extras)
    : actionResponse(state, extras);
}

/** The metrics every step reports, from the state after the run. */
export function stepMetrics(state: InteractStateType, requestDurationMs: number): InteractMetrics {
  return {
    requestDurationMs,
    stepCount: state.stepCount,
    llmCalls: state.tokens.calls,
    tokensSaved: state.tokens.saved,
  };
}

const isEnded = (state: Pick<InteractStateType, 'status'>) =>
  state.status === 'completed' || state.status === 'failed';

/** The task's tokens and cost so far. */
const usageOf = (state: InteractStateType) => ({
  inputTokens: state.tokens.input,
  outputTokens: state.tokens.output,
  totalTokens: state.tokens.input + state.tokens.output,
  costMicroUsd: state.tokens.costMicroUsd ?? 0,
});

/** What every response of a task carries, whatever the client is asked to do next. */
function responseBase(state: InteractStateType, thought: string, stepIndex: number) {
  return {
    thought,
    taskId: state.taskId,
    sessionId: state.sessionId,
    ...(state.plan ? { plan: state.plan } : {}),
    stepIndex,
    ...(state.lastVerification ? { verification: state.lastVerification } : {}),
    usage: usageOf(state),
    hasOrgKnowledge: state.ragContext.hasOrgKnowledge,
    ...(state.complexity ? { complexity: state.complexity } : {}),
    // The plan was adapted or regenerated in this request (spec 003 Batch & Adapt Task 2).
    ...(state.rePlanning ? { rePlanning: true } : {}),
    ...(Object.keys(state.collectedCounts).length > 0
      ? {
          collected: state.collectedCounts,
          duplicatesSkipped: state.duplicatesSkipped,
          ...(state.collectLimit !== null ? { collectLimit: state.collectLimit } : {}),
        }
      : {}),
    ...(state.extractionNotes.length > 0
      ? {
          extractions: state.extractionNotes.map((note) => ({
            extractionId: note.extractionId,
            items: note.items,
            pages: note.pages,
            isPartial: note.isPartial,
            summary: note.summary,
          })),
        }
      : {}),
  };
}

function actionResponse(state: InteractStateType, extras: ResponseExtras): NextActionResponse {
  const pending = state.pending as PendingAction | null;
  if (!pending) throw new Error('an action outcome needs the pending action');
  return {
    ...responseBase(state, pending.thought, pending.stepIndex),
    action: formatAction(pending.action),
    actionDetails: pending.action,
    actionSummary: actionSummaryOf(pending),
    ...(pending.chain
      ? { actions: pending.chain.actions, chainMetadata: pending.chain.metadata }
      : {}),
    ...approvalOf(pending),
    status: state.status === 'active' ? 'executing' : state.status,
    ...(pending.expectedOutcome ? { expectedOutcome: pending.expectedOutcome } : {}),
    // The terminal response carries the final answer (or the failure) as well as the action.
    ...(isEnded(state) && state.result !== null ? { result: state.result } : {}),
    ...(extras.collectedItems ? { collectedItems: extras.collectedItems } : {}),
    ...(extras.extractedData ? { extractedData: extras.extractedData } : {}),
    ...(extras.metrics ? { metrics: extras.metrics } : {}),
  };
}

/**
 * `approval` when the action or chain holds a high-risk action (a payment, a purchase, a
 * deletion, a message), judged from its targets' roles and names: the client asks the user
 * before executing any of it.
 */
function approvalOf(pending: PendingAction): { approval?: ApprovalRequest } {
  const actions = pending.chain
    ? pending.chain.actions.map((a) => parseAction(a.action))
    : [pending.action];
  const risks = actionsRisks(actions, (action) => {
    const id = actionTargetId(action);
    const target = pending.targets.find((t) => t.id === id);
    return target ? { role: target.role, name: target.name } : undefined;
  });
  return risks.length > 0 ? { approval: { risks } } : {};
}

/**
 * Asks the client for a snapshot (spec 002), or for the page in a richer capture mode (spec 003
 * "Mode Priority": needs_full_dom, needs_screenshot), instead of an action.
 */
function pageReadResponse(
  state: InteractStateType,
  thought: string,
  extras: ResponseExtras,
): NextActionResponse {
  const capture = state.captureRequest;
  if (capture) {
    return {
      ...responseBase(state, thought, state.currentStepIndex),
      status: 'executing',
      ...(capture === 'full' ? { needs_full_dom: true } : { needs_screenshot: true }),
      actionSummary: describePageCapture(capture),
      ...(extras.metrics ? { metrics: extras.metrics } : {}),
    };
  }
  if (!state.pageRequest) throw new Error('a page-read outcome needs the page request');
  return {
    ...responseBase(state, thought, state.currentStepIndex),
    status: 'executing',
    needs_snapshot: state.pageRequest,
    actionSummary: state.pendingExtraction
      ? 'Read the page content to extract data'
      : describePageRead(state.pageRequest),
    ...(extras.metrics ? { metrics: extras.metrics } : {}),
  };
}

/** A question for the user: it pauses the task, which the answer continues. */
export function questionResponse(
  state: InteractStateType,
  outcome: QuestionOutcome,
): NeedsUserInputResponse {
  return {
    needsUserInput: true,
    message: outcome.message,
    missingInformation: outcome.missingInformation,
    sessionId: state.sessionId,
    taskId: state.taskId,
    ...(outcome.thought !== undefined ? { thought: outcome.thought } : {}),
    // The task's totals so far, as every step reports them.
    usage: usageOf(state),
  };
}
