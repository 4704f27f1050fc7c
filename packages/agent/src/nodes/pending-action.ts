// The action in flight: what a node decided, with everything verification will need on the
// next request (the page before it, the targets' fingerprints, the expected outcome).
import {
  actionTargetId,
  describeActions,
  formatAction,
  parseAction,
  safeParseAction,
  type ChainAction,
  type ExpectedOutcome,
  type ParsedAction,
} from '@tandem/contracts';
import { domHash, findNode, semanticSkeleton, type PageState } from '../page/page-state';
import { locatorsOf } from '../routines/locators';
import type { InteractStateType, PendingAction } from '../state';

export function targetsOf(
  actions: readonly ParsedAction[],
  page: PageState,
): PendingAction['targets'] {
  return actions.flatMap((a) => {
    const id = actionTargetId(a);
    const node = id ? findNode(page.tree, id) : undefined;
    return node
      ? [{ id: node.i, role: node.r, name: node.n ?? '', ...locatorsOf(node, page.tree) }]
      : [];
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
    action: input.action,
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
 * The action with its target re-found by role + name when the page re-rendered it under
 * another id; null when the id is still there, or no single visible element matches.
 */
export function remapTarget(
  action: ParsedAction,
  targets: PendingAction['targets'],
  page: PageState,
): ParsedAction | null {
  if (!('id' in action.args)) return null;
  const id = action.args.id;
  const fingerprint = targets.find((t) => t.id === id);
  if (!fingerprint || findNode(page.tree, id)) return null;
  const matches = page.tree.filter(
    (n) => n.r === fingerprint.role && (n.n ?? '') === fingerprint.name && !n.occ,
  );
  const match = matches[0];
  if (matches.length !== 1 || !match) return null;
  return { ...action, args: { ...action.args, id: match.i } } as ParsedAction;
}

/** The action sent, as grammar text: `click("14")`. */
export const actionText = (pending: Pick<PendingAction, 'action'>): string =>
  formatAction(pending.action);

/** Everything sent in one response: the action, or the chain's actions joined by "; ". */
export function sentText(pending: Pick<PendingAction, 'action' | 'chain'>): string {
  return pending.chain
    ? pending.chain.actions.map((a) => a.action).join('; ')
    : formatAction(pending.action);
}

/** Actions that only reveal things: the plan step they serve is still to be done. */
const REVEALING: readonly ParsedAction['name'][] = ['scroll', 'wait', 'hover'];

/**
 * Whether a verified action finishes its plan step. Scrolling, waiting and hovering only
 * reveal things: the step (e.g. "Click 'Save'" below the fold) is still to be done.
 */
export function completesStep(pending: Pick<PendingAction, 'action'>): boolean {
  return !REVEALING.includes(pending.action.name);
}

/**
 * Checkpoints written before the pending action was typed hold it as grammar text; a task
 * paused across the upgrade resumes with it parsed.
 */
export function upgradePending(pending: PendingAction | null): PendingAction | null {
  const action: unknown = pending?.action;
  if (!pending || typeof action !== 'string') return pending;
  const parsed = safeParseAction(action);
  return parsed.ok ? { ...pending, action: parsed.action } : pending;
}

/** The action or chain sent, in plain language, with its targets named as the page names them. */
export function actionSummaryOf(pending: PendingAction): string {
  const names = Object.fromEntries(pending.targets.map((t) => [t.id, t.name]));
  const actions = pending.chain
    ? pending.chain.actions.map((a) => parseAction(a.action))
    : [pending.action];
  return describeActions(actions, names);
}
