// The page's HTML as the model reads it when the tree is empty or too poor (needs_full_dom,
// spec 003 "Mode Priority" 5): scripts, styles, comments and SVG paths removed, attributes
// cut to the few that say what an element is or where it leads, wrapper tags without
// attributes dropped, whitespace collapsed, and the whole cut to a budget. A full DOM is
// 10k-50k tokens (spec 003); this keeps it to a few thousand, once per step at most.
// Regular expressions, not a parser: the server only needs a readable digest, and a digest
// of broken HTML is still a digest.

/** About 3,000 tokens: a bounded price for the one step that needs it. */
export const HTML_DIGEST_MAX = 12_000;

const KEPT_ATTRIBUTES = new Set([
  'id',
  'name',
  'type',
  'role',
  'href',
  'src',
  'alt',
  'title',
  'placeholder',
  'value',
  'for',
  'aria-label',
  'aria-expanded',
  'aria-checked',
  'aria-selected',
  'aria-disabled',
  'disabled',
  'checked',
  'selected',
  'data-llm-id',
  'width',
  'height',
]);
const MAX_ATTRIBUTE = 100;
/** Tags whose contents say nothing a model can act on. */
const DROPPED_BLOCKS = /<(script|style|noscript|template|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
/** Pure layout wrappers: kept only when an attribute makes them meaningful. */
const WRAPPERS = new Set([
  'html',
  'body',
  'div',
  'span',
  'section',
  'article',
  'main',
  'font',
  'center',
  'b',
  'i',
]);
const BLOCKS =
  /^(div|p|section|article|main|header|footer|nav|aside|li|ul|ol|tr|table|form|h[1-6]|br|hr)$/;
const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
const TAG = /<(\/?)([a-zA-Z][\w:-]*)([^>]*)>/g;

function keptAttributes(raw: string): string {
  const kept: string[] = [];
  for (const match of raw.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? '').toLowerCase();
    if (!KEPT_ATTRIBUTES.has(name)) continue;
    const value = (match[2] ?? match[3] ?? match[4] ?? '').replace(/\s+/g, ' ').trim();
    // data: and javascript: URLs are payloads, not places to go.
    if ((name === 'href' || name === 'src') && /^(data|javascript):/i.test(value)) continue;
    if (match[2] === undefined && match[3] === undefined && match[4] === undefined) {
      kept.push(name);
      continue;
    }
    const short = value.length > MAX_ATTRIBUTE ? `${value.slice(0, MAX_ATTRIBUTE)}…` : value;
    kept.push(`${name}="${short.replace(/"/g, '&quot;')}"`);
  }
  return kept.length > 0 ? ` ${kept.join(' ')}` : '';
}

function rewriteTag(close: string, tagName: string, raw: string): string {
  const tag = tagName.toLowerCase();
  const attributes = close ? '' : keptAttributes(raw);
  const breakAfter = BLOCKS.test(tag) ? '\n' : '';
  if (WRAPPERS.has(tag) && attributes === '') return breakAfter || ' ';
  return `<${close}${tag}${attributes}>${close ? breakAfter : ''}`;
}

/** The digest of `html`, at most `max` characters (plus a line saying what was cut). */
export function digestHtml(html: string, max = HTML_DIGEST_MAX): string {
  const cleaned = html
    .replace(/<!--[\s\S]*?-->|<!doctype[^>]*>/gi, '')
    .replace(DROPPED_BLOCKS, '')
    .replace(/<svg\b([^>]*)>[\s\S]*?<\/svg\s*>/gi, (_all, attributes: string) => {
      return `<svg${keptAttributes(attributes)}></svg>`;
    })
    .replace(TAG, (_all, close: string, tag: string, raw: string) => rewriteTag(close, tag, raw))
    .replace(/[ \t\f\r]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
  if (cleaned.length <= max) return cleaned;
  return `${cleaned.slice(0, max)}\n… ${cleaned.length - max} more characters of HTML cut`;
}
