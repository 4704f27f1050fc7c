// What verification records of each verdict for the routine a completed task may become
//: the actions as sent, their targets' locators (taken when they were sent), whether
// the verdict confirmed them, and the tier-1 facts of the page after them. Plain JSON: it lives
// in the checkpointed state until the task ends.
import {
  MASKED_VALUE,
  parseAction,
  ROUTINE_LIMITS,
  type ParsedAction,
  type RoutineExpectation,
  type RoutineTarget,
  type VerificationResult,
} from '@tandem/contracts';
import { domHash, findNode, type PageState } from '../page/page-state';
import type { InteractStateType, InteractStateUpdate, PendingAction } from '../state';

export interface RoutineTraceAction {
  action: ParsedAction;
  /** Null for actions on no element, and when the target's locators were not kept. */
  target: (RoutineTarget & { role: string; name: string }) | null;
}

export interface RoutineTraceEntry {
  /** The plan step the verdict was on. */
  stepIndex: number;
  source: PendingAction['source'];
  /** It only cleared the way for its step (a cookie banner dismissed). */
  contingency: boolean;
  beforeUrl: string;
  actions: RoutineTraceAction[];
  /** The chain stopped before its last action: some ran, none was verified. */
  partial: boolean;
  verified: boolean;
  expect: RoutineExpectation;
  /**
   * An extraction read this page (no actions): the strategy a rerun replays here, null when the
   * extraction kept none (it cannot be replayed).
   */
  read?: { extractionId: string | null };
  /**
   * The model collected items of `type` off this page (no actions): a routine's `collect` step,
   * which reads them again with selectors learned from them. `limit`: the task's item count,
   * the goal's number a rerun takes as a parameter.
   */
  collect?: { type: string; limit: number | null };
}

const cap = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

function actionsOf(pending: PendingAction): RoutineTraceAction[] {
  const parsed = pending.chain
    ? pending.chain.actions.map((a) => parseAction(a.action))
    : [pending.action];
  return parsed.map((action) => {
    const id = 'id' in action.args ? action.args.id : undefined;
    const target = id === undefined ? undefined : pending.targets.find((t) => t.id === id);
    return {
      action,
      target:
        target?.fingerprint !== undefined && target.locators && target.locators.length > 0
          ? {
              role: target.role,
              name: target.name,
              fingerprint: target.fingerprint,
              locators: target.locators,
            }
          : null,
    };
  });
}

/** Every field the actions typed into or chose from shows its value on the page after them. */
function fieldsHold(actions: readonly RoutineTraceAction[], page: PageState): boolean {
  const edits = actions.filter((a) => a.action.name === 'setValue' || a.action.name === 'select');
  if (edits.length === 0) return false;
  return edits.every(({ action, target }) => {
    if (action.name !== 'setValue' && action.name !== 'select') return false;
    const node =
      findNode(page.tree, action.args.id) ??
      page.tree.find((n) => target && n.r === target.role && (n.n ?? '') === target.name);
    const value = node?.v ?? '';
    if (action.name === 'select')
      return value.toLowerCase().includes(action.args.option.toLowerCase());
    return value === action.args.text || (value === MASKED_VALUE && action.args.text !== '');
  });
}

/** Text the page shows now that the page before did not: what the step made appear. */
function newText(pending: PendingAction, page: PageState): string[] {
  const before = pending.beforeState.semanticSkeleton.toLowerCase();
  const isNew = (text: string) => text.trim() !== '' && !before.includes(text.trim().toLowerCase());
  const shown = page.successMessages.filter(isNew);
  const wanted = pending.expectedOutcome?.textShouldAppear;
  const has = (s: string | undefined) =>
    (s ?? '').toLowerCase().includes(wanted?.toLowerCase() ?? '');
  if (
    wanted &&
    isNew(wanted) &&
    (page.successMessages.some(has) || page.tree.some((n) => has(n.n) || has(n.v)))
  )
    shown.push(wanted);
  return [...new Set(shown)]
    .slice(0, ROUTINE_LIMITS.texts)
    .map((t) => cap(t, ROUTINE_LIMITS.textLength));
}

/** The trace entry of a verdict on `pending`, judged on `page`. */
export function traceEntry(
  pending: PendingAction,
  page: PageState,
  result: Pick<VerificationResult, 'success' | 'reason' | 'verificationTier'>,
  partial: boolean,
): RoutineTraceEntry {
  const actions = actionsOf(pending);
  const urlChanged =
    page.url !== pending.beforeState.url || page.observations.didUrlChange === true;
  return {
    stepIndex: pending.stepIndex,
    source: pending.source,
    contingency: pending.contingency !== undefined,
    beforeUrl: pending.beforeState.url,
    actions,
    partial,
    verified: result.success && !partial,
    expect: {
      tier: result.verificationTier ?? 1,
      urlChanged,
      url: cap(page.url, 8_192),
      domChanged:
        domHash(page.tree) !== pending.beforeState.domHash ||
        page.observations.didDomMutate === true,
      network: page.observations.didNetworkOccur === true,
      fieldsHold: fieldsHold(actions, page),
      text: newText(pending, page),
      reason: cap(result.reason, 2_000),
    },
  };
}

/** The state update that appends a verdict to the trace (nothing once it is past the cap). */
export function traceVerdict(
  state: Pick<InteractStateType, 'routineTrace'>,
  pending: PendingAction,
  page: PageState,
  result: Pick<VerificationResult, 'success' | 'reason' | 'verificationTier'>,
  partial = false,
): Pick<InteractStateUpdate, 'routineTrace'> {
  // One past the longest routine is enough to know the task is too long for one.
  if (state.routineTrace.length > ROUTINE_LIMITS.steps) return {};
  return { routineTrace: [...state.routineTrace, traceEntry(pending, page, result, partial)] };
}

/** A read of the page at `url` (no actions), judged by what it stored. */
function readEntry(
  state: Pick<InteractStateType, 'currentStepIndex'>,
  url: string,
  verified: boolean,
  summary: string,
): RoutineTraceEntry {
  return {
    stepIndex: state.currentStepIndex,
    source: 'action_generation',
    contingency: false,
    beforeUrl: cap(url, 8_192),
    actions: [],
    partial: false,
    verified,
    expect: {
      tier: 1,
      urlChanged: false,
      url: cap(url, 8_192),
      domChanged: false,
      network: false,
      fieldsHold: false,
      text: [],
      reason: cap(summary, 2_000),
    },
  };
}

/**
 * The state update that appends an extraction on `url` to the trace: a routine's `extract` step
 * when it read items with a strategy it can replay.
 */
export function traceRead(
  state: Pick<InteractStateType, 'routineTrace' | 'currentStepIndex'>,
  url: string,
  read: { extractionId: string | null; items: number | null; summary: string },
): Pick<InteractStateUpdate, 'routineTrace'> {
  if (state.routineTrace.length > ROUTINE_LIMITS.steps) return {};
  const verified = read.extractionId !== null && (read.items ?? 0) > 0;
  const entry: RoutineTraceEntry = {
    ...readEntry(state, url, verified, read.summary),
    read: { extractionId: read.extractionId },
  };
  return { routineTrace: [...state.routineTrace, entry] };
}

/**
 * The state update that appends the items the model collected on `url` to the trace: a
 * routine's `collect` step when some were stored.
 */
export function traceCollect(
  state: Pick<InteractStateType, 'routineTrace' | 'currentStepIndex' | 'collectLimit'>,
  url: string,
  collected: { type: string; stored: number },
): Pick<InteractStateUpdate, 'routineTrace'> {
  if (state.routineTrace.length > ROUTINE_LIMITS.steps) return {};
  const { type, stored } = collected;
  const summary = `Collected ${stored} ${type} ${stored === 1 ? 'item' : 'items'}.`;
  const entry: RoutineTraceEntry = {
    ...readEntry(state, url, stored > 0, summary),
    collect: { type: cap(collected.type, 200), limit: state.collectLimit },
  };
  return { routineTrace: [...state.routineTrace, entry] };
}
