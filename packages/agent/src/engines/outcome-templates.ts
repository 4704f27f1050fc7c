// Fixed expected outcomes (docs/specs.md, "outcome prediction"): dropdown openers and navigation
// never need an LLM to predict what happens next.
import type { ExpectedOutcome, ParsedAction, SemanticNodeV3 } from '@tandem/contracts';
import { hasState } from '../page/page-state';

/** A click on something that opens a menu/listbox (collapsed state, combobox, select). */
export function isDropdownOpener(node: SemanticNodeV3 | undefined): boolean {
  if (!node) return false;
  return (
    node.r === 'combo' ||
    node.r === 'sel' ||
    hasState(node, 'collapsed') ||
    (node.r === 'btn' && /\bmenu\b/i.test(node.n ?? '') && hasState(node, 'collapsed'))
  );
}

export function templateOutcome(
  action: ParsedAction,
  target: SemanticNodeV3 | undefined,
): ExpectedOutcome | null {
  if (action.name === 'navigate' || action.name === 'goBack') {
    return {
      description:
        action.name === 'navigate'
          ? `The browser opens ${action.args.url}`
          : 'The browser returns to the previous page',
      urlShouldChange: true,
      source: 'template',
    };
  }
  if (action.name === 'click' && isDropdownOpener(target)) {
    return {
      description: `"${target?.n ?? action.args.id}" opens its menu (aria-expanded becomes true and menu items appear)`,
      urlShouldChange: false,
      domChanges: { attributeChanges: [{ attribute: 'aria-expanded', expectedValue: 'true' }] },
      source: 'template',
    };
  }
  if (action.name === 'wait' || action.name === 'scroll') {
    return {
      description: action.name === 'wait' ? 'The page settles' : 'More of the page comes into view',
      urlShouldChange: false,
      source: 'template',
    };
  }
  if (action.name === 'setValue' || action.name === 'select') {
    const value = action.name === 'setValue' ? action.args.text : action.args.option;
    return {
      description: `"${target?.n ?? action.args.id}" holds "${value}"`,
      urlShouldChange: false,
      source: 'template',
    };
  }
  return null;
}
