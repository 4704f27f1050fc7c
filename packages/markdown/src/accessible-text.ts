// Text that only accessibility attributes carry, for the converters that turn pages into
// Markdown (the page snapshot's and knowledge ingestion's). A star rating written as
// `<span aria-label="4.5 out of 5 stars">★★★★☆</span>`, an image-only link, a <time datetime>
// or a microdata <meta content> has its meaning in attributes turndown never reads. This finds
// the text a screen reader would announce, or the machine value, where the visible text lacks
// it, and says where it goes: the converters insert it as a marker element (MARKER_TAG) that
// their turndown rule writes with renderAddition, escaped, so a page cannot inject Markdown or
// HTML through an attribute. The walk is written once over an adapter: the page walks the W3C
// DOM (browser or jsdom, annotateDom), ingestion an htmlparser2 tree (@tandem/markdown/html).

/** The element the converters insert; their turndown rule writes its text (renderAddition). */
export const MARKER_TAG = 'tandem-a11y';
/** Attribute of the marker holding how its text is written: see AdditionMode. */
export const MARKER_MODE = 'data-mode';

/** Longest text one attribute adds: a label is a few words, a hostile one could be a page. */
export const MAX_ADDED_CHARS = 200;

/**
 * - `replace`: the element's visible text is empty or glyphs (★★★★☆, icon-font characters);
 *   the added text stands for it, the glyphs go.
 * - `append`: the visible text stays, the added text follows it in parentheses.
 * - `after`: the element is not text (svg, meta) or an icon (<i>): the added text follows it
 *   as a sibling, and the element's glyphs go (a <meta> or <link> goes whole).
 */
export type AdditionMode = 'replace' | 'append' | 'after';

export interface Addition<E> {
  el: E;
  mode: AdditionMode;
  text: string;
}

export interface AccessibleTextAdapter<N, E extends N> {
  isElement(node: N): node is E;
  /** A text node's text; null for anything else. */
  textData(node: N): string | null;
  /** Lower-case local name. */
  tag(el: E): string;
  attr(el: E, name: string): string | null;
  childNodes(el: E): readonly N[];
  parent(el: E): E | null;
  /** The element with this id, for aria-labelledby (anywhere in the document it can see). */
  byId(id: string): E | null;
}

export interface AccessibleTextOptions {
  /** The converter writes images (alt text): their alt is visible text, not a name to add. */
  imagesShown?: boolean;
  /**
   * Name links that have no text (default true): an image-only link reads as its images' alt,
   * an icon link as its label. Ingestion turns it off: on data/pages-dev such links are teaser
   * images, colour swatches and share icons whose names repeat the page or are chrome.
   */
  linkNames?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Escaping and the marker's output.

// Control characters and bidi overrides can hide or reorder what a reader sees.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** Collapsed, without invisible characters, and cut to MAX_ADDED_CHARS on a word boundary. */
export function cleanAddedText(text: string): string {
  const clean = text.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  if (clean.length <= MAX_ADDED_CHARS) return clean;
  const cut = clean.slice(0, MAX_ADDED_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_ADDED_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Plain text safe in Markdown: every character that could open emphasis, code, a link, an
 * HTML tag or entity, or (at the start of a line) a heading, list or quote is backslash-escaped.
 * `pipes` escapes `|` too, for a converter whose table cells do not.
 */
export function escapeAddedText(text: string, pipes = false): string {
  let out = cleanAddedText(text).replace(/[\\`*_[\]<>#~&!]/g, '\\$&');
  if (pipes) out = out.replace(/\|/g, '\\|');
  return out.replace(/^([-+=])/, '\\$1').replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2');
}

/** What the converters' turndown rule writes for a marker. */
export function renderAddition(mode: string | null, text: string, pipes = false): string {
  const escaped = escapeAddedText(text, pipes);
  if (!escaped) return '';
  return mode === 'append' ? `(${escaped})` : escaped;
}

// ---------------------------------------------------------------------------------------------
// Whether the visible text already says it: every word and number of the candidate appears.

const TOKEN = /\p{N}+(?:[.,]\p{N}+)*|\p{L}+/gu;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "1,299.00" and "1299" are one number; "19,99" is 19.99; "03" is 3. */
function normalizeNumber(token: string): string {
  if (!/^\p{N}/u.test(token)) return token;
  let t = token;
  if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(t)) t = t.replace(/,/g, '');
  else if (/^\d+,\d{1,2}$/.test(t)) t = t.replace(',', '.');
  if (/^\d{1,15}(?:\.\d+)?$/.test(t)) return String(Number(t));
  return t;
}

function tokens(text: string): string[] {
  return (text.toLowerCase().match(TOKEN) ?? []).map(normalizeNumber);
}

/** The words and numbers of a text; a month name also counts as its number (Nov = 11). */
function coverage(text: string): Set<string> {
  const set = new Set<string>();
  for (const token of tokens(text)) {
    set.add(token);
    if (token.length >= 3) {
      const month = MONTHS.findIndex((name) => name.startsWith(token));
      if (month >= 0) set.add(String(month + 1));
    }
  }
  return set;
}

const covered = (candidate: string[], seen: ReadonlySet<string>): boolean =>
  candidate.every((token) => seen.has(token));

// ---------------------------------------------------------------------------------------------
// Values: dates, meters and progress bars.

const DATETIME =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)? ?(?:Z|UTC|[+-]\d{2}:?\d{2})?)?$/i;

/** A datetime as a reader needs it: the date, and the minute when it is not midnight. */
export function compactDatetime(value: string): string {
  const v = value.trim();
  const match = DATETIME.exec(v);
  if (!match) return v;
  const [, date, time] = match;
  return time && time !== '00:00' ? `${date} ${time}` : (date ?? v);
}

const compactDate = (value: string): string => DATETIME.exec(value.trim())?.[1] ?? value.trim();

/**
 * Whether a text shows a datetime: true when it shows its date (a day either way: the
 * datetime's zone may not be the reader's), 'date' when it shows a date without the year, false
 * when it shows no date ("3 hours ago"). The time of day is not asked for: a date shown as a
 * date is enough, and a timestamp after every post is bloat.
 */
function datetimeShown(value: string, seen: ReadonlySet<string>): true | 'date' | false {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?/.exec(value.trim());
  if (!match) return covered(tokens(value), seen);
  const [year, month, day] = match.slice(1).map((part) => (part ? Number(part) : undefined));
  const hasDay =
    day === undefined || [day - 1, day, day + 1].some((d) => d > 0 && seen.has(String(d)));
  const hasDate = hasDay && seen.has(String(month));
  if (hasDate && seen.has(String(year))) return true;
  return hasDate ? 'date' : false;
}

const num = (value: string | null): number | undefined => {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
};

const fmt = (n: number): string => String(Math.round(n * 100) / 100);
const percent = (share: number): string => `${Math.round(Math.min(1, Math.max(0, share)) * 100)}%`;

/** The value of a <meter>, <progress> or ARIA range widget, as a screen reader says it. */
function rangeValue<N, E extends N>(a: AccessibleTextAdapter<N, E>, el: E): string | undefined {
  const tag = a.tag(el);
  if (tag === 'progress') {
    const value = num(a.attr(el, 'value'));
    const max = num(a.attr(el, 'max')) ?? 1;
    return value === undefined || max <= 0 ? undefined : percent(value / max);
  }
  if (tag === 'meter') {
    const value = num(a.attr(el, 'value'));
    const min = num(a.attr(el, 'min')) ?? 0;
    const max = num(a.attr(el, 'max')) ?? 1;
    if (value === undefined || max <= min) return undefined;
    const v = Math.min(max, Math.max(min, value));
    if (min === 0 && max === 1) return percent(v);
    return min === 0 ? `${fmt(v)} of ${fmt(max)}` : `${fmt(v)} (${fmt(min)}–${fmt(max)})`;
  }
  const role = a.attr(el, 'role');
  if (role !== 'meter' && role !== 'progressbar' && role !== 'slider') return undefined;
  const text = a.attr(el, 'aria-valuetext')?.trim();
  if (text) return text;
  const now = num(a.attr(el, 'aria-valuenow'));
  if (now === undefined) return undefined;
  const min = num(a.attr(el, 'aria-valuemin')) ?? 0;
  const max = num(a.attr(el, 'aria-valuemax')) ?? (role === 'progressbar' ? 100 : undefined);
  if (role === 'progressbar' && max !== undefined && max > min)
    return percent((now - min) / (max - min));
  return max === undefined ? fmt(now) : `${fmt(now)} of ${fmt(max)}`;
}

// ---------------------------------------------------------------------------------------------
// The walk.

/** Containers whose name labels a region, not content: "Reviews region" is not a review. */
const STRUCTURE_TAGS = new Set([
  'html',
  'body',
  'main',
  'nav',
  'header',
  'footer',
  'aside',
  'section',
  'article',
  'form',
  'fieldset',
  'dialog',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'ul',
  'ol',
  'dl',
  'menu',
  'figure',
  'details',
  'iframe',
  'select',
  'option',
  'optgroup',
  'textarea',
  'input',
  'label',
  'video',
  'audio',
  'canvas',
  'object',
  'embed',
  'script',
  'style',
  'template',
  'noscript',
  'head',
  'title',
]);
const STRUCTURE_ROLES = new Set([
  'banner',
  'complementary',
  'contentinfo',
  'dialog',
  'alertdialog',
  'form',
  'main',
  'navigation',
  'region',
  'search',
  'list',
  'listbox',
  'menu',
  'menubar',
  'tablist',
  'tabpanel',
  'toolbar',
  'grid',
  'table',
  'tree',
  'treegrid',
  'radiogroup',
  'feed',
  'article',
  'application',
  'document',
]);

/** Elements whose inside is never text of the page: their added text goes after them. */
const OPAQUE_TAGS = new Set(['svg', 'math', 'img', 'picture', 'meta', 'link']);
/** Subtrees whose text is not visible text. */
const NOT_TEXT_TAGS = new Set(['svg', 'math', 'script', 'style', 'template', 'noscript', 'title']);
/** Elements named by their content (an image-only link reads as its images' alt). */
const NAME_FROM_CONTENT_TAGS = new Set(['a', 'summary']);
/**
 * Controls: their names say what a click does ("Add to Watchlist", "Grid view"), not what the
 * page holds, and the converters drop <button> with its text as well. Range widgets (slider)
 * still give their value.
 */
const CONTROL_TAGS = new Set(['button']);
const CONTROL_ROLES = new Set([
  'button',
  'checkbox',
  'combobox',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'searchbox',
  'switch',
  'tab',
  'textbox',
]);
/** A title names an icon: on these tags (not on custom elements, whose titles are their own). */
const TITLED_TAGS = new Set(['a', 'b', 'div', 'em', 'i', 'small', 'span', 'strong', 'sub', 'sup']);
/**
 * Microdata properties that are bookkeeping, not content (a list item's position). A forum
 * post's interaction counter (`interactionType: LikeAction`, `userInteractionCount: 0`) is
 * too: the count a reader needs is shown ("2 Likes"), and on data/pages-dev these lines were
 * under every post of the Discourse threads (bench/content, forum F1 +0.001).
 */
const SKIPPED_PROPS = new Set([
  'position',
  'width',
  'height',
  'inLanguage',
  'encodingFormat',
  'isFamilyFriendly',
  'isAccessibleForFree',
  'requiresSubscription',
  'interactionType',
  'userInteractionCount',
]);
/** How far up shownNearby looks for a text that already says a name (a card's title)… */
const NEARBY_LEVELS = 3;
/** …in how much text at most… */
const NEARBY_MAX_CHARS = 2000;
/** …and which share of the name's words that text must show. */
const NEARBY_SHARE = 0.5;

/**
 * Phrasing elements: a label on one with text glosses that text ("9.3", "IMDb rating: 9.3").
 * On a block or a cell with text it names a region or a position ("breadcrumb", "Row 2
 * Column 1") and is left out; with no text (a ✓ in a cell) any element is named.
 */
const GLOSSED_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'cite',
  'data',
  'dfn',
  'em',
  'i',
  'mark',
  'meter',
  'output',
  'progress',
  'q',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
]);

const squashLower = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** Visible text this long is content of its own: its aria-label is a region name, not a gloss. */
const MAX_GLOSSED_TEXT = 120;
/** A title names an icon, not a container: at most this many elements inside. */
const MAX_TITLED_DESCENDANTS = 8;

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))/i;
const WORD = /[\p{L}\p{N}]/u;
/** Microdata values that are links are not text; schema.org enumerations read as their name. */
const SCHEMA_ENUM = /^https?:\/\/schema\.org\/([A-Za-z]+)$/;

/**
 * The texts to add to the tree under `root`, in document order. Hidden subtrees (aria-hidden,
 * the hidden attribute, inline display:none) add nothing; inside an element that got an
 * addition nothing more is added, its name covering its content.
 */
export function findAdditions<N, E extends N>(
  a: AccessibleTextAdapter<N, E>,
  root: E,
  options: AccessibleTextOptions = {},
): Addition<E>[] {
  const out: Addition<E>[] = [];
  const abbreviations = new Set<string>();
  const scopeText = new Map<E, Set<string>>();
  /** Words of an ancestor for shownNearby: null when too long to say, 'none' without words. */
  const nearbyWords = new Map<E, Set<string> | null | 'none'>();

  /** Not shown (the hidden attribute, inline display:none): its text is not visible text. */
  const unseen = (el: E): boolean =>
    a.attr(el, 'hidden') !== null || HIDDEN_STYLE.test(a.attr(el, 'style') ?? '');
  /** Not for screen readers either: aria-hidden text is seen, but its labels are not read. */
  const hidden = (el: E): boolean => a.attr(el, 'aria-hidden') === 'true' || unseen(el);

  /**
   * Text a sighted reader sees (with images' alt when the converter writes images); the walk
   * stops once the text is longer than `limit`.
   */
  const visibleText = (el: E, limit = Infinity): string => {
    let text = '';
    const walk = (node: N): void => {
      if (text.length > limit) return;
      const data = a.textData(node);
      if (data !== null) {
        text += data;
        return;
      }
      if (!a.isElement(node)) return;
      const tag = a.tag(node);
      if (NOT_TEXT_TAGS.has(tag) || (tag !== 'img' && unseen(node))) return;
      if (tag === 'img' && options.imagesShown) text += ` ${a.attr(node, 'alt') ?? ''} `;
      for (const child of a.childNodes(node)) walk(child);
    };
    for (const child of a.childNodes(el)) walk(child);
    return text.replace(/\s+/g, ' ').trim();
  };

  const descendantCount = (el: E, limit: number): number => {
    let count = 0;
    const walk = (node: E): void => {
      for (const child of a.childNodes(node)) {
        if (count > limit || !a.isElement(child)) continue;
        count++;
        walk(child);
      }
    };
    walk(el);
    return count;
  };

  const labelledBy = (el: E): string => {
    const ids = (a.attr(el, 'aria-labelledby') ?? '').split(/\s+/).filter(Boolean).slice(0, 8);
    // Referenced elements count even when hidden (a visually hidden heading names a list).
    return ids
      .map((id) => a.byId(id))
      .map((ref) => (ref ? (a.attr(ref, 'aria-label')?.trim() ?? '') || visibleText(ref) : ''))
      .join(' ')
      .trim();
  };

  /** The names of the images and icons inside an element with no text of its own. */
  const contentName = (el: E): string => {
    const names: string[] = [];
    const walk = (node: E): void => {
      for (const child of a.childNodes(node)) {
        if (!a.isElement(child) || hidden(child)) continue;
        const tag = a.tag(child);
        const role = a.attr(child, 'role');
        const label = a.attr(child, 'aria-label')?.trim();
        if (label) names.push(label);
        else if (tag === 'img' && role !== 'presentation' && role !== 'none')
          names.push(a.attr(child, 'alt') ?? '');
        else if (tag === 'svg') {
          const title = a.childNodes(child).find((c) => a.isElement(c) && a.tag(c) === 'title');
          if (title) names.push(visibleText(title as E));
        } else walk(child);
      }
    };
    walk(el);
    // Two images of one product (photo, hover photo) carry one alt.
    return [...new Set(names.map((name) => name.trim()).filter(Boolean))].join(' ');
  };

  /**
   * A card's image link repeats the card's title ("View title page for X", "X hover image"),
   * a link's aria-label the heading above it: the nearest text around says most of it already.
   */
  const shownNearby = (el: E, name: string): boolean => {
    // Words of three letters or more and numbers: "in" and "of" are everywhere.
    const all = tokens(name);
    const significant = all.filter((token) => token.length >= 3 || /^\p{N}/u.test(token));
    const wanted = significant.length > 0 ? significant : all;
    let up = a.parent(el);
    for (let level = 0; up && level < NEARBY_LEVELS; level++, up = a.parent(up)) {
      // Cached: the cards of a listing share their ancestors.
      let seen = nearbyWords.get(up);
      if (seen === undefined) {
        const text = visibleText(up, NEARBY_MAX_CHARS);
        seen = text.length > NEARBY_MAX_CHARS ? null : WORD.test(text) ? coverage(text) : 'none';
        nearbyWords.set(up, seen);
      }
      if (seen === null) return false;
      if (seen === 'none') continue;
      const shown = wanted.filter((token) => seen.has(token)).length;
      if (shown >= NEARBY_SHARE * wanted.length) return true;
    }
    return false;
  };

  /** aria-labelledby, then aria-label; for icons also the content's images, then the title. */
  const accessibleName = (el: E, tag: string, hasWords: boolean): string => {
    const byRef = a.attr(el, 'aria-labelledby') ? labelledBy(el) : '';
    if (byRef) return byRef;
    const label = a.attr(el, 'aria-label')?.trim();
    if (label) return label;
    if (hasWords) return '';
    if (
      !options.imagesShown &&
      (NAME_FROM_CONTENT_TAGS.has(tag) || a.attr(el, 'role') === 'link')
    ) {
      const name = contentName(el) || (tag === 'a' ? (a.attr(el, 'title')?.trim() ?? '') : '');
      if (name) return shownNearby(el, name) ? '' : name;
    }
    // A colour swatch's title repeats the option's name beside it.
    const title = a.attr(el, 'title')?.trim();
    if (
      title &&
      TITLED_TAGS.has(tag) &&
      descendantCount(el, MAX_TITLED_DESCENDANTS) <= MAX_TITLED_DESCENDANTS
    )
      return shownNearby(el, title) ? '' : title;
    return '';
  };

  /** The words of the nearest itemscope (or parent): a <meta> value they show is not added. */
  const scopeWords = (el: E): Set<string> => {
    let scope = a.parent(el);
    for (let up = scope; up; up = a.parent(up)) {
      if (a.attr(up, 'itemscope') !== null) {
        scope = up;
        break;
      }
    }
    if (!scope) return new Set();
    let words = scopeText.get(scope);
    if (!words) scopeText.set(scope, (words = coverage(visibleText(scope))));
    return words;
  };

  const microdataMeta = (el: E, tag: string): Addition<E> | undefined => {
    const prop = a.attr(el, 'itemprop')?.trim().split(/\s+/)[0];
    if (!prop || SKIPPED_PROPS.has(prop)) return undefined;
    let value = (tag === 'meta' ? a.attr(el, 'content') : a.attr(el, 'href'))?.trim() ?? '';
    const enumName = SCHEMA_ENUM.exec(value)?.[1];
    if (enumName) value = enumName;
    else if (/^(?:[a-z][a-z0-9+.-]*:|\/|\.\.?\/|#)/i.test(value) || tag === 'link')
      return undefined;
    if (DATETIME.test(value)) {
      const shown = datetimeShown(value, scopeWords(el));
      if (shown === true) return undefined;
      value = shown === 'date' ? compactDate(value) : compactDatetime(value);
    }
    const valueTokens = tokens(value);
    if (valueTokens.length === 0 || covered(valueTokens, scopeWords(el))) return undefined;
    return { el, mode: 'after', text: `${prop}: ${value}` };
  };

  /** The addition for an element; 'skip' when nothing inside it may add either. */
  const additionFor = (el: E, tag: string): Addition<E> | 'skip' | undefined => {
    if (tag === 'meta' || tag === 'link') return microdataMeta(el, tag);
    const role = a.attr(el, 'role');
    if (STRUCTURE_TAGS.has(tag) || (role && STRUCTURE_ROLES.has(role))) return undefined;
    if (tag === 'img' || tag === 'picture') return undefined;

    const range = rangeValue(a, el);
    const interesting =
      range !== undefined ||
      a.attr(el, 'aria-label') !== null ||
      a.attr(el, 'aria-labelledby') !== null ||
      a.attr(el, 'title') !== null ||
      a.attr(el, 'content') !== null ||
      tag === 'time' ||
      tag === 'data' ||
      NAME_FROM_CONTENT_TAGS.has(tag) ||
      role === 'link';
    if (!interesting) return undefined;

    const visible = tag === 'svg' || tag === 'math' ? '' : visibleText(el);
    const hasWords = WORD.test(visible);
    // An in-page anchor's icon (a heading's "¶", "Link to this section") is navigation.
    const anchor = (a.attr(el, 'href') ?? '').trim().startsWith('#');
    if ((tag === 'a' || role === 'link') && !hasWords && (options.linkNames === false || anchor))
      return 'skip';
    const seen = coverage(visible);
    const parts: string[] = [];
    const consider = (candidate: string | undefined, compare = tokens(candidate ?? '')): void => {
      const text = candidate ? cleanAddedText(candidate) : '';
      if (!text || compare.length === 0 || covered(compare, seen)) return;
      parts.push(text);
      for (const token of coverage(text)) seen.add(token);
    };

    // A long text's label names a region or restates a card: the text is the content.
    const glossable = !hasWords || visible.length <= MAX_GLOSSED_TEXT;
    let name =
      glossable && !(hasWords && !GLOSSED_TAGS.has(tag)) ? accessibleName(el, tag, hasWords) : '';
    if (name && hasWords && !covered(tokens(name), seen)) {
      // "View all posts by X" on a link reading "X" says what a click does, not more about X.
      const action =
        (tag === 'a' || role === 'link') && squashLower(name).includes(squashLower(visible));
      if (action || shownNearby(el, name)) name = '';
    }
    // An empty role=img box is a picture (a CSS background): like an <img>, its name is a
    // caption or a file name, unless it holds a number (a rating drawn in CSS).
    if (name && role === 'img' && !visible && tag !== 'svg' && !/\p{N}/u.test(name)) name = '';
    if (range !== undefined) {
      // Fallback text "3/5" says what "3 of 5" does: the numbers are compared.
      const numbers = tokens(range).filter((t) => /^\p{N}/u.test(t));
      consider(name && !covered(tokens(name), seen) ? `${name}: ${range}` : range, numbers);
    } else consider(name);

    if (tag === 'time') {
      const datetime = a.attr(el, 'datetime') ?? '';
      const shown = datetimeShown(datetime, seen);
      // The time of day only for a text with no number ("Tonight"): after "5 hours ago" the
      // date is enough.
      const exact = shown === false && !/\p{N}/u.test(visible);
      if (shown !== true) consider(exact ? compactDatetime(datetime) : compactDate(datetime));
    }
    if (tag === 'data') consider(a.attr(el, 'value') ?? undefined);
    if (tag === 'abbr') {
      const key = visible.toLowerCase();
      if (!abbreviations.has(key)) {
        abbreviations.add(key);
        consider(a.attr(el, 'title') ?? undefined);
      }
    }
    if (a.attr(el, 'itemprop') !== null) {
      const content = a.attr(el, 'content')?.trim();
      consider(content ? (SCHEMA_ENUM.exec(content)?.[1] ?? content) : undefined);
    }
    if (parts.length === 0) return undefined;
    // An icon-font <i> would make its name italic: the name goes after it.
    const mode: AdditionMode =
      OPAQUE_TAGS.has(tag) || (tag === 'i' && !hasWords)
        ? 'after'
        : hasWords
          ? 'append'
          : 'replace';
    return { el, mode, text: parts.join('; ') };
  };

  const isControl = (el: E, tag: string): boolean => {
    const role = a.attr(el, 'role');
    return (
      (CONTROL_TAGS.has(tag) || (role !== null && CONTROL_ROLES.has(role))) && role !== 'slider'
    );
  };

  const visit = (el: E): void => {
    for (const child of a.childNodes(el)) {
      if (!a.isElement(child) || hidden(child)) continue;
      const tag = a.tag(child);
      if (tag === 'script' || tag === 'style' || tag === 'template' || isControl(child, tag))
        continue;
      const addition = additionFor(child, tag);
      if (addition === 'skip') continue;
      if (addition) out.push(addition);
      else if (!OPAQUE_TAGS.has(tag)) visit(child);
    }
  };
  visit(root);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The W3C DOM (a browser page, jsdom): typed structurally, so that this package needs no DOM
// types of its own.

interface DomNode {
  readonly nodeType: number;
  readonly parentNode: DomNode | null;
  readonly childNodes: ArrayLike<DomNode>;
  readonly ownerDocument: DomDocument | null;
  textContent: string | null;
  removeChild(child: DomNode): unknown;
  insertBefore(node: DomNode, before: DomNode | null): unknown;
  appendChild(node: DomNode): unknown;
}

interface DomElement extends DomNode {
  readonly localName: string;
  readonly nextSibling: DomNode | null;
  readonly previousSibling: DomNode | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
}

interface DomDocument {
  createElement(tag: string): DomElement;
  createTextNode(text: string): DomNode;
}

export interface DomAnnotateOptions extends AccessibleTextOptions {
  /** Resolves aria-labelledby ids the element's own tree lacks (the page a copy came from). */
  byId?: (id: string) => DomElement | null;
}

/**
 * Inserts the additions into a W3C DOM tree (a copy the caller owns): each as a MARKER_TAG
 * element, spaced from the text around it.
 */
export function annotateDom<R extends DomElement>(root: R, options: DomAnnotateOptions = {}): R {
  const doc = root.ownerDocument;
  if (!doc) return root;
  let ids: Map<string, DomElement> | undefined;
  const isElement = (node: DomNode): node is DomElement => node.nodeType === 1;
  const adapter: AccessibleTextAdapter<DomNode, DomElement> = {
    isElement,
    textData: (node) => (node.nodeType === 3 ? (node.textContent ?? '') : null),
    tag: (el) => el.localName.toLowerCase(),
    attr: (el, name) => el.getAttribute(name),
    childNodes: (el) => Array.from(el.childNodes),
    parent: (el) => {
      const parent = el.parentNode;
      return parent && isElement(parent) ? parent : null;
    },
    byId: (id) => {
      if (!ids) {
        ids = new Map();
        const index = (el: DomElement): void => {
          const own = el.getAttribute('id');
          if (own && !ids?.has(own)) ids?.set(own, el);
          for (const child of Array.from(el.childNodes)) if (isElement(child)) index(child);
        };
        index(root);
      }
      return ids.get(id) ?? options.byId?.(id) ?? null;
    },
  };
  for (const addition of findAdditions(adapter, root, options)) {
    const { el, mode } = addition;
    const marker = doc.createElement(MARKER_TAG);
    marker.setAttribute(MARKER_MODE, mode);
    marker.appendChild(doc.createTextNode(cleanAddedText(addition.text)));
    if (mode === 'after') {
      const parent = el.parentNode;
      if (!parent) continue;
      const next = el.nextSibling;
      parent.insertBefore(doc.createTextNode(' '), next);
      parent.insertBefore(marker, next);
      parent.insertBefore(doc.createTextNode(' '), next);
      // A void element would keep the space before the marker at the start of a line.
      if (/^(?:meta|link)$/.test(el.localName)) parent.removeChild(el);
      else removeTexts(el);
      continue;
    }
    // Spaced from words next to it: glyphs were not words, so nothing spaced them.
    const spaceBefore = mode === 'append' || wordNext(el.previousSibling, true);
    if (mode === 'replace') removeTexts(el);
    if (spaceBefore) el.appendChild(doc.createTextNode(' '));
    el.appendChild(marker);
    if (mode === 'replace' && wordNext(el.nextSibling, false))
      el.appendChild(doc.createTextNode(' '));
  }
  return root;
}

/** Whether a sibling starts (or ends) with a word character; an element may. */
export function wordAt(text: string | null, last: boolean): boolean {
  if (text === null) return true;
  const t = last ? text.trimEnd() : text.trimStart();
  if (t.length !== text.length) return false;
  return WORD.test((last ? t.at(-1) : t[0]) ?? '');
}

const wordNext = (node: DomNode | null, last: boolean): boolean =>
  node !== null && (node.nodeType === 1 || (node.nodeType === 3 && wordAt(node.textContent, last)));

/** Drops the glyphs an added name stands for: every text node inside. */
function removeTexts(el: DomNode): void {
  for (const child of Array.from(el.childNodes)) {
    if (child.nodeType === 3) el.removeChild(child);
    else if (child.nodeType === 1) removeTexts(child);
  }
}
