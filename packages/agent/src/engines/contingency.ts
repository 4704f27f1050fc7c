// Conditional planning (docs/specs.md, "conditional and hierarchical planning"): the planner
// attaches "if X, do Y" branches to a plan step — a cookie banner in the way, a session-expired
// dialog, an optional confirmation. When the step's action fails, these are checked before the
// correction model is called: a contingency applies when every phrase its condition quotes is on
// the page and its action resolves to one element of the page, exactly as a plan step does in step
// refinement. No model call, no guess: a condition the page does not show is not acted on.
import type { ParsedAction, PlanStep } from '@tandem/contracts';
import type { PageState } from '../page/page-state';
import { parseCommand } from './command-parser';
import { nameScore, resolveIntent } from './target-resolver';

export type Contingency = NonNullable<PlanStep['contingencies']>[number];

export interface ContingencyMatch {
  contingency: Contingency;
  action: ParsedAction;
  /** Why it applies, for the correction record and the thought. */
  why: string;
}

/** Phrases in quotes of any kind: "…", '…', “…”, ‘…’. */
const QUOTED = /["“'‘]([^"”'’]{2,80})["”'’]/g;

export function quotedPhrases(text: string): string[] {
  return [...text.matchAll(QUOTED)].map((m) => (m[1] ?? '').trim()).filter(Boolean);
}

/** Whether a phrase is shown: an element's name or value, a message, or the title. */
function pageShows(page: PageState, phrase: string): boolean {
  const wanted = phrase.toLowerCase();
  const inText = [page.title, ...page.successMessages, ...page.errors].some((t) =>
    t.toLowerCase().includes(wanted),
  );
  return (
    inText ||
    page.tree.some(
      (n) => nameScore(phrase, n.n) >= 0.7 || (n.v ?? '').toLowerCase().includes(wanted),
    )
  );
}

/** The contingency's action on this page, when it names one element the page has. */
function resolveAction(contingency: Contingency, page: PageState): ParsedAction | null {
  const intent = parseCommand(contingency.action);
  if (!intent) return null;
  const resolution = resolveIntent(intent, page.tree);
  if (resolution.kind !== 'resolved') return null;
  return ['finish', 'fail'].includes(resolution.action.name) ? null : resolution.action;
}

/**
 * The first contingency of the step that applies on this page, skipping those already used on
 * this step (a contingency that did not help is not tried again).
 */
export function matchContingency(
  step: Pick<PlanStep, 'contingencies'> | undefined,
  page: PageState,
  alreadyUsed: readonly string[] = [],
): ContingencyMatch | null {
  for (const contingency of step?.contingencies ?? []) {
    if (alreadyUsed.includes(contingency.action)) continue;
    const phrases = quotedPhrases(contingency.condition);
    if (!phrases.every((p) => pageShows(page, p))) continue;
    const action = resolveAction(contingency, page);
    if (!action) continue;
    return { contingency, action, why: `contingency "${contingency.condition}"` };
  }
  return null;
}
