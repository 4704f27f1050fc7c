// Structural fingerprints: what makes a re-rendered element "the same" as one captured before.
// A path of tag+index (among same-tag siblings) up to the nearest anchor: an ancestor with a
// hand-written id, a landmark, a form or a dialog. Anchoring keeps the path short and makes it
// survive changes elsewhere on the page (a banner inserted above does not shift it).
import { composedParent } from '../dom/elements';

const ANCHOR_TAGS = new Set(['FORM', 'MAIN', 'NAV', 'HEADER', 'FOOTER', 'ASIDE', 'DIALOG', 'BODY']);
const ANCHOR_ROLES = new Set([
  'dialog',
  'alertdialog',
  'main',
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'form',
  'search',
  'region',
  'menu',
  'menubar',
  'listbox',
  'tablist',
  'toolbar',
  'grid',
  'tree',
]);

/**
 * Framework-generated ids change between renders (React's ":r1:", "ember123", uuids), so they
 * must not anchor a fingerprint. Hand-written ids are short words with few digits.
 */
export function isStableHtmlId(id: string): boolean {
  if (id.length === 0 || id.length > 64) return false;
  if (!/^[A-Za-z][\w-]*$/.test(id)) return false;
  if (/\d{3,}/.test(id)) return false;
  if (/[0-9a-f]{8,}/i.test(id) && /\d/.test(id)) return false;
  return !/^(?:ember|react-|radix-|headlessui-|mui-|rc[-_]|uid|:)/i.test(id);
}

function anchorKey(el: Element): string | undefined {
  const tag = el.tagName.toLowerCase();
  const id = el.getAttribute('id');
  if (id && isStableHtmlId(id)) return `${tag}#${id}`;
  const role = el.getAttribute('role');
  if (ANCHOR_TAGS.has(el.tagName) || (role && ANCHOR_ROLES.has(role))) {
    const label = el.getAttribute('aria-label') ?? el.getAttribute('name') ?? '';
    return `${tag}${role ? `[${role}]` : ''}${label ? `"${label.slice(0, 40)}"` : ''}`;
  }
  return undefined;
}

function segment(el: Element): string {
  const tag = el.tagName;
  let index = 0;
  for (let sibling = el.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
    if (sibling.tagName === tag) index++;
  }
  const lower = tag.toLowerCase();
  return index === 0 ? lower : `${lower}:${index}`;
}

/** Computes paths with a per-capture cache: siblings share their ancestors' prefixes. */
export class PathBuilder {
  private readonly cache = new Map<Element, string>();

  /** Path of `el` from its nearest anchor ancestor; an element with a stable id is its own anchor. */
  pathOf(el: Element): string {
    const own = el.getAttribute('id');
    if (own && isStableHtmlId(own)) return `${el.tagName.toLowerCase()}#${own}`;
    return this.prefix(composedParent(el), el.parentNode?.nodeType === 11) + '/' + segment(el);
  }

  // The cache is per capture and depth-free, so an element's path never depends on which
  // candidate asked first (fingerprints must be identical from one capture to the next).
  private prefix(el: Element | null, crossedShadow: boolean): string {
    if (!el) return '';
    const shadowMark = crossedShadow ? '>>' : '';
    const cached = this.cache.get(el);
    if (cached !== undefined) return cached + shadowMark;
    let value: string;
    const anchor = anchorKey(el);
    if (anchor !== undefined) value = anchor;
    else
      value = this.prefix(composedParent(el), el.parentNode?.nodeType === 11) + '/' + segment(el);
    this.cache.set(el, value);
    return value + shadowMark;
  }
}

export function fingerprintOf(frame: number, role: string, name: string, path: string): string {
  return `${frame}|${role}|${name}|${path}`;
}
