// What counts as shown. In the browser `checkVisibility()` answers from the real layout; over a
// parsed document (server, no layout) only markup can say it: the hidden attribute, inline
// display:none / visibility:hidden, closed <details> and <dialog>. On pages without stylesheet
// tricks both agree, which the Chromium parity test relies on.
import { NON_CONTENT_TAGS } from './xpath';

export interface VisibilityOptions {
  /** Real layout is available (a rendered page): ask the engine. */
  layout: boolean;
  includeHidden: boolean;
}

/** Elements whose inside is not page text: icons, embedded documents, form controls. */
const OPAQUE_TAGS = new Set([
  'svg',
  'math',
  'canvas',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'video',
  'audio',
  'select',
  'option',
  'optgroup',
  'datalist',
  'textarea',
  'input',
  'img',
  'picture',
  'source',
  'track',
  'map',
  'br',
  'wbr',
  'hr',
]);

const INLINE_HIDDEN =
  /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))\s*(?:!important\s*)?(?:;|$)/i;

const NOT_TEXT_TAGS: ReadonlySet<string> = new Set([...NON_CONTENT_TAGS, ...OPAQUE_TAGS]);

/** True when the element's text is never page content, whatever its visibility. */
export const isNonContent = (tag: string): boolean => NOT_TEXT_TAGS.has(tag);

type CheckableElement = Element & { checkVisibility?: (options?: object) => boolean };

/**
 * One options object for every call: the test runs once per element of the page, and a fresh
 * literal each time is garbage the engine converts all the same.
 */
const CHECK_OPTIONS = { visibilityProperty: true } as const;

/** Creates the hidden-element test for one snapshot. */
export function hiddenTest(options: VisibilityOptions): (el: Element) => boolean {
  if (options.includeHidden) return () => false;
  if (options.layout) {
    return (el) =>
      typeof (el as CheckableElement).checkVisibility === 'function'
        ? !(el as Required<CheckableElement>).checkVisibility(CHECK_OPTIONS)
        : markupHidden(el);
  }
  return markupHidden;
}

/** Hidden as far as the markup says (no stylesheet is consulted). */
export function markupHidden(el: Element): boolean {
  if (!el.hasAttributes() && el.parentElement?.localName !== 'details') return false;
  if (el.hasAttribute('hidden')) return true;
  const style = el.getAttribute('style');
  if (style && INLINE_HIDDEN.test(style)) return true;
  const tag = el.localName;
  if (tag === 'dialog' && !el.hasAttribute('open')) return true;
  const parent = el.parentElement;
  return (
    parent !== null &&
    parent.localName === 'details' &&
    !parent.hasAttribute('open') &&
    tag !== 'summary'
  );
}
