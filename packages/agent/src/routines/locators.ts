// How a routine finds a step's target again: a fingerprint that says "the same
// element" and semantic locators that still find it when the page changed a little. Taken when
// the action is sent (pending-action.ts), from the page the action was decided on, because the
// page after it may no longer show the element (a submit button on a page that moved on).
import type { RoutineLocator, SemanticNodeV3 } from '@tandem/contracts';

/** What a pending action keeps of one target beyond its id, role and name. */
export interface TargetLocators {
  fingerprint: string;
  locators: RoutineLocator[];
}

const nameOf = (node: SemanticNodeV3): string => (node.n ?? '').trim();

/**
 * Role, name, frame and rank among the elements of the same role and name: two captures of
 * one page give the same string for the same element, whatever ids the page package chose.
 */
export function fingerprintOf(node: SemanticNodeV3, tree: readonly SemanticNodeV3[]): string {
  const name = nameOf(node);
  const frame = node.f ?? 0;
  const same = tree.filter((n) => n.r === node.r && nameOf(n) === name && (n.f ?? 0) === frame);
  return `${node.r}|${name}|f${frame}|#${Math.max(0, same.indexOf(node))}`;
}

/**
 * The locators of `node`, most specific first: its role and name; its name alone (when it has
 * one); its role next to the nearest named neighbour (a field whose label changed is still the
 * one after "Patients"); its rank among its role. A locator that the node shares with another
 * element of the tree is left out, as it would find the wrong one.
 */
export function locatorsOf(node: SemanticNodeV3, tree: readonly SemanticNodeV3[]): TargetLocators {
  const name = nameOf(node);
  const visible = tree.filter((n) => !n.occ);
  const locators: RoutineLocator[] = [];
  // No other element may fit, the first of look-alikes included: a rerun skips a locator that
  // fits several, and one that fits a single look-alike after the others went finds the wrong
  // one (resolve.ts also reads a role+name locator as "it had no look-alikes").
  const unique = (match: (n: SemanticNodeV3) => boolean) =>
    visible.every((n) => n === node || !match(n));
  if (unique((n) => n.r === node.r && nameOf(n) === name))
    locators.push({ by: 'role-name', role: node.r, name });
  if (name !== '' && unique((n) => nameOf(n) === name)) locators.push({ by: 'label', text: name });
  const index = tree.indexOf(node);
  const before = neighbour(tree, index, -1);
  const after = neighbour(tree, index, 1);
  if (before) locators.push({ by: 'near', role: node.r, text: nameOf(before), side: 'after' });
  if (after) locators.push({ by: 'near', role: node.r, text: nameOf(after), side: 'before' });
  const ofRole = visible.filter((n) => n.r === node.r);
  const rank = ofRole.indexOf(node);
  if (rank >= 0) locators.push({ by: 'ordinal', role: node.r, index: rank });
  // Always at least one: an occluded or duplicate element is still described by its role+name.
  if (locators.length === 0) locators.push({ by: 'role-name', role: node.r, name });
  return { fingerprint: fingerprintOf(node, tree), locators };
}

/** The nearest element in `direction` of the tree's order that has a name of its own. */
function neighbour(
  tree: readonly SemanticNodeV3[],
  index: number,
  direction: 1 | -1,
): SemanticNodeV3 | undefined {
  if (index < 0) return undefined;
  for (let i = index + direction; i >= 0 && i < tree.length; i += direction) {
    const candidate = tree[i];
    if (candidate && nameOf(candidate) !== '' && !candidate.occ) return candidate;
  }
  return undefined;
}
