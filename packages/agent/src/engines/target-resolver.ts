// Deterministic resolution of a named target against the semantic tree: zero tokens, and it
// works with no LLM configured. It refuses to guess: two equally good candidates are
// "ambiguous", and occluded or disabled elements are never chosen.
import { formatAction, type ParsedAction, type SemanticNodeV3 } from '@tandem/contracts';
import { hasState } from '../page/page-state';
import type { CommandIntent } from './command-parser';

export type Resolution =
  | {
      kind: 'resolved';
      action: ParsedAction;
      actionString: string;
      node: SemanticNodeV3 | null;
      thought: string;
    }
  | { kind: 'ambiguous'; candidates: SemanticNodeV3[]; reason: string }
  | { kind: 'not_found'; reason: string };

const CLICKABLE = new Set([
  'btn',
  'link',
  'chk',
  'radio',
  'menu',
  'tab',
  'opt',
  'sw',
  'combo',
  'sel',
  'summary',
  'menuitem',
  'button',
]);
const TYPEABLE = new Set(['inp', 'txt', 'edit', 'combo', 'textbox', 'searchbox']);
const SELECTABLE = new Set(['sel', 'combo', 'listbox']);
const CHECKABLE = new Set(['chk', 'radio', 'sw', 'checkbox', 'switch']);

const normalize = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[*:]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const tokens = (s: string) =>
  normalize(s)
    .split(/[^\p{L}\p{N}/]+/u)
    .filter(Boolean);

/** 1 exact, 0.9 exact ignoring punctuation, 0.8 prefix, 0.7 contains, else token overlap ≤ 0.6. */
export function nameScore(target: string, name: string | undefined): number {
  if (!name) return 0;
  const t = normalize(target);
  const n = normalize(name);
  if (t === '' || n === '') return 0;
  if (t === n) return 1;
  const tp = tokens(target).join(' ');
  const np = tokens(name).join(' ');
  if (tp === np) return 0.9;
  if (np.startsWith(tp) || tp.startsWith(np)) return 0.8;
  if (np.includes(tp)) return 0.7;
  const tt = new Set(tokens(target));
  const nt = new Set(tokens(name));
  let common = 0;
  for (const w of tt) if (nt.has(w)) common += 1;
  if (common === 0) return 0;
  return 0.6 * (common / Math.max(tt.size, nt.size));
}

const MIN_SCORE = 0.5;
// A runner-up this close to the best makes the choice a guess.
const AMBIGUITY_MARGIN = 0.05;

function pick(
  tree: readonly SemanticNodeV3[],
  target: string,
  roles: ReadonlySet<string>,
): { best: SemanticNodeV3 | null; ambiguous: SemanticNodeV3[]; reason: string } {
  const usable = tree.filter((n) => !n.occ && !hasState(n, 'disabled'));
  const scored = usable
    .map((n) => ({ n, score: nameScore(target, n.n) + (roles.has(n.r) ? 0.05 : -0.2) }))
    .filter((s) => s.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score);
  const top = scored[0];
  if (!top) {
    const hidden = tree.filter(
      (n) => (n.occ || hasState(n, 'disabled')) && nameScore(target, n.n) >= MIN_SCORE,
    );
    const why = hidden[0]
      ? ` ("${hidden[0].n}" exists but is ${hidden[0].occ ? 'covered by another element' : 'disabled'})`
      : '';
    return { best: null, ambiguous: [], reason: `no element named "${target}" on the page${why}` };
  }
  const rivals = scored.filter((s) => s !== top && top.score - s.score < AMBIGUITY_MARGIN);
  if (rivals.length > 0) {
    return {
      best: null,
      ambiguous: [top.n, ...rivals.map((r) => r.n)],
      reason: `several elements match "${target}"`,
    };
  }
  return { best: top.n, ambiguous: [], reason: '' };
}

const describe = (n: SemanticNodeV3) => `${n.r} "${n.n ?? ''}" (id ${n.i})`;

function resolved(action: ParsedAction, node: SemanticNodeV3 | null, thought: string): Resolution {
  return { kind: 'resolved', action, actionString: formatAction(action), node, thought };
}

type TargetedIntent = Extract<CommandIntent, { target: string }>;

/** Commands that name no element resolve without looking at the tree. */
function resolveUntargeted(intent: Exclude<CommandIntent, TargetedIntent>): Resolution {
  switch (intent.kind) {
    case 'press':
      return resolved({ name: 'press', args: { key: intent.key } }, null, `Press ${intent.key}.`);
    case 'scroll':
      return resolved(
        { name: 'scroll', args: { direction: intent.direction } },
        null,
        `Scroll ${intent.direction}.`,
      );
    case 'goBack':
      return resolved({ name: 'goBack', args: {} }, null, 'Go back to the previous page.');
    case 'navigate':
      return resolved({ name: 'navigate', args: { url: intent.url } }, null, `Open ${intent.url}.`);
  }
}

const ROLES_FOR: Record<TargetedIntent['kind'], ReadonlySet<string>> = {
  click: CLICKABLE,
  hover: CLICKABLE,
  type: TYPEABLE,
  select: SELECTABLE,
  check: CHECKABLE,
};

export function resolveIntent(intent: CommandIntent, tree: readonly SemanticNodeV3[]): Resolution {
  if (!('target' in intent)) return resolveUntargeted(intent);
  const { best, ambiguous, reason } = pick(tree, intent.target, ROLES_FOR[intent.kind]);
  if (best) return actionOn(intent, best);
  return ambiguous.length > 0
    ? {
        kind: 'ambiguous',
        candidates: ambiguous,
        reason: `${reason}: ${ambiguous.map(describe).join(', ')}`,
      }
    : { kind: 'not_found', reason };
}

/** The action a targeted command means on the element it resolved to. */
function actionOn(intent: TargetedIntent, best: SemanticNodeV3): Resolution {
  switch (intent.kind) {
    case 'click':
      return resolved({ name: 'click', args: { id: best.i } }, best, `Click ${describe(best)}.`);
    case 'hover':
      return resolved(
        { name: 'hover', args: { id: best.i } },
        best,
        `Hover over ${describe(best)}.`,
      );
    case 'type':
      if (!TYPEABLE.has(best.r) && best.r !== 'sel') {
        return { kind: 'not_found', reason: `"${best.n}" is a ${best.r}, not a text field` };
      }
      return best.r === 'sel'
        ? resolved(
            { name: 'select', args: { id: best.i, option: intent.text } },
            best,
            `Choose "${intent.text}" in ${describe(best)}.`,
          )
        : resolved(
            { name: 'setValue', args: { id: best.i, text: intent.text } },
            best,
            `Type "${intent.text}" into ${describe(best)}.`,
          );
    case 'select':
      return resolved(
        { name: 'select', args: { id: best.i, option: intent.option } },
        best,
        `Choose "${intent.option}" in ${describe(best)}.`,
      );
    case 'check':
      return checkAction(intent, best);
  }
}

function checkAction(intent: Extract<CommandIntent, { kind: 'check' }>, best: SemanticNodeV3) {
  const isChecked = hasState(best, 'checked');
  if (isChecked === intent.checked) {
    return resolved(
      {
        name: 'finish',
        args: {
          message: `${describe(best)} is already ${isChecked ? 'checked' : 'unchecked'}.`,
        },
      },
      best,
      `${describe(best)} is already in the requested state.`,
    );
  }
  return resolved(
    { name: 'click', args: { id: best.i } },
    best,
    `${intent.checked ? 'Check' : 'Uncheck'} ${describe(best)}.`,
  );
}
