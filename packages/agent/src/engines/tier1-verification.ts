// Tier-1 verification: deterministic, zero tokens. Compares the state before the action
// (url, domHash, the targets' fingerprints) with the state after it and the client's own
// observations. It answers "did the action do its job?"; whether the whole goal is done is a
// question for tier 2/3 unless the task was a single SIMPLE command.
import {
  MASKED_VALUE,
  parseAction,
  type ExpectedOutcome,
  type ParsedAction,
  type SemanticNodeV3,
} from '@tandem/contracts';
import { domHash, findNode, hasState, type PageState } from '../page/page-state';
import type { PendingAction } from '../state';
import { nameScore } from './target-resolver';

export interface Tier1Verdict {
  success: boolean;
  confidence: number;
  reason: string;
  observations: string[];
  /** False when the evidence cannot decide (an LLM tier should look, if there is one). */
  conclusive: boolean;
  nextGoal?: { available: boolean; reason: string };
  /**
   * The action itself checked out, but a required next goal is missing: the look-ahead caught
   * a failure one step early (confidence is capped at 50% and correction runs).
   */
  lookAheadCaught?: boolean;
  /** A required next goal is not on the page, whatever the action's own verdict. */
  nextGoalMissing?: boolean;
}

/** A look-ahead miss on a required next goal caps the verdict's confidence here. */
export const LOOK_AHEAD_MISS_CONFIDENCE = 0.5;

const sameText = (a: string | undefined, b: string) =>
  (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

function findTarget(tree: readonly SemanticNodeV3[], pending: PendingAction, id: string) {
  const byId = findNode(tree, id);
  if (byId) return byId;
  // The page re-rendered: the same element may be back under another id.
  const fp = pending.targets.find((t) => t.id === id);
  if (!fp) return undefined;
  const matches = tree.filter((n) => n.r === fp.role && (n.n ?? '') === fp.name);
  return matches.length === 1 ? matches[0] : undefined;
}

export function checkNextGoal(
  nextGoal: ExpectedOutcome['nextGoal'] | undefined,
  page: PageState,
): { available: boolean; reason: string } | undefined {
  if (!nextGoal) return undefined;
  const wanted = nextGoal.textContent ?? nextGoal.description;
  const roleFits = (n: SemanticNodeV3) => !nextGoal.role || n.r === nextGoal.role;
  // The tree has no CSS: a selector names an element id of the new tree ("14" or "#14").
  const selected = nextGoal.selector
    ? findNode(page.tree, nextGoal.selector.replace(/^#/, ''))
    : undefined;
  const bySelector = selected !== undefined && !selected.occ && roleFits(selected);
  const inTree = page.tree.some((n) => !n.occ && nameScore(wanted, n.n) >= 0.7 && roleFits(n));
  const inMessages = page.successMessages.some((m) =>
    m.toLowerCase().includes(wanted.toLowerCase()),
  );
  const available = bySelector || inTree || inMessages;
  return {
    available,
    reason: available
      ? `next goal "${wanted}" is available`
      : `next goal "${wanted}" is not on the page`,
  };
}

type Verdict = (
  success: boolean,
  confidence: number,
  reason: string,
  conclusive?: boolean,
) => Tier1Verdict;

export function verifyTier1(pending: PendingAction, page: PageState): Tier1Verdict {
  const { observations, urlChanged, domChanged, nextGoal } = observe(pending, page);
  const missing = Boolean(
    nextGoal && !nextGoal.available && pending.expectedOutcome?.nextGoal?.required,
  );
  const verdict: Verdict = (success, confidence, reason, conclusive = true) => {
    // Look-ahead: a required next goal that is missing turns success into failure.
    if (success && missing && nextGoal) {
      return {
        success: false,
        confidence: Math.min(confidence, LOOK_AHEAD_MISS_CONFIDENCE),
        reason: `${reason}, but ${nextGoal.reason}`,
        observations,
        conclusive,
        nextGoal,
        lookAheadCaught: true,
        nextGoalMissing: true,
      };
    }
    return {
      success,
      confidence,
      reason,
      observations,
      conclusive,
      ...(nextGoal ? { nextGoal } : {}),
      ...(missing ? { nextGoalMissing: true } : {}),
    };
  };

  if (page.lastActionStatus === 'failure') {
    return verdict(
      false,
      0.95,
      `the extension reported the action failed${page.lastActionError ? `: ${page.lastActionError}` : ''}`,
    );
  }
  if (page.hasErrors && page.errors.length > 0) {
    return verdict(false, 0.85, `the page shows errors: ${page.errors.join('; ')}`);
  }
  const parsed = pending.chain
    ? pending.chain.actions.map((a) => parseAction(a.action))
    : [pending.action];
  const last = parsed[parsed.length - 1];
  if (!last) return verdict(false, 0.5, 'no action to verify', false);
  if (parsed.every((a) => isFieldEdit(a, pending))) {
    return fieldEditVerdict(parsed, pending, page, urlChanged, verdict);
  }
  return lastActionVerdict(last, pending, page, { urlChanged, domChanged }, verdict);
}

/** What changed between the state before the action and the page now, as observations. */
function observe(pending: PendingAction, page: PageState) {
  const observations: string[] = [];
  const urlChanged =
    page.url !== pending.beforeState.url || page.observations.didUrlChange === true;
  const domChanged =
    domHash(page.tree) !== pending.beforeState.domHash || page.observations.didDomMutate === true;
  observations.push(urlChanged ? `URL changed to ${page.url}` : 'URL unchanged');
  observations.push(domChanged ? 'page content changed' : 'no change in the interactive elements');
  if (page.observations.didNetworkOccur) observations.push('network activity after the action');
  if (page.errors.length) observations.push(`errors shown: ${page.errors.join('; ')}`);
  if (page.successMessages.length)
    observations.push(`success messages: ${page.successMessages.join('; ')}`);
  const nextGoal = checkNextGoal(pending.expectedOutcome?.nextGoal, page);
  if (nextGoal) observations.push(nextGoal.reason);
  return { observations, urlChanged, domChanged, nextGoal };
}

/** Field edits can be checked exactly: the value (or a radio's checked state) is in the tree. */
function isFieldEdit(a: ParsedAction, pending: PendingAction): boolean {
  return (
    a.name === 'setValue' ||
    a.name === 'select' ||
    (a.name === 'click' &&
      ['radio', 'chk', 'sw'].includes(pending.targets.find((t) => t.id === a.args.id)?.role ?? ''))
  );
}

function fieldEditVerdict(
  parsed: readonly ParsedAction[],
  pending: PendingAction,
  page: PageState,
  urlChanged: boolean,
  verdict: Verdict,
): Tier1Verdict {
  for (const a of parsed) {
    if (a.name !== 'setValue' && a.name !== 'select' && a.name !== 'click') continue;
    const node = findTarget(page.tree, pending, a.args.id);
    if (!node) {
      return verdict(
        false,
        0.6,
        `field ${a.args.id} is ${urlChanged ? 'gone after the page changed' : 'no longer on the page'}`,
        false,
      );
    }
    if (a.name === 'click') {
      // A radio must now be checked; a checkbox/switch toggles (its old state is not kept).
      if (node.r === 'radio' && !hasState(node, 'checked'))
        return verdict(false, 0.9, `"${node.n ?? a.args.id}" is not selected`);
      continue;
    }
    const expected = a.name === 'setValue' ? a.args.text : a.args.option;
    const value = node.v ?? '';
    // A password field shows a mask, never what was typed: filled is all it can tell.
    const masked = value === MASKED_VALUE && expected !== '';
    const ok =
      a.name === 'setValue'
        ? value === expected || masked || (node.r === 'edit' && value.includes(expected))
        : sameText(value, expected) || value.toLowerCase().includes(expected.toLowerCase());
    if (!ok)
      return verdict(
        false,
        0.9,
        `"${node.n ?? a.args.id}" holds "${value}", expected "${expected}"`,
      );
    if (hasState(node, 'invalid'))
      return verdict(false, 0.8, `"${node.n ?? a.args.id}" is marked invalid`);
  }
  return verdict(
    true,
    0.95,
    parsed.length > 1
      ? `all ${parsed.length} fields hold their values`
      : 'the field holds the new value',
  );
}

/** Anything but a field edit: judged by the last action's kind and what changed. */
function lastActionVerdict(
  last: ParsedAction,
  pending: PendingAction,
  page: PageState,
  changed: { urlChanged: boolean; domChanged: boolean },
  verdict: Verdict,
): Tier1Verdict {
  const { urlChanged, domChanged } = changed;
  switch (last.name) {
    case 'navigate':
    case 'goBack':
      return urlChanged
        ? verdict(true, 0.9, 'navigation happened')
        : verdict(false, 0.8, 'the URL did not change after navigation');
    case 'click':
      return clickVerdict(last.args.id, pending, page, changed, verdict);
    // A click on a point (hybrid mode) has no element to re-find: judged by what changed.
    case 'clickAt':
      return urlChanged || domChanged
        ? verdict(true, 0.75, 'the page responded to the click at the point')
        : verdict(false, 0.7, 'nothing changed after the click at the point');
    case 'press':
      return urlChanged || domChanged
        ? verdict(true, 0.75, `the page responded to ${last.args.key}`)
        : verdict(false, 0.55, `nothing changed after pressing ${last.args.key}`, false);
    case 'scroll':
    case 'hover':
    case 'wait':
      return verdict(true, 0.7, `${last.name} done`, !domChanged || last.name !== 'hover');
    default:
      return verdict(false, 0.5, `cannot verify ${last.name} deterministically`, false);
  }
}

function clickVerdict(
  id: string,
  pending: PendingAction,
  page: PageState,
  { urlChanged, domChanged }: { urlChanged: boolean; domChanged: boolean },
  verdict: Verdict,
): Tier1Verdict {
  const node = findTarget(page.tree, pending, id);
  const target = pending.targets.find((t) => t.id === id);
  if (pending.expectedOutcome?.urlShouldChange === true) {
    return urlChanged
      ? verdict(true, 0.9, 'the click navigated as expected')
      : domChanged
        ? verdict(true, 0.6, 'the page changed but the URL did not', false)
        : verdict(false, 0.8, 'the click was expected to navigate but nothing changed');
  }
  if (target && (target.role === 'chk' || target.role === 'radio' || target.role === 'sw')) {
    if (node && domChanged) return verdict(true, 0.9, `"${target.name}" toggled`);
  }
  if (node && hasState(node, 'expanded'))
    return verdict(true, 0.9, `"${node.n ?? node.i}" is now expanded`);
  if (urlChanged || domChanged) return verdict(true, 0.8, 'the page responded to the click');
  return verdict(false, 0.7, 'nothing changed after the click');
}

/** Text the page did not show before the action: only new text is evidence of what it did. */
const isNew = (pending: PendingAction, text: string) => {
  const wanted = text.trim().toLowerCase();
  return wanted !== '' && !pending.beforeState.semanticSkeleton.toLowerCase().includes(wanted);
};

/** The page shows the text now (a message, its title, an element's name or value). */
const shows = (page: PageState, text: string) => {
  const wanted = text.trim().toLowerCase();
  const has = (s: string | undefined) => (s ?? '').toLowerCase().includes(wanted);
  return (
    page.successMessages.some(has) ||
    has(page.title) ||
    page.tree.some((n) => !n.occ && (has(n.n) || has(n.v)))
  );
};

/**
 * The goal settled without a model: the step's own prediction said it completes the goal, the
 * action checked out, and the evidence it named is on the page (a success message, the text it
 * said would appear, the navigation it expected, or every field of a fill holding its value).
 * Returns the reason, or null when a model must judge the goal (tier 2).
 */
export function goalConfirmation(
  pending: PendingAction,
  page: PageState,
  t1: Tier1Verdict,
): string | null {
  const expected = pending.expectedOutcome;
  if (!expected?.completesGoal || !t1.success || !t1.conclusive || t1.nextGoalMissing) return null;
  if (page.hasErrors && page.errors.length > 0) return null;
  // A message or text that was on the page before the action confirms nothing about it.
  const success = page.successMessages.find((m) => isNew(pending, m));
  if (success) return `the page confirms the goal: “${success}”`;
  const text = expected.textShouldAppear;
  if (text && isNew(pending, text) && shows(page, text))
    return `the page shows “${expected.textShouldAppear}”, as the step expected`;
  const moved = page.url !== pending.beforeState.url || page.observations.didUrlChange === true;
  if (expected.urlShouldChange === true && moved)
    return `the page moved to ${page.url}, as the step expected`;
  const parsed = pending.chain
    ? pending.chain.actions.map((a) => parseAction(a.action))
    : [pending.action];
  if (parsed.every((a) => isFieldEdit(a, pending)))
    return 'every field the goal names holds its value';
  return null;
}
