// The page's HTML as the model reads it when the tree is empty or too poor (needs_full_dom,
// mode 5 of docs/specs.md, "Mode Priority"): scripts, styles, comments and SVG paths removed,
// attributes cut to the few that say what an element is or where it leads, wrapper tags without
// attributes dropped, whitespace collapsed, and the whole cut to a budget. A full DOM is
// 10k-50k tokens (docs/specs.md, "Mode Priority"); this keeps it to a few thousand, once per step
// at most. htmlparser2's tokenizer, not a DOM: the digest needs tags, attributes and text in order,
// and a linear pass. (Regular expressions did it before; `<div a="` repeated 100,000 times took
// them 177 s, since each unclosed quote or block rescanned the rest of the page.)
import { Parser } from 'htmlparser2';

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
const DROPPED = new Set(['script', 'style', 'noscript', 'template', 'head']);
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
/**
 * Nesting read before the rest of the page is left out. htmlparser2 keeps its open elements in
 * an array it shifts at the front, so a page of a million unclosed <div> costs it minutes; real
 * pages nest a few dozen levels, and browsers stop nesting at 512 (Blink's parser limit).
 */
const MAX_DEPTH = 512;

/** Thrown from a parser callback to stop reading a page that nests deeper than MAX_DEPTH. */
class TooDeep extends Error {}

const BLOCKS =
  /^(div|p|section|article|main|header|footer|nav|aside|li|ul|ol|tr|table|form|h[1-6]|br|hr)$/;

function keptAttributes(attribs: Record<string, string>, present: ReadonlySet<string>): string {
  const kept: string[] = [];
  for (const [rawName, rawValue] of Object.entries(attribs)) {
    const name = rawName.toLowerCase();
    if (!KEPT_ATTRIBUTES.has(name)) continue;
    const value = rawValue.replace(/\s+/g, ' ').trim();
    // data: and javascript: URLs are payloads, not places to go.
    if ((name === 'href' || name === 'src') && /^(data|javascript):/i.test(value)) continue;
    if (!present.has(rawName)) {
      kept.push(name);
      continue;
    }
    const short = value.length > MAX_ATTRIBUTE ? `${value.slice(0, MAX_ATTRIBUTE)}…` : value;
    kept.push(`${name}="${short.replace(/"/g, '&quot;')}"`);
  }
  return kept.length > 0 ? ` ${kept.join(' ')}` : '';
}

/** The digest of `html`, at most `max` characters (plus a line saying what was cut). */
export function digestHtml(html: string, max = HTML_DIGEST_MAX): string {
  const out: string[] = [];
  /** Depth inside dropped blocks or an <svg> (whose paths are noise): nothing there is kept. */
  let skipping = 0;
  /** Attributes written with a value (`disabled` alone is kept as a bare name). */
  let valued = new Set<string>();
  let depth = 0;
  const parser = new Parser(
    {
      onattribute(name, _value, quote) {
        if (quote !== undefined) valued.add(name);
      },
      onopentag(name, attribs) {
        const present = valued;
        valued = new Set();
        if (++depth > MAX_DEPTH) throw new TooDeep();
        if (skipping > 0 || DROPPED.has(name)) {
          skipping++;
          return;
        }
        const attributes = keptAttributes(attribs, present);
        if (name === 'svg') {
          out.push(`<svg${attributes}></svg>`);
          skipping++;
          return;
        }
        if (WRAPPERS.has(name) && attributes === '') out.push(BLOCKS.test(name) ? '\n' : ' ');
        else out.push(`<${name}${attributes}>`);
      },
      ontext(text) {
        if (skipping === 0) out.push(text);
      },
      onclosetag(name, isImplied) {
        depth--;
        if (skipping > 0) {
          skipping--;
          return;
        }
        // Only end tags the page wrote: a void element (<input>) or an implied close has none.
        if (isImplied) return;
        const breakAfter = BLOCKS.test(name) ? '\n' : '';
        out.push(WRAPPERS.has(name) ? breakAfter || ' ' : `</${name}>${breakAfter}`);
      },
    },
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  let cut = '';
  try {
    parser.end(html);
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
    cut = `\n… the page nests elements more than ${MAX_DEPTH} deep; the rest was left out`;
  }
  const cleaned = out
    .join('')
    .replace(/[ \t\f\r]+/g, ' ')
    .replace(/ *\n\s*/g, '\n')
    .trim();
  if (cleaned.length <= max) return `${cleaned}${cut}`;
  return `${cleaned.slice(0, max)}\n… ${cleaned.length - max} more characters of HTML cut${cut}`;
}
