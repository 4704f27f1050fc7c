// Accessible names, close to the accname algorithm but bounded: text is collected by a walk
// that stops once it has enough characters, so a link wrapping a whole card costs no more
// than a short one.
import { cap, collapse } from '../dom/text';
import { NAME_FROM_CONTENT } from './roles';

/** `<label for>` targets per tree scope (document or shadow root), built during the walk. */
export type LabelIndex = Map<Node, Map<string, Element>>;

export interface NameContext {
  labels: LabelIndex;
  maxLength: number;
}

const TEXT_SKIP_TAGS = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SELECT',
  'TEXTAREA',
  'DATALIST',
  'OPTION',
]);

/**
 * Visible-ish text of a subtree: text nodes, `alt` of images and `aria-label` of labelled
 * descendants, skipping form-control contents and `aria-hidden` parts. Stops after `limit`
 * raw characters.
 */
export function subtreeText(root: Element, limit: number, skip?: Element): string {
  let out = '';
  const visit = (node: Node): void => {
    for (let child = node.firstChild; child && out.length < limit; child = child.nextSibling) {
      if (child.nodeType === 3) {
        out += (child as Text).data;
        continue;
      }
      if (child.nodeType !== 1) continue;
      const el = child as Element;
      if (el === skip || TEXT_SKIP_TAGS.has(el.tagName)) continue;
      if (el.getAttribute('aria-hidden') === 'true') continue;
      const label = el.getAttribute('aria-label');
      if (label) {
        out += ` ${label} `;
        continue;
      }
      if (el.tagName === 'IMG' || el.tagName === 'AREA') {
        out += ` ${el.getAttribute('alt') ?? ''} `;
        continue;
      }
      if (el.tagName === 'INPUT') {
        const type = (el.getAttribute('type') ?? '').toLowerCase();
        if (type === 'submit' || type === 'button' || type === 'reset') {
          out += ` ${(el as HTMLInputElement).value} `;
        }
        continue;
      }
      // Block-level children read as separate words: "Price<div>12</div>" is "Price 12".
      out += ' ';
      visit(el);
      out += ' ';
    }
  };
  visit(root);
  return out;
}

function byIdText(el: Element, ids: string, limit: number): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  const parts: string[] = [];
  for (const id of ids.trim().split(/\s+/)) {
    const target = root.getElementById(id);
    if (!target) continue;
    const label = target === el ? null : target.getAttribute('aria-label');
    parts.push(label ?? subtreeText(target, limit));
  }
  return parts.join(' ');
}

function labelText(el: Element, ctx: NameContext, limit: number): string {
  const parts: string[] = [];
  const id = el.getAttribute('id');
  if (id) {
    const label = ctx.labels.get(el.getRootNode())?.get(id);
    if (label) parts.push(subtreeText(label, limit, el));
  }
  const wrapping = el.parentElement?.closest('label');
  if (wrapping && !(wrapping.getAttribute('for') && wrapping.getAttribute('for') !== id)) {
    parts.push(subtreeText(wrapping, limit, el));
  }
  return parts.join(' ');
}

const LABELABLE = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'METER', 'PROGRESS', 'OUTPUT']);

function inputButtonName(el: Element): string {
  const input = el as HTMLInputElement;
  const type = (el.getAttribute('type') ?? '').toLowerCase();
  if (type === 'image') return el.getAttribute('alt') ?? input.value ?? 'Submit';
  if (input.value) return input.value;
  return type === 'reset' ? 'Reset' : type === 'submit' ? 'Submit' : '';
}

/** Fallback for icon-only controls: a described image, icon label or tooltip below it. */
function iconName(el: Element): string {
  const described = el.querySelector('img[alt]:not([alt=""]), [aria-label], [title], svg title');
  if (!described) return '';
  if (described.tagName === 'IMG') return described.getAttribute('alt') ?? '';
  if (described.tagName.toLowerCase() === 'title') return described.textContent ?? '';
  return described.getAttribute('aria-label') ?? described.getAttribute('title') ?? '';
}

/**
 * The accessible name: aria-labelledby, aria-label, <label for> / wrapping label, the value
 * of input buttons, content for name-from-content roles, then title, placeholder and alt.
 */
export function accessibleName(el: Element, tag: string, role: string, ctx: NameContext): string {
  const limit = ctx.maxLength * 3;
  const finish = (text: string): string => cap(text, ctx.maxLength);

  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    const text = collapse(byIdText(el, labelledBy, limit));
    if (text) return finish(text);
  }
  const ariaLabel = el.getAttribute('aria-label');
  if (ariaLabel && ariaLabel.trim()) return finish(ariaLabel);

  const isInputButton = tag === 'INPUT' && role === 'btn';
  if (LABELABLE.has(tag) && !isInputButton) {
    const text = collapse(labelText(el, ctx, limit));
    if (text) return finish(text);
  }
  if (isInputButton) {
    const text = inputButtonName(el);
    if (text.trim()) return finish(text);
  }
  if (NAME_FROM_CONTENT.has(role) && tag !== 'INPUT') {
    const text = collapse(subtreeText(el, limit));
    if (text) return finish(text);
    const icon = collapse(iconName(el));
    if (icon) return finish(icon);
  }
  // Text fields show their placeholder, which is what a user reads; elsewhere the tooltip.
  const order =
    tag === 'INPUT' || tag === 'TEXTAREA'
      ? ['placeholder', 'aria-placeholder', 'title', 'alt']
      : ['title', 'aria-placeholder', 'placeholder', 'alt'];
  for (const attribute of order) {
    const value = el.getAttribute(attribute);
    if (value && value.trim()) return finish(value);
  }
  return '';
}
