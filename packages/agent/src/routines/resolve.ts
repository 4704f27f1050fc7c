// Finds a routine step's target again on the live tree, without the model: the recorded
// fingerprint first, then each semantic locator in the order the compiler ranked them. Ids
// are the page package's own and change between captures, so they are never used. A locator
// that now fits several elements says nothing about which one was meant and is skipped; an
// element the action rules forbid (covered by a modal, disabled) is never returned, because a
// rerun must not do what the model may not.
import {
  parseTemplate,
  type RoutineLocator,
  type RoutineTarget,
  type SemanticNodeV3,
} from '@tandem/contracts';
import { hasState } from '../page/page-state';

export type TargetResolution =
  { id: string; by: 'fingerprint' | RoutineLocator['by'] } | { unresolved: string };

const nameOf = (node: SemanticNodeV3): string => (node.n ?? '').trim();

/** Every node's fingerprint, as fingerprintOf (locators.ts) gives it, in one pass. */
export function fingerprintsOf(tree: readonly SemanticNodeV3[]): string[] {
  const seen = new Map<string, number>();
  return tree.map((n) => {
    const key = `${n.r}|${nameOf(n)}|f${n.f ?? 0}`;
    const rank = seen.get(key) ?? 0;
    seen.set(key, rank + 1);
    return `${key}|#${rank}`;
  });
}

/** The nearest element in `direction` that has a name and is not covered (as locators.ts). */
function neighbourName(
  tree: readonly SemanticNodeV3[],
  index: number,
  direction: 1 | -1,
): string | null {
  for (let i = index + direction; i >= 0 && i < tree.length; i += direction) {
    const candidate = tree[i] as SemanticNodeV3;
    if (nameOf(candidate) !== '' && !candidate.occ) return nameOf(candidate);
  }
  return null;
}

/** Indexes of the uncovered elements the locator describes. */
function locate(tree: readonly SemanticNodeV3[], locator: RoutineLocator): number[] {
  const out: number[] = [];
  let ofRole = 0;
  for (const [i, n] of tree.entries()) {
    if (n.occ) continue;
    switch (locator.by) {
      case 'role-name':
        if (n.r === locator.role && nameOf(n) === locator.name) out.push(i);
        break;
      case 'label':
        if (nameOf(n) === locator.text) out.push(i);
        break;
      case 'near':
        if (
          n.r === locator.role &&
          neighbourName(tree, i, locator.side === 'after' ? -1 : 1) === locator.text
        )
          out.push(i);
        break;
      case 'ordinal':
        if (n.r === locator.role && ofRole++ === locator.index) out.push(i);
        break;
    }
  }
  return out;
}

const describe = (node: SemanticNodeV3) => (nameOf(node) ? `“${nameOf(node)}”` : node.r);

/** Why the element may not be acted on, or null. */
function unusable(node: SemanticNodeV3): string | null {
  if (node.occ) return `${describe(node)} is covered by another element`;
  if (hasState(node, 'disabled')) return `${describe(node)} is disabled`;
  return null;
}

const locatorText = (l: RoutineLocator): string => {
  switch (l.by) {
    case 'role-name':
      return `${l.role} “${l.name}”`;
    case 'label':
      return `“${l.text}”`;
    case 'near':
      return `${l.role} ${l.side} “${l.text}”`;
    case 'ordinal':
      return `${l.role} #${l.index}`;
  }
};

/**
 * The name the element must have, when the target's name template is filled (targetFor in
 * step-node.ts fills it with this run's values): null when the target has none, or still has
 * parameters.
 */
export function requiredName(target: RoutineTarget): string | null {
  if (target.name === undefined) return null;
  let parts: ReturnType<typeof parseTemplate>;
  try {
    parts = parseTemplate(target.name);
  } catch {
    return null;
  }
  return parts.every((p) => typeof p === 'string') ? parts.join('').trim() : null;
}

/**
 * The id of the element a step acts on in `tree`, and what found it; or why there is none.
 * A target with a filled name (requiredName) may only be an element of that name, ignoring
 * case: the fingerprint and the locators were recorded on the first run's element ("Approve
 * INV-1003"), and one that survived this run's rewrite must still never pick that element for
 * "Approve INV-1004". Elements of other names are left out before the rules below.
 * Rules, in order:
 * - the fingerprint (role, name, frame, rank among look-alikes). It is trusted alone when the
 *   element's role and name are unique on the page and were when the step was recorded. With
 *   look-alikes (now or then) its rank may point at another card (one was added or removed
 *   before it), so the first locator other than a rank that finds one element decides: the
 *   same element (by: fingerprint), another one (that locator wins: a neighbourhood knows
 *   better than a rank), or none (unresolved: a heal, not a guess).
 *   When the fingerprint's element is covered or disabled the step is unresolved: that element
 *   is the one the step meant, and acting on another would be worse than waiting or healing;
 * - each locator in order, among uncovered elements: none or several → the next one; exactly
 *   one → that element, unless it is disabled (unresolved, for the same reason).
 */
export function resolveTarget(
  target: RoutineTarget,
  tree: readonly SemanticNodeV3[],
): TargetResolution {
  const prints = fingerprintsOf(tree);
  const wanted = requiredName(target)?.toLowerCase() ?? null;
  const named = (i: number) =>
    wanted === null || nameOf(tree[i] as SemanticNodeV3).toLowerCase() === wanted;
  const printed = prints.indexOf(target.fingerprint);
  const byPrint = printed >= 0 && named(printed) ? printed : -1;
  const located = target.locators.map((l) => locate(tree, l).filter(named));

  if (byPrint >= 0) {
    const node = tree[byPrint] as SemanticNodeV3;
    const problem = unusable(node);
    if (problem) return { unresolved: problem };
    const key = target.fingerprint.slice(0, target.fingerprint.lastIndexOf('|#'));
    const alone = prints.filter((p) => p.startsWith(`${key}|#`)).length === 1;
    // locators.ts records the role+name locator only when no other element had them.
    const wasAlone = target.locators.some(
      (l) => l.by === 'role-name' && l.role === node.r && l.name === nameOf(node),
    );
    if (alone && wasAlone) return { id: node.i, by: 'fingerprint' };
    // Look-alikes now or then: a rank proves nothing (the card before it may be new or gone,
    // and the ordinal locator is a rank too), so its name or neighbourhood must say which.
    const k = located.findIndex(
      (found, i) => found.length === 1 && target.locators[i]?.by !== 'ordinal',
    );
    if (k < 0)
      return {
        unresolved: `${describe(node)} has or had look-alikes, and only its rank tells which`,
      };
    const index = (located[k] as number[])[0] as number;
    if (index === byPrint) return { id: node.i, by: 'fingerprint' };
    const other = tree[index] as SemanticNodeV3;
    const otherProblem = unusable(other);
    if (otherProblem) return { unresolved: otherProblem };
    return { id: other.i, by: (target.locators[k] as RoutineLocator).by };
  }

  const tried: string[] = [];
  for (const [k, locator] of target.locators.entries()) {
    const found = located[k] as number[];
    if (found.length !== 1) {
      tried.push(`${locatorText(locator)}: ${found.length === 0 ? 'none' : found.length}`);
      continue;
    }
    const node = tree[found[0] as number] as SemanticNodeV3;
    const problem = unusable(node);
    if (problem) return { unresolved: problem };
    return { id: node.i, by: locator.by };
  }
  const none =
    wanted === null
      ? 'no element has the fingerprint'
      : `no element named “${requiredName(target)}” has the fingerprint`;
  return { unresolved: `${none}; locators found ${tried.join(', ')}` };
}

/**
 * Whether the recorded target still describes element `id` as it did: its fingerprint, and
 * each locator finding that element alone. False when the step was found another way (a
 * renamed button by its neighbour, a moved field whose neighbours changed): the routine's
 * next version then records the page as it is now.
 */
export function stillDescribes(
  target: RoutineTarget,
  tree: readonly SemanticNodeV3[],
  id: string,
): boolean {
  const index = tree.findIndex((n) => n.i === id);
  if (index < 0 || fingerprintsOf(tree)[index] !== target.fingerprint) return false;
  const wanted = requiredName(target);
  if (
    wanted !== null &&
    nameOf(tree[index] as SemanticNodeV3).toLowerCase() !== wanted.toLowerCase()
  )
    return false;
  return target.locators.every((l) => {
    const found = locate(tree, l);
    return found.length === 1 && found[0] === index;
  });
}
