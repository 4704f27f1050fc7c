// select: choose an option of a native <select>, an ARIA listbox, or a custom dropdown
// (combobox / aria-haspopup button) that has to be opened first.
import { accessibleName } from '../capture/names';
import { isRendered } from '../capture/geometry-read';
import { collapse } from '../dom/text';
import { dispatchChange, dispatchInput, setNativeProperty } from './native';
import type { OptionLike } from './option-match';
import { describeOptions, matchOption } from './option-match';
import { fail } from './result';

export function selectNativeOption(el: HTMLSelectElement, wanted: string): string | undefined {
  const options = Array.from(el.options);
  const match = matchOption(
    options.map((o) => ({ text: collapse(o.label || o.text), value: o.value })),
    wanted,
  );
  if ('error' in match) {
    const list = describeOptions(options.map((o) => ({ text: collapse(o.label || o.text) })));
    return fail(
      'failed',
      match.error === 'ambiguous'
        ? `option ${JSON.stringify(wanted)} is ambiguous; options: ${list}`
        : `no option ${JSON.stringify(wanted)}; options: ${list}`,
    );
  }
  const option = options[match.index];
  if (!option) return fail('failed', 'option vanished while selecting');
  if (option.disabled) fail('disabled', `option ${JSON.stringify(option.text)} is disabled`);
  (el as HTMLElement).focus({ preventScroll: true });
  if (el.multiple) setNativeProperty(option, 'selected', true);
  else setNativeProperty(el, 'selectedIndex', match.index);
  dispatchInput(el, null, 'insertReplacementText');
  dispatchChange(el);
  if (!option.selected) fail('failed', 'the page reset the selection');
  return undefined;
}

function optionNodes(scope: ParentNode): Element[] {
  return Array.from(
    scope.querySelectorAll(
      '[role="option"], [role="menuitem"], [role="menuitemradio"], [role="treeitem"]',
    ),
  );
}

function ownedScopes(el: Element): ParentNode[] {
  const doc = el.getRootNode() as Document | ShadowRoot;
  const scopes: ParentNode[] = [];
  for (const attribute of ['aria-controls', 'aria-owns']) {
    for (const id of (el.getAttribute(attribute) ?? '').split(/\s+/)) {
      const target = id ? doc.getElementById(id) : null;
      if (target) scopes.push(target);
    }
  }
  return scopes;
}

/** Visible options the element controls, else visible options anywhere in its document. */
export function visibleOptions(el: Element): Element[] {
  const shown = (o: Element) => {
    const box = o.getBoundingClientRect();
    return (
      box.width > 0 && box.height > 0 && isRendered(o) && o.getAttribute('aria-disabled') !== 'true'
    );
  };
  const scopes = el.getAttribute('role') === 'listbox' ? [el, ...ownedScopes(el)] : ownedScopes(el);
  for (const scope of scopes) {
    const found = optionNodes(scope).filter(shown);
    if (found.length > 0) return found;
  }
  const root = el.getRootNode() as Document | ShadowRoot;
  return optionNodes(root).filter(shown);
}

function optionTexts(options: Element[]): OptionLike[] {
  return options.map((o) => ({
    text: accessibleName(o, o.tagName, 'opt', { labels: new Map(), maxLength: 200 }),
    value: o.getAttribute('data-value') ?? o.getAttribute('value') ?? undefined,
  }));
}

const sleep = (win: Window, ms: number) =>
  new Promise<void>((resolve) => win.setTimeout(resolve, ms));

export interface CustomSelectSteps {
  open: () => void;
  clickOption: (option: Element) => void;
  typeText: ((text: string) => void) | undefined;
}

/**
 * Custom dropdowns: open (click, or type for an editable combobox), wait up to `timeoutMs`
 * for options to render, click the matching one.
 */
export async function selectCustomOption(
  el: Element,
  wanted: string,
  steps: CustomSelectSteps,
  timeoutMs: number,
): Promise<string | undefined> {
  const win = el.ownerDocument.defaultView ?? window;
  let options = visibleOptions(el);
  const isListbox = el.getAttribute('role') === 'listbox';
  if (!isListbox || options.length === 0) {
    if (steps.typeText) steps.typeText(wanted);
    else if (el.getAttribute('aria-expanded') !== 'true' || options.length === 0) steps.open();
    const deadline = win.performance.now() + timeoutMs;
    for (;;) {
      options = visibleOptions(el);
      if ('index' in matchOption(optionTexts(options), wanted) || win.performance.now() > deadline)
        break;
      await sleep(win, 50);
    }
  }
  const texts = optionTexts(options);
  const match = matchOption(texts, wanted);
  if ('error' in match) {
    if (options.length === 0)
      return fail('failed', `no options appeared after opening the dropdown`);
    return fail(
      'failed',
      `${match.error === 'ambiguous' ? 'ambiguous option' : 'no option'} ${JSON.stringify(wanted)}; options: ${describeOptions(texts)}`,
    );
  }
  const option = options[match.index];
  if (!option) return fail('failed', 'option vanished while selecting');
  steps.clickOption(option);
  return undefined;
}
