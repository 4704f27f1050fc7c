// The server only returns grammar actions on element ids that exist in the current tree (and
// are not occluded or disabled), and points of a screenshot of this page, within what the task
// may do (action-policy.ts): anything else a model proposes is refused here, with the reason the
// model reads on its next attempt, before it can reach the client.
import {
  actionTargetId,
  formatAction,
  safeParseAction,
  type ParsedAction,
} from '@tandem/contracts';
import { clickAtProblem, findNode, hasState, type PageState } from '../page/page-state';
import { policyProblem, type ActionPolicy } from './action-policy';

export type ActionCheck =
  | { ok: true; action: ParsedAction; actionString: string }
  /** `safety`: the task's policy refused it (sites, secrets, data, a rejected action). */
  | { ok: false; reason: string; safety?: true };

export function validateAction(
  text: string,
  page: PageState | null,
  policy: ActionPolicy,
): ActionCheck {
  const parsed = safeParseAction(text);
  if (!parsed.ok) return { ok: false, reason: parsed.error.message };
  // A point is checked against the screenshot it was read from, as an id against the tree.
  if (parsed.action.name === 'clickAt') {
    const problem = clickAtProblem(parsed.action, page);
    if (problem) return { ok: false, reason: problem };
  }
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
  const refused = policyProblem(parsed.action, page, policy);
  if (refused) return { ok: false, reason: refused, safety: true };
  return { ok: true, action: parsed.action, actionString: formatAction(parsed.action) };
}
