// The client's answer, built once, from the state a run ended with and its outcome: nodes
// decide (state.ts `RunOutcome`), this turns the decision into the wire format.
import { runInfo } from '../routines/run';
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
  FIELD_ROLES,
  safeParseAction,
  type ParsedAction,
  type SemanticNodeV3,
} from '@tandem/contracts';
import { actionSummaryOf } from '../nodes/pending-action';
import { hasState, type PageState } from '../page/page-state';
import type { InteractStateType, PendingAction, RunOutcome } from '../state';

export interface ResponseExtras {
  /** Timing and counts of this request; absent on answers that create no task. */
  metrics?: InteractMetrics;
  /**
   * What a finished task collected (docs/specs.md, "TaskResult.collected"), read from the store.
   */
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
    // The plan was adapted or regenerated in this request (docs/specs.md, "dynamic re-planning").
    ...(state.rePlanning ? { rePlanning: true } : {}),
    // A saved routine runs the task (or ran it until the model took over): the live view says so.
    ...(state.routineRun ? { routine: runInfo(state.routineRun, state.tokens) } : {}),
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
    ...approvalOf(pending, state.page, lastTargetOf(state)),
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
 * before executing any of it. The page this request sent adds what the ids do not say: the
 * element under a clickAt, the focused field a chain's first Enter submits, and the page title,
 * which tells what a generic "Continue" or an Enter is about.
 */
function approvalOf(
  pending: PendingAction,
  page: Pick<PageState, 'title' | 'tree'> | null,
  /** The element the task's last action was on: where an Enter lands when no focus is known. */
  lastTarget: string | undefined,
): { approval?: ApprovalRequest } {
  const actions = pending.chain
    ? pending.chain.actions.map((a) => parseAction(a.action))
    : [pending.action];
  const title = page?.title.trim() ?? '';
  const tree = page?.tree ?? [];
  const risks = actionsRisks(actions, (action, index) => {
    const id = actionTargetId(action);
    const known = id ? pending.targets.find((t) => t.id === id) : undefined;
    // Later Enters in a chain are judged on the field the chain focused (contracts' rule).
    const node =
      action.name === 'clickAt'
        ? nodeAt(tree, action.args.x, action.args.y)
        : action.name === 'press'
          ? focusedBefore(actions, index, tree, lastTarget)
          : id
            ? tree.find((n) => n.i === id)
            : undefined;
    const target = known ?? (node ? { role: node.r, name: node.n ?? '' } : undefined);
    // What the control sends: the title, and the fields of its form as the tree shows them.
    const context = [title, ...(node ? formFieldsOf(tree, node) : [])].filter(Boolean).join('\n');
    const withContext = context ? { context } : {};
    return target ? { role: target.role, name: target.name, ...withContext } : withContext;
  });
  return risks.length > 0 ? { approval: { risks } } : {};
}

/** The field an Enter at `index` lands in: the chain's last target before it, or the focused. */
function focusedBefore(
  actions: readonly ParsedAction[],
  index: number,
  tree: readonly SemanticNodeV3[],
  lastTarget: string | undefined,
): SemanticNodeV3 | undefined {
  for (let k = index - 1; k >= 0; k--) {
    const previous = actions[k];
    const id = previous ? actionTargetId(previous) : undefined;
    if (id !== undefined) return tree.find((n) => n.i === id);
  }
  return (
    tree.find((n) => hasState(n, 'focused')) ??
    (lastTarget !== undefined ? tree.find((n) => n.i === lastTarget) : undefined)
  );
}

/** The element id of the task's last action that had one (a field it typed into…). */
function lastTargetOf(state: Pick<InteractStateType, 'previousActions'>): string | undefined {
  for (const previous of [...(state.previousActions ?? [])].reverse()) {
    const parsed = safeParseAction(previous.action);
    const id = parsed.ok ? actionTargetId(parsed.action) : undefined;
    if (id !== undefined) return id;
  }
  return undefined;
}

/** Fields read around a control: a form's, not the whole page's. */
const FORM_FIELDS_MAX = 12;

/**
 * The names of the fields around `node` in the tree's order: the run of fields right before a
 * button (the tree lists a form's fields, then its button), or the run a field belongs to. The
 * tree has no form elements, so this is the form as the page's order shows it.
 */
function formFieldsOf(tree: readonly SemanticNodeV3[], node: SemanticNodeV3): string[] {
  const at = tree.indexOf(node);
  if (at < 0) return [];
  const isField = (n: SemanticNodeV3 | undefined) => n !== undefined && FIELD_ROLES.has(n.r);
  let start = at;
  while (start > 0 && isField(tree[start - 1]) && at - start < FORM_FIELDS_MAX) start -= 1;
  let end = at;
  if (isField(node))
    while (end < tree.length - 1 && isField(tree[end + 1]) && end - start < FORM_FIELDS_MAX)
      end += 1;
  return tree
    .slice(start, end + 1)
    .filter((n) => isField(n))
    .flatMap((n) => (n.n ? [n.n] : []));
}

/** The smallest element whose box holds the point: what a clickAt there clicks. */
function nodeAt(tree: readonly SemanticNodeV3[], x: number, y: number): SemanticNodeV3 | undefined {
  let best: SemanticNodeV3 | undefined;
  for (const node of tree) {
    const box = node.box;
    if (!box || node.occ) continue;
    const [left, top, width, height] = box;
    if (x < left || y < top || x > left + width || y > top + height) continue;
    if (!best?.box || width * height < best.box[2] * best.box[3]) best = node;
  }
  return best;
}

/**
 * Asks the client for a snapshot (docs/specs.md, "page snapshots"), or for the page in a richer
 * capture mode (docs/specs.md, "Mode Priority": needs_full_dom, needs_screenshot), instead of an
 * action.
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
