// Helpers the nodes share: the LLM call context, token accounting, action validation against
// the current tree, and turning a decided action into the pending action + client response.
import {
  actionTargetId,
  formatAction,
  safeParseAction,
  type ChainAction,
  type ErrorCode,
  type ExpectedOutcome,
  type NextActionResponse,
  type SnapshotRequest,
  type ParsedAction,
} from '@tandem/contracts';
import type { AgentDeps, AgentLogger } from '../deps';
import type { LlmCallContext, LlmResult } from '../llm/port';
import { domHash, findNode, hasState, semanticSkeleton, type PageState } from '../page/page-state';
import type {
  InteractStateType,
  InteractStateUpdate,
  PendingAction,
  PreviousAction,
} from '../state';

export const logFor = (deps: AgentDeps, state: InteractStateType, node: string): AgentLogger =>
  deps.log.child({ taskId: state.taskId, node });

export const llmContext = (state: InteractStateType): LlmCallContext => ({
  tenantId: state.tenantId,
  userId: state.userId,
  sessionId: state.sessionId,
  taskId: state.taskId,
});

/** Adds one call's tokens to the task's running totals. */
export function withUsage(
  state: InteractStateType,
  result: Pick<LlmResult<unknown>, 'usage'>,
): InteractStateType['tokens'] {
  return {
    ...state.tokens,
    input: state.tokens.input + result.usage.inputTokens,
    output: state.tokens.output + result.usage.outputTokens,
    calls: state.tokens.calls + 1,
  };
}

export type ActionCheck =
  { ok: true; action: ParsedAction; actionString: string } | { ok: false; reason: string };

/**
 * The server only returns grammar actions on element ids that exist in the current tree (and
 * are not occluded or disabled): anything else from a model is refused here.
 */
export function validateAction(text: string, page: PageState | null): ActionCheck {
  const parsed = safeParseAction(text);
  if (!parsed.ok) return { ok: false, reason: parsed.error.message };
  const id = actionTargetId(parsed.action);
  if (id !== undefined) {
    const node = page ? findNode(page.tree, id) : undefined;
    if (!node) return { ok: false, reason: `element id "${id}" is not on the current page` };
    if (node.occ)
      return { ok: false, reason: `element "${node.n ?? id}" is covered by another element` };
    if (hasState(node, 'disabled') && parsed.action.name !== 'scroll') {
      return { ok: false, reason: `element "${node.n ?? id}" is disabled` };
    }
  }
  return { ok: true, action: parsed.action, actionString: formatAction(parsed.action) };
}

export function targetsOf(
  actions: readonly ParsedAction[],
  page: PageState,
): PendingAction['targets'] {
  return actions.flatMap((a) => {
    const id = actionTargetId(a);
    const node = id ? findNode(page.tree, id) : undefined;
    return node ? [{ id: node.i, role: node.r, name: node.n ?? '' }] : [];
  });
}

export function makePending(input: {
  state: InteractStateType;
  page: PageState;
  thought: string;
  action: ParsedAction;
  chain?: { actions: ChainAction[] } | null;
  source: PendingAction['source'];
  expectedOutcome?: ExpectedOutcome | null;
}): PendingAction {
  const chainActions = input.chain?.actions ?? null;
  const parsedChain = chainActions
    ? chainActions.map((c) => safeParseAction(c.action)).flatMap((r) => (r.ok ? [r.action] : []))
    : [input.action];
  return {
    stepIndex: input.state.currentStepIndex,
    thought: input.thought,
    action: formatAction(input.action),
    chain: chainActions
      ? {
          actions: chainActions,
          metadata: {
            totalActions: chainActions.length,
            safeToChain: true,
            estimatedDuration: chainActions.length * 600,
          },
        }
      : null,
    expectedOutcome: input.expectedOutcome ?? null,
    beforeState: {
      url: input.page.url,
      domHash: domHash(input.page.tree),
      semanticSkeleton: semanticSkeleton(input.page.tree),
    },
    taskActionId: null,
    source: input.source,
    targets: targetsOf(parsedChain, input.page),
  };
}

/**
 * Whether a verified action finishes its plan step. Scrolling, waiting and hovering only
 * reveal things: the step (e.g. "Click 'Save'" below the fold) is still to be done.
 */
export function completesStep(pending: PendingAction): boolean {
  return !/^(scroll|wait|hover)\(/.test(pending.action);
}

/** Rolling summarization: keep the last 10 actions raw, fold older ones into one line. */
export function appendPrevious(
  state: InteractStateType,
  entry: PreviousAction,
): Pick<InteractStateUpdate, 'previousActions' | 'previousActionsSummary'> {
  const all = [...state.previousActions, entry];
  if (all.length <= 10) return { previousActions: all };
  const dropped = all.length - 10;
  const earlier = /^(\d+) earlier steps? completed/.exec(state.previousActionsSummary);
  const count = (earlier ? Number(earlier[1]) : 0) + dropped;
  return {
    previousActions: all.slice(dropped),
    previousActionsSummary: `${count} earlier step${count === 1 ? '' : 's'} completed.`,
  };
}

/** A run this long of the same verb, all verified, in one plan step is shown as one line. */
const MIN_RUN = 3;

function verbOf(action: string): string {
  return /^([A-Za-z]+)\(/.exec(action)?.[1] ?? action;
}

/**
 * "Last verification: …" for the action prompt, or '' when the history's latest line already
 * says it (a plain success, with its reason).
 */
export function verificationLine(state: InteractStateType): string {
  const v = state.lastVerification;
  if (!v) return '';
  const latest = state.previousActions.at(-1);
  if (
    v.actionSucceeded &&
    !v.taskCompleted &&
    latest?.success === true &&
    latest.reason === v.reason
  )
    return '';
  return `previous action ${v.actionSucceeded ? 'succeeded' : 'failed'}; goal ${v.taskCompleted ? 'achieved' : 'not yet achieved'} (${v.reason})`;
}

function outcomeOf(p: PreviousAction): string {
  return p.success === null
    ? ''
    : p.success
      ? ' (verified)'
      : ` (failed: ${p.reason ?? 'unknown'})`;
}

/**
 * The history the prompts show. Spec 003 keeps the last 10 actions raw in the state; the
 * prompt shows a run of the same verified verb in one plan step (paging through a list,
 * scrolling down a long page) as one line ending with its last action, because ten
 * near-identical lines tell the model nothing the count does not, and on a long extraction
 * they would make every prompt grow with the work done (spec 000 promises it stays
 * constant). The latest action carries the verifier's reason, so a successful verification
 * needs no line of its own (see `verificationLine`).
 */
export function renderHistory(state: InteractStateType): string {
  const actions = state.previousActions;
  const lines: string[] = [];
  for (let start = 0; start < actions.length;) {
    const first = actions[start] as PreviousAction;
    let end = start + 1;
    while (
      end < actions.length &&
      first.success === true &&
      actions[end]?.success === true &&
      actions[end]?.stepIndex === first.stepIndex &&
      verbOf(actions[end]?.action ?? '') === verbOf(first.action)
    )
      end++;
    if (end - start < MIN_RUN) end = start + 1;
    const last = actions[end - 1] as PreviousAction;
    const latest = end === actions.length && last.success === true && last.reason;
    const reason = latest ? `: ${last.reason}` : '';
    lines.push(
      end - start >= MIN_RUN
        ? `- step ${first.stepIndex + 1}: ${verbOf(first.action)} ×${end - start}, all verified; last ${last.action}${reason}`
        : `- step ${first.stepIndex + 1}: ${first.action}${reason ? ` (verified${reason})` : outcomeOf(first)}`,
    );
    start = end;
  }
  return [state.previousActionsSummary, ...lines].filter(Boolean).join('\n') || '(no actions yet)';
}

/** The client response for a pending action. */
/** What every response of a task carries, whatever the client is asked to do next. */
function responseBase(state: InteractStateType, thought: string, stepIndex: number) {
  return {
    thought,
    taskId: state.taskId,
    sessionId: state.sessionId,
    ...(state.plan ? { plan: state.plan } : {}),
    stepIndex,
    ...(state.lastVerification ? { verification: state.lastVerification } : {}),
    usage: {
      inputTokens: state.tokens.input,
      outputTokens: state.tokens.output,
      totalTokens: state.tokens.input + state.tokens.output,
    },
    hasOrgKnowledge: state.ragContext.hasOrgKnowledge,
    ...(state.complexity ? { complexity: state.complexity } : {}),
    ...(Object.keys(state.collectedCounts).length > 0 ? { collected: state.collectedCounts } : {}),
  };
}

export function actionResponse(
  state: InteractStateType,
  pending: PendingAction,
): NextActionResponse {
  const details = safeParseAction(pending.action);
  if (!details.ok) throw new Error(`pending action is not in the grammar: ${pending.action}`);
  return {
    ...responseBase(state, pending.thought, pending.stepIndex),
    action: pending.action,
    actionDetails: details.action,
    ...(pending.chain
      ? { actions: pending.chain.actions, chainMetadata: pending.chain.metadata }
      : {}),
    status: state.status === 'active' ? 'executing' : state.status,
    ...(pending.expectedOutcome ? { expectedOutcome: pending.expectedOutcome } : {}),
  };
}

/** A response that asks the client for a snapshot (spec 002) instead of an action. */
export function pageReadResponse(
  state: InteractStateType,
  thought: string,
  request: SnapshotRequest,
): NextActionResponse {
  return {
    ...responseBase(state, thought, state.currentStepIndex),
    status: 'executing',
    needs_snapshot: request,
  };
}

export function refusal(code: ErrorCode, message: string, failTask: boolean): InteractStateUpdate {
  return {
    output: { response: null, error: { code, message, failTask }, persistTask: false },
  };
}
