// The skeleton DOM (docs/specs.md, "Hybrid Vision + Skeleton Mode"): a compact HTML string of only
// the interactive elements, each carrying its data-llm-id, one per line.
import { cap } from '../dom/text';
import type { CollectedNode } from './collect';

const KEPT_ATTRIBUTES = ['type', 'name', 'role', 'placeholder', 'aria-label', 'title', 'alt'];
const MAX_OPTIONS = 20;
const MAX_HREF = 120;

const escapeText = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string): string => escapeText(text).replace(/"/g, '&quot;');

function attributesOf(node: CollectedNode): string {
  const el = node.el;
  const parts = [`data-llm-id="${node.id}"`];
  for (const name of KEPT_ATTRIBUTES) {
    const value = el.getAttribute(name);
    if (value) parts.push(`${name}="${escapeAttribute(cap(value, 80))}"`);
  }
  const href = el.getAttribute('href');
  if (href && !href.startsWith('javascript:'))
    parts.push(`href="${escapeAttribute(href.slice(0, MAX_HREF))}"`);
  if (node.value !== undefined && el.tagName !== 'SELECT' && node.role !== 'edit') {
    parts.push(`value="${escapeAttribute(node.value)}"`);
  }
  if (node.state) {
    for (const state of node.state.split(',')) parts.push(state);
  }
  return parts.join(' ');
}

function optionsOf(el: Element): string {
  const options = Array.from((el as HTMLSelectElement).options).slice(0, MAX_OPTIONS);
  return options
    .map((o) => `<option${o.selected ? ' selected' : ''}>${escapeText(cap(o.text, 60))}</option>`)
    .join('');
}

export function skeletonOf(nodes: CollectedNode[]): string {
  const lines: string[] = [];
  let frame = 0;
  for (const node of nodes) {
    if (node.frame !== frame) {
      frame = node.frame;
      lines.push(`<!-- frame ${frame} -->`);
    }
    const tag = node.el.tagName.toLowerCase();
    const attributes = attributesOf(node);
    if (tag === 'input') {
      lines.push(`<input ${attributes}>`);
    } else if (tag === 'select') {
      lines.push(`<select ${attributes}>${optionsOf(node.el)}</select>`);
    } else {
      const text = node.role === 'edit' ? (node.value ?? '') : node.name;
      lines.push(`<${tag} ${attributes}>${escapeText(text)}</${tag}>`);
    }
  }
  return lines.join('\n');
}
