// Action chaining (docs/specs.md, "action chaining"): a chain is only sent when every safety
// criterion holds — same form/container, no navigation expected during the chain, no async
// dependency between actions, low-risk actions only (never finish/fail, nothing destructive).
// Otherwise the first action goes alone.
//
// A chain is a contiguous group of form fields, optionally ended by the form's own button
// ("Save", "Submit", "Next") right after them: nothing runs after that click, so whatever it
// navigates or loads happens after the chain, and its outcome is what the next request
// verifies. This is what makes a form one round trip instead of two (the spec's 50-60%
// round-trip reduction for form fills, docs/specs.md, "Metrics and KPIs").
import { parseAction, type ParsedAction, type SemanticNodeV3 } from '@tandem/contracts';
import { findNode, hasState } from '../page/page-state';

const FIELD_ROLES = new Set(['inp', 'txt', 'sel', 'chk', 'radio', 'sw', 'edit', 'sld', 'combo']);
// Between two chained fields only fields (or their options) may sit in tree order; a link or
// button between them means they are not one contiguous form group.
const GROUP_ROLES = new Set([...FIELD_ROLES, 'opt']);
/** A button whose click destroys, spends or leaves is never chained, even at the end. */
const NOT_LOW_RISK =
  /\b(delete|remove|discard|cancel|reset|clear|erase|destroy|revoke|close|sign ?out|log ?out|unsubscribe|pay|purchase|buy|order|transfer|send money)\b/i;

export type ChainVerdict = { safe: true } | { safe: false; reason: string };

type Checked = { node: SemanticNodeV3 } | { reason: string };

/** Why one action may not be in a chain, or its element when it may. */
function checkAction(a: ParsedAction, tree: readonly SemanticNodeV3[], last: boolean): Checked {
  if (a.name === 'finish' || a.name === 'fail') return { reason: `${a.name} is never chained` };
  if (['navigate', 'goBack', 'googleSearch', 'press'].includes(a.name)) {
    return { reason: `${a.name} may navigate or submit (not low-risk)` };
  }
  if (a.name === 'wait' || a.name === 'scroll' || a.name === 'hover') {
    return { reason: `${a.name} means the next action depends on a page change` };
  }
  if (a.name === 'clickAt' || !('id' in a.args)) {
    return { reason: 'clickAt aims at a screenshot the chain would make stale' };
  }
  const node = findNode(tree, a.args.id);
  if (!node) return { reason: `element ${a.args.id} is not on the page` };
  if (node.occ) return { reason: `element ${a.args.id} is occluded` };
  if (hasState(node, 'disabled')) return { reason: `element ${a.args.id} is disabled` };
  if (node.r === 'combo' && a.name === 'click') {
    return { reason: 'opening a combobox is an async dependency' };
  }
  if (FIELD_ROLES.has(node.r)) return { node };
  if (!last || a.name !== 'click' || node.r !== 'btn') {
    return {
      reason: `${a.name} on a ${node.r} may submit or navigate (only form fields are chained, and the form's button last)`,
    };
  }
  if (NOT_LOW_RISK.test(node.n ?? '')) {
    return { reason: `"${node.n}" is not low-risk: it is never chained` };
  }
  return { node };
}

/** The first element between positions lo and hi (tree order) that is not a form field. */
function separator(tree: readonly SemanticNodeV3[], lo: number, hi: number) {
  for (let i = lo; i <= hi; i++) {
    const n = tree[i];
    if (n && !GROUP_ROLES.has(n.r)) return n;
  }
  return undefined;
}

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
  const nodes: SemanticNodeV3[] = [];
  for (const [k, a] of parsed.entries()) {
    const checked = checkAction(a, tree, k === parsed.length - 1);
    if ('reason' in checked) return { safe: false, reason: checked.reason };
    nodes.push(checked.node);
  }
  if (new Set(nodes.map((n) => n.i)).size !== nodes.length)
    return { safe: false, reason: 'a chain touches each element once' };
  if (new Set(nodes.map((n) => n.f ?? 0)).size > 1)
    return { safe: false, reason: 'the actions are in different frames' };
  const last = nodes.at(-1) as SemanticNodeV3;
  const button = FIELD_ROLES.has(last.r) ? null : last;
  const positions = (button ? nodes.slice(0, -1) : nodes).map((n) => tree.indexOf(n));
  const lo = Math.min(...positions);
  const hi = Math.max(...positions);
  const apart = separator(tree, lo, hi);
  if (apart) {
    return {
      safe: false,
      reason: `"${apart.n ?? apart.i}" (${apart.r}) separates the fields: not one form group`,
    };
  }
  if (button) {
    // The form's own button: after its fields, with nothing but fields in between.
    const at = tree.indexOf(button);
    const between = at > hi ? separator(tree, hi + 1, at - 1) : button;
    if (between) {
      return {
        safe: false,
        reason: `"${button.n ?? button.i}" is not the button that ends these fields`,
      };
    }
  }
  return { safe: true };
}
