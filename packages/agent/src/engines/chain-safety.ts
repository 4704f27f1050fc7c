// Action chaining (spec 003 Batch & Adapt Task 1): a chain is only sent when every safety
// criterion holds — same form/container, no navigation expected, no async dependency between
// actions, low-risk actions only (never finish/fail). Otherwise the first action goes alone.
import { parseAction, type ParsedAction, type SemanticNodeV3 } from '@tandem/contracts';
import { findNode, hasState } from '../page/page-state';

const FIELD_ROLES = new Set(['inp', 'txt', 'sel', 'chk', 'radio', 'sw', 'edit', 'sld', 'combo']);
// Between two chained fields only fields (or their options) may sit in tree order; a link or
// button between them means they are not one contiguous form group.
const GROUP_ROLES = new Set([...FIELD_ROLES, 'opt']);

export type ChainVerdict = { safe: true } | { safe: false; reason: string };

export function checkChainSafety(
  actions: readonly string[],
  tree: readonly SemanticNodeV3[],
): ChainVerdict {
  if (actions.length < 2) return { safe: false, reason: 'a chain needs at least two actions' };
  const parsed: ParsedAction[] = [];
  for (const a of actions) {
    try {
      parsed.push(parseAction(a));
    } catch {
      return { safe: false, reason: `invalid action in chain: ${a}` };
    }
  }
  const positions: number[] = [];
  for (const a of parsed) {
    if (a.name === 'finish' || a.name === 'fail')
      return { safe: false, reason: `${a.name} is never chained` };
    if (
      a.name === 'navigate' ||
      a.name === 'goBack' ||
      a.name === 'googleSearch' ||
      a.name === 'press'
    ) {
      return { safe: false, reason: `${a.name} may navigate or submit (not low-risk)` };
    }
    if (a.name === 'wait' || a.name === 'scroll' || a.name === 'hover') {
      return { safe: false, reason: `${a.name} means the next action depends on a page change` };
    }
    if (a.name === 'clickAt') {
      return { safe: false, reason: 'clickAt aims at a screenshot the chain would make stale' };
    }
    const node = findNode(tree, a.args.id);
    if (!node) return { safe: false, reason: `element ${a.args.id} is not on the page` };
    if (node.occ) return { safe: false, reason: `element ${a.args.id} is occluded` };
    if (hasState(node, 'disabled'))
      return { safe: false, reason: `element ${a.args.id} is disabled` };
    if (!FIELD_ROLES.has(node.r)) {
      return {
        safe: false,
        reason: `${a.name} on a ${node.r} may submit or navigate (only form fields are chained)`,
      };
    }
    if (node.r === 'combo' && a.name === 'click') {
      return { safe: false, reason: 'opening a combobox is an async dependency' };
    }
    positions.push(tree.indexOf(node));
  }
  const ids = parsed.map((a) => ('id' in a.args ? a.args.id : ''));
  if (new Set(ids).size !== ids.length)
    return { safe: false, reason: 'a chain touches each element once' };
  const frames = new Set(
    parsed.map((a) => ('id' in a.args ? (findNode(tree, a.args.id)?.f ?? 0) : 0)),
  );
  if (frames.size > 1) return { safe: false, reason: 'the actions are in different frames' };
  const lo = Math.min(...positions);
  const hi = Math.max(...positions);
  for (let i = lo; i <= hi; i++) {
    const n = tree[i];
    if (n && !GROUP_ROLES.has(n.r)) {
      return {
        safe: false,
        reason: `"${n.n ?? n.i}" (${n.r}) separates the fields: not one form group`,
      };
    }
  }
  return { safe: true };
}
