// Finding where a value the model extracted sits on the page. Text first (the element whose
// normalized text is the value, or for numbers whose first number is), attributes only when
// no text holds it (a SKU in data-sku, a link in href). Of nested elements holding the same
// text the innermost one wins: it is the element the value was written into.
import type { Root } from './dom';
import { contentElements } from './dom';
import type { ScalarType } from './values';
import { isEmptyValue, normalizeText, numberReadings } from './values';

/** Where a value was found: an element's text (attr null) or one of its attributes. */
export interface Located {
  el: Element;
  attr: string | null;
}

/** Texts longer than this are not searched for numbers: a number there is prose, not a field. */
const NUMBER_TEXT_LENGTH = 200;
/** Attribute values searched for numbers: short ones (data-price="1249"), not URLs or prose. */
const NUMBER_ATTR_LENGTH = 40;
/** Attributes that never carry an extracted value. */
const SKIPPED_ATTRS = new Set(['class', 'style']);

export interface PageIndex {
  /** Position of each indexed element in document order. */
  order: Map<Element, number>;
  byText: Map<string, Element[]>;
  byLowerText: Map<string, Element[]>;
  byNumber: Map<number, Element[]>;
  /** Built on first use: most values are found in text. */
  attrs: AttrIndex | null;
  elements: Element[];
}

interface AttrIndex {
  byValue: Map<string, Located[]>;
  byNumber: Map<number, Located[]>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Indexes the text of every content element under the root. Texts longer than the longest
 * value searched for cannot equal one, so they are left out (the <body>'s text is never kept).
 */
export function buildIndex(root: Root, longestValue: number): PageIndex {
  const elements = contentElements(root);
  const index: PageIndex = {
    order: new Map(elements.map((el, i) => [el, i])),
    byText: new Map(),
    byLowerText: new Map(),
    byNumber: new Map(),
    attrs: null,
    elements,
  };
  for (const el of elements) {
    const raw = el.textContent ?? '';
    // The raw length bounds the normalized one from above only roughly; normalize lazily.
    if (raw.length > 4 * Math.max(longestValue, NUMBER_TEXT_LENGTH) + 200) continue;
    const text = normalizeText(raw);
    if (!text) continue;
    if (text.length <= longestValue) {
      push(index.byText, text, el);
      push(index.byLowerText, text.toLowerCase(), el);
    }
    if (text.length <= NUMBER_TEXT_LENGTH) {
      // "1.908" is 1908 on a German page: every reading is indexed, the model's value picks.
      for (const number of numberReadings(text)) push(index.byNumber, number, el);
    }
  }
  return index;
}

/** Data attributes and labels name a value; links, ids and the rest merely contain one. */
function attrRank(name: string): number {
  if (name.startsWith('data-')) return 0;
  if (name === 'content' || name === 'value' || name === 'datetime') return 1;
  if (name === 'title' || name === 'alt' || name === 'aria-label') return 2;
  if (name === 'href' || name === 'src') return 3;
  return 4;
}

function attrIndex(index: PageIndex): AttrIndex {
  if (index.attrs) return index.attrs;
  const attrs: AttrIndex = { byValue: new Map(), byNumber: new Map() };
  for (const el of index.elements) {
    const names = el.getAttributeNames().filter((name) => !SKIPPED_ATTRS.has(name));
    names.sort((a, b) => attrRank(a) - attrRank(b));
    for (const attr of names) {
      const value = (el.getAttribute(attr) ?? '').trim();
      if (!value) continue;
      push(attrs.byValue, value, { el, attr });
      if (value.length <= NUMBER_ATTR_LENGTH && !/\p{L}/u.test(value)) {
        for (const number of numberReadings(value)) push(attrs.byNumber, number, { el, attr });
      }
    }
  }
  index.attrs = attrs;
  return attrs;
}

/**
 * Keeps the innermost of nested elements (document order is preorder, so an element's
 * descendants come right after it: if the next one is inside, this one is not innermost).
 */
function innermost(elements: readonly Element[]): Element[] {
  return elements.filter((el, i) => {
    const next = elements[i + 1];
    return !(next && el.contains(next));
  });
}

function textMatches(index: PageIndex, value: unknown, type: ScalarType): Element[] {
  if (type === 'string' && typeof value === 'string') {
    const text = normalizeText(value);
    const exact = index.byText.get(text);
    return exact ?? index.byLowerText.get(text.toLowerCase()) ?? [];
  }
  if ((type === 'number' || type === 'integer') && typeof value === 'number') {
    return index.byNumber.get(value) ?? [];
  }
  if (type === 'boolean' && typeof value === 'boolean') {
    const words = value ? ['yes', 'true'] : ['no', 'false'];
    const found = words.flatMap((word) => index.byLowerText.get(word) ?? []);
    return found.sort((a, b) => (index.order.get(a) ?? 0) - (index.order.get(b) ?? 0));
  }
  return [];
}

function attrMatches(index: PageIndex, value: unknown, type: ScalarType): Located[] {
  const attrs = attrIndex(index);
  if (type === 'string' && typeof value === 'string') return attrs.byValue.get(value.trim()) ?? [];
  if (typeof value === 'number') return attrs.byNumber.get(value) ?? [];
  if (typeof value === 'boolean') {
    const words = value ? ['true', 'yes'] : ['false', 'no'];
    return words.flatMap((word) => attrs.byValue.get(word) ?? []);
  }
  return [];
}

/** Every place a value can be read from, in document order; [] for an empty value. */
export function locateValue(index: PageIndex, value: unknown, type: ScalarType): Located[] {
  if (isEmptyValue(value)) return [];
  const inText = innermost(textMatches(index, value, type));
  if (inText.length > 0) return inText.map((el) => ({ el, attr: null }));
  // One element may hold the value in several attributes: the best-ranked one is kept.
  const seen = new Set<Element>();
  return attrMatches(index, value, type).filter(({ el }) => !seen.has(el) && !!seen.add(el));
}
