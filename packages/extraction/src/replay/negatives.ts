// Look-alikes the model left out. On the learning page the item selector may match containers
// that are not answers ("Sponsored" tiles in the same card markup): learning binds the recipe
// to what told the model's items from those (a text or class only the skipped ones carry), and
// replay leaves out the containers that carry it. An advert that the learning page did not
// show cannot have been learned, so a container marked as one makes the replay decline.
import { isHeaderRow } from './columns';
import type { FieldRule } from './recipe';
import { rawField, readField } from './read';
import { normalizeText } from './values';

/** What marks a container the model skipped on the learning page. */
export interface Exclusion {
  /** The whole text of an element inside it ("Sponsored"). */
  text?: string;
  /** A class on it or inside it ("sponsored"). */
  className?: string;
}

/** Leaf texts longer than this are content, not a marker. */
const MARKER_LENGTH = 40;
/** How pages mark an advert, in the languages shops are written in. */
const AD_WORDS = new Set([
  'ad',
  'ads',
  'advert',
  'advertisement',
  'sponsored',
  'promoted',
  'anzeige',
  'gesponsert',
  'werbung',
  'sponsorisé',
  'publicité',
  'patrocinado',
  'publicidad',
  'sponsorizzato',
  'pubblicità',
]);
const AD_CLASS = /(?:^|[-_])(?:sponsor(?:ed)?|advert(?:isement)?|ad|ads|promoted)(?:$|[-_])/i;

function* inside(container: Element): Generator<Element> {
  yield container;
  for (const el of container.querySelectorAll('*')) yield el;
}

/** The short texts of the leaf elements inside a container. */
function leafTexts(container: Element): Set<string> {
  const out = new Set<string>();
  for (const el of inside(container)) {
    if (el.firstElementChild) continue;
    const text = normalizeText(el.textContent ?? '');
    if (text && text.length <= MARKER_LENGTH) out.add(text);
  }
  return out;
}

function classesIn(container: Element): Set<string> {
  const out = new Set<string>();
  for (const el of inside(container)) for (const name of el.classList) out.add(name);
  return out;
}

/** A value of every negative's set that no positive has, shortest first; null when none. */
function distinguishing(
  negatives: readonly Set<string>[],
  positives: readonly Set<string>[],
): string | null {
  const [first, ...rest] = negatives;
  if (!first) return null;
  const found = [...first]
    .filter((value) => rest.every((set) => set.has(value)))
    .filter((value) => positives.every((set) => !set.has(value)))
    .sort(
      (a, b) =>
        Number(!AD_WORDS.has(a.toLowerCase())) - Number(!AD_WORDS.has(b.toLowerCase())) ||
        a.length - b.length ||
        a.localeCompare(b),
    );
  return found[0] ?? null;
}

/**
 * What tells the containers the model skipped from its items: {} when it skipped none that read
 * as an item (or only ones with nothing of their own: items it missed), a reason when it skipped
 * adverts and nothing tells them apart (replaying would return them as items).
 */
export function learnExclusion(
  matched: readonly Element[],
  items: readonly Element[],
  rules: Record<string, FieldRule>,
): { exclusion: Exclusion } | { reason: string } {
  const answers = new Set(items);
  const negatives = matched.filter(
    (el) => !answers.has(el) && Object.values(rules).some((rule) => readField(el, rule) !== null),
  );
  if (negatives.length === 0) return { exclusion: {} };
  // A marker is what the look-alikes say about themselves, not one look-alike's name or price
  // (an advert word stays one even where a bare name rule happens to read it).
  const values = new Set(
    negatives.flatMap((el) =>
      Object.values(rules).map((rule) => normalizeText(rawField(el, rule) ?? '')),
    ),
  );
  const markers = (el: Element) =>
    new Set(
      [...leafTexts(el)].filter(
        (text) => !/\d/.test(text) && (AD_WORDS.has(text.toLowerCase()) || !values.has(text)),
      ),
    );
  const text = distinguishing(negatives.map(markers), items.map(leafTexts));
  if (text !== null) return { exclusion: { text } };
  const className = distinguishing(negatives.map(classesIn), items.map(classesIn));
  if (className !== null) return { exclusion: { className } };
  // Look-alikes with nothing of their own are most likely items the model missed: the replay
  // reads them as items, as it should. Marked adverts that cannot be told apart must not be.
  const ads = negatives.flatMap((el) => adMark(el) ?? []);
  if (ads.length === 0) return { exclusion: {} };
  return {
    reason: `the item selector also matches ${negatives.length} container(s) the model left out, marked as adverts (${ads[0]}), and no text or class tells them from its items`,
  };
}

/** Whether a container carries the learned mark of a skipped look-alike. */
export function isExcluded(container: Element, exclusion: Exclusion | undefined): boolean {
  if (!exclusion) return false;
  const { text, className } = exclusion;
  if (className !== undefined && classesIn(container).has(className)) return true;
  return text !== undefined && leafTexts(container).has(text);
}

/** Whether an element's whole text is an advert mark ("Sponsored"), as adMark finds them. */
export function isAdWord(el: Element): boolean {
  return AD_WORDS.has(normalizeText(el.textContent ?? '').toLowerCase());
}

/** The advert mark a container carries ("Sponsored", class "ad-slot"), or null. */
export function adMark(container: Element): string | null {
  for (const text of leafTexts(container)) if (AD_WORDS.has(text.toLowerCase())) return text;
  for (const name of classesIn(container)) if (AD_CLASS.test(name)) return `class "${name}"`;
  return null;
}

/**
 * The cards of the list a container sits in: from it up through wrappers that hold nothing else
 * (a card's <li>), the list is the parent above; its cards are the elements at the same path
 * under each of the list's children.
 */
function cardsBeside(container: Element): Element[] {
  const path: string[] = [container.localName];
  let slot = container;
  while (slot.parentElement && slot.parentElement.childElementCount === 1) {
    slot = slot.parentElement;
    path.unshift(slot.localName);
  }
  let level: Element[] = slot.parentElement ? [slot.parentElement] : [];
  for (const tag of path)
    level = level.flatMap((el) => [...el.children].filter((child) => child.localName === tag));
  return level;
}

/**
 * A card in the list of the given items that the recipe leaves out (its item selector does not
 * match it, or its exclusion does) and that reads as an item: when the items come from an
 * earlier visit of the page, it may be an item added since, which the replay would skip. Cards
 * marked as adverts are not items either way. Null when there is none.
 */
export function leftOutBeside(
  items: readonly Element[],
  matched: readonly Element[],
  exclusion: Exclusion,
  rules: Record<string, FieldRule>,
): Element | null {
  const kept = new Set(matched.filter((el) => !isExcluded(el, exclusion)));
  const beside = new Set<Element>();
  // An item already among the cards found is in a list already walked: each list once.
  for (const item of items)
    if (!beside.has(item)) for (const card of cardsBeside(item)) beside.add(card);
  for (const el of beside) {
    if (kept.has(el) || isHeaderRow(el) || adMark(el) !== null) continue;
    if (Object.values(rules).some((rule) => readField(el, rule) !== null)) return el;
  }
  return null;
}
