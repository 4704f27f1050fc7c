// The spot check: cheap, independent evidence that a replay still fits this page, before its
// data is trusted with zero model tokens. The caller validates the data against the schema
// with zod as well; this checks what only the recipe and the page can tell.
import { runList, runObject, selectorProblems, type ReplayRow } from './apply';
import { EMPTY_SHARE } from './container-selector';
import type { Root } from './dom';
import { rootElement, selectAll, stableClasses } from './dom';
import { bindColumns, isHeaderRow } from './columns';
import { entityProblem, entityWords } from './entity';
import { adMark, isAdWord } from './negatives';
import { sectionProblem } from './sections';
import { fieldElement, readField } from './read';
import type { FieldRule, ReplayRecipe } from './recipe';
import { readRecipe } from './recipe';
import { hasType, isPartOfNumber, normalizeText, sameValue } from './values';
import { ownValue } from '../json';

/** A selector catching fewer than this share of its look-alike siblings has lost items. */
const LOOKALIKE_SHARE = 0.5;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Required fields present, present fields typed (null only where the schema allows it). */
function typeProblem(
  item: Record<string, unknown>,
  fields: Record<string, FieldRule>,
  where: string,
): string | null {
  for (const [name, rule] of Object.entries(fields)) {
    const value = ownValue(item, name);
    if (value === undefined) {
      if (rule.required) return `${where} lacks the required field "${name}"`;
      continue;
    }
    if (value === null ? !rule.nullable : !hasType(value, rule.type)) {
      return `${where}: "${name}" is ${JSON.stringify(value)}, not a ${rule.type}`;
    }
  }
  return null;
}

/**
 * The item's values, read again from the page: each comes from an element with text (or the
 * attribute) inside the container, whose text contains it, and reads as exactly that value.
 */
function pageProblem(
  container: Element,
  item: Record<string, unknown>,
  fields: Record<string, FieldRule>,
  where: string,
): string | null {
  const containerText = normalizeText(container.textContent ?? '');
  for (const [name, rule] of Object.entries(fields)) {
    const value = ownValue(item, name);
    if (value === undefined || value === null) continue;
    const el = fieldElement(container, rule);
    if (!el)
      return `${where}: no element for "${name}" (selector ${JSON.stringify(rule.selector)})`;
    if (rule.source === 'text') {
      const text = normalizeText(el.textContent ?? '');
      if (!text) return `${where}: the element of "${name}" has no text`;
      const parent = el === container ? null : el.parentElement;
      if (rule.type !== 'string' && parent && parent !== container) {
        if (isPartOfNumber(text, parent.textContent ?? ''))
          return `${where}: "${name}" reads ${JSON.stringify(text)}, part of the number ${JSON.stringify(normalizeText(parent.textContent ?? ''))}`;
      }
      if (!containerText.includes(text))
        return `${where}: the text of "${name}" is not in its container`;
    }
    if (!sameValue(value, readField(container, rule))) {
      return `${where}: "${name}" is ${JSON.stringify(value)} but the page reads ${JSON.stringify(readField(container, rule))}`;
    }
  }
  return null;
}

/** A selector naming elements by tag and position only ("span", "div > span"). */
const isBare = (selector: string): boolean => !/[.[]/.test(selector);

/**
 * A text field whose rule is a bare tag selector reads the first of its matches; that is the
 * value only while it is the one candidate: matches with text, other than the elements the
 * other fields read (and what is inside or around them). A badge in a bare <span> before the
 * name makes two, and the first is the badge.
 */
function ambiguousField(container: Element, fields: Record<string, FieldRule>): string | null {
  // An attribute read takes its element only, not the text inside it: a card's own
  // data-job-id does not make every bare tag in the card ambiguous.
  const others = (name: string) =>
    Object.entries(fields).flatMap(([other, rule]) => {
      const el = other === name ? null : fieldElement(container, rule);
      return el ? [{ el, text: rule.source === 'text' }] : [];
    });
  for (const [name, rule] of Object.entries(fields)) {
    if (rule.type !== 'string' || rule.source !== 'text' || rule.selector === null) continue;
    // A cell whose column was found by its header text is not ambiguous.
    if (!isBare(rule.selector) || rule.column !== undefined) continue;
    const taken = others(name);
    const isTaken = (el: Element) =>
      taken.some(
        (other) =>
          other.el === el || (other.text && (other.el.contains(el) || el.contains(other.el))),
      );
    const read = fieldElement(container, rule);
    if (read && isTaken(read)) {
      return `"${name}": its selector ${JSON.stringify(rule.selector)} names elements by tag and position only and reads here what another field reads (${JSON.stringify(normalizeText(read.textContent ?? '').slice(0, 30))})`;
    }
    // A badge after the value ("Promoted" beside a title) is no other candidate for it: the
    // advert check judges the mark. One before it is, since the rule then reads the badge.
    const readsMark = read !== null && isAdWord(read);
    const candidates = selectAll(container, rule.selector).filter(
      (el) =>
        normalizeText(el.textContent ?? '') !== '' && !isTaken(el) && (readsMark || !isAdWord(el)),
    );
    if (candidates.length > 1) {
      return `"${name}": its selector ${JSON.stringify(rule.selector)} names elements by tag only and matches ${candidates.length} candidates here (${candidates
        .slice(0, 3)
        .map((el) => JSON.stringify(normalizeText(el.textContent ?? '').slice(0, 30)))
        .join(', ')}), one when learned`;
    }
  }
  return null;
}

/** Siblings of the matched containers that look like them (see spotCheck, check 7). */
function lookalikes(matched: readonly Element[]): number {
  const [first] = matched;
  if (!first) return 0;
  const classes = stableClasses(first).filter((name) =>
    matched.every((el) => el.classList.contains(name)),
  );
  const parents = new Set(matched.map((el) => el.parentElement));
  let count = 0;
  for (const parent of parents) {
    for (let el = parent?.firstElementChild ?? null; el; el = el.nextElementSibling) {
      if (el.localName !== first.localName) continue;
      if (classes.length === 0 || classes.some((name) => el.classList.contains(name))) count++;
    }
  }
  return count;
}

/** What a passed check verified on this page, in short plain words (the result's evidence). */
type Evidence = string[];

/** The decimal marks the recipe's number fields were read with, as evidence. */
function decimalEvidence(fields: Record<string, FieldRule>): Evidence {
  const marks = new Set(Object.values(fields).flatMap((rule) => rule.decimal ?? []));
  return [...marks].map((mark) => `decimal mark '${mark}'`);
}

/** What the page's title and the items' heading share with the learning page's, as evidence. */
function subjectEvidence(root: Root, recipe: ReplayRecipe): Evidence {
  const shared = entityWords(root).find((word) => recipe.entity?.includes(word));
  return [
    ...(shared ? [`title shares '${shared}'`] : []),
    ...(recipe.heading ? [`items under a heading like '${recipe.heading.slice(0, 60)}'`] : []),
  ];
}

/** What the caller knows of the page beyond the recipe. */
export interface SpotCheckOptions {
  /**
   * Items the model took as items of this list on another visit (a collecting run's saved
   * items that this page shows again). A container reading exactly one of them, field by
   * field, is that item: an advert mark on it ("Promoted", on a job repeated from the page
   * before) is the item's own, as the recipe's itemMarks are. An advert reads none of them.
   */
  known?: readonly unknown[];
  /** This page's URL: a list headed by what its URL names (recipe.headingInUrl, sections.ts). */
  url?: string | null;
}

/** Whether the row reads exactly one of the known items, in every field of the recipe. */
function readsKnown(
  row: ReplayRow,
  fields: Record<string, FieldRule>,
  known: readonly unknown[],
): boolean {
  return known.some(
    (item) =>
      isRecord(item) &&
      Object.keys(fields).every((name) =>
        sameValue(ownValue(item, name), ownValue(row.item, name)),
      ),
  );
}

/**
 * Why one of the rows read cannot be trusted as an item: a field its bare selector may read
 * wrong, or an advert mark neither the learning page's items nor a known item carried.
 */
function rowsProblem(
  rows: readonly ReplayRow[],
  recipe: ReplayRecipe,
  known: readonly unknown[],
  evidence: Evidence,
): string | null {
  let knownMarked = 0;
  for (const [i, row] of rows.entries()) {
    const ambiguous = ambiguousField(row.container, recipe.fields);
    if (ambiguous) return `item ${i + 1}: ${ambiguous}`;
    const mark = adMark(row.container);
    if (!mark || recipe.itemMarks?.includes(mark)) continue;
    if (!readsKnown(row, recipe.fields, known))
      return `item ${i + 1} is marked as an advert (${mark}), which the learning page did not show: the model tells ads from items`;
    knownMarked++;
  }
  if (knownMarked > 0)
    evidence.push(`${knownMarked} marked item(s) read exactly as items collected before`);
  return null;
}

function listProblem(
  root: Root,
  learned: ReplayRecipe,
  data: unknown,
  evidence: Evidence,
  options: SpotCheckOptions,
): string | null {
  const columns = bindColumns(root, learned);
  if ('problem' in columns) return columns.problem;
  const { recipe } = columns;
  const entity = entityProblem(root, recipe.entity);
  if (entity) return entity;
  const { rows, warnings } = runList(root, recipe);
  if (rows.length === 0)
    return `the item selector "${recipe.container}" matches nothing on this page (the layout changed?)`;
  // Text where a number belongs that does not read in the learned format (another locale, an
  // ambiguous "1.908") would be a wrong or missing value: the model reads this page instead.
  const [unreadable] = warnings;
  if (unreadable)
    return `a field's text does not read as the learned type and format: ${unreadable}`;
  if (!Array.isArray(data) || data.length === 0) return 'the replay found no item';
  const kept = rows.filter((row) => row.filled > 0);
  const empty = rows.filter((row) => row.filled === 0 && !isHeaderRow(row.container)).length;
  if (empty > EMPTY_SHARE * rows.length) {
    return `${empty} of ${rows.length} containers matched by "${recipe.container}" read no field`;
  }
  const marked = rowsProblem(kept, recipe, options.known ?? [], evidence);
  if (marked) return marked;
  const divided = sectionProblem(root, recipe, kept, options.url);
  if (divided) return divided;
  if (data.length !== kept.length) {
    return `the data has ${data.length} items but the page has ${kept.length} (not this recipe's replay of this page?)`;
  }
  for (const [i, item] of data.entries()) {
    const problem = isRecord(item)
      ? typeProblem(item, recipe.fields, `item ${i + 1}`)
      : `item ${i + 1} is not an object`;
    if (problem) return problem;
  }
  for (const i of new Set([0, Math.floor(data.length / 2), data.length - 1])) {
    const row = kept[i];
    const problem =
      row &&
      pageProblem(
        row.container,
        data[i] as Record<string, unknown>,
        recipe.fields,
        `item ${i + 1}`,
      );
    if (problem) return problem;
  }
  const alike = lookalikes(rows.map((row) => row.container));
  if (rows.length < LOOKALIKE_SHARE * alike) {
    return `"${recipe.container}" matches ${rows.length} elements but ${alike} look-alike siblings exist (items lost?)`;
  }
  const reread = new Set([0, Math.floor(data.length / 2), data.length - 1]).size;
  evidence.push(`${data.length} items, one per container`, `${reread} items re-read`);
  // The learned rules name the learned header of each column (bindColumns re-points them).
  const bound = Object.values(learned.fields).flatMap((rule) =>
    rule.column === undefined ? [] : [learned.headers?.[rule.column] ?? ''],
  );
  if (bound.length > 0) evidence.push(`columns bound to headers: ${bound.join(', ')}`);
  evidence.push(...decimalEvidence(recipe.fields));
  const excluded =
    recipe.exclude && recipe.container !== null
      ? selectAll(root, recipe.container).length - rows.length
      : 0;
  if (excluded > 0) {
    const mark = recipe.exclude?.text ?? `class "${recipe.exclude?.className ?? ''}"`;
    evidence.push(`look-alikes excluded: ${excluded} marked ${mark}`);
  }
  evidence.push(...subjectEvidence(root, recipe), `no advert marks on the items but their own`);
  return null;
}

function objectProblem(
  root: Root,
  recipe: ReplayRecipe,
  data: unknown,
  evidence: Evidence,
): string | null {
  const scope = rootElement(root);
  if (!scope || !isRecord(data)) return 'the replay produced no object';
  const [unreadable] = runObject(root, recipe).warnings;
  if (unreadable)
    return `a field's text does not read as the learned type and format: ${unreadable}`;
  if (!Object.values(data).some((value) => value !== null && value !== undefined))
    return 'the replay found no field';
  const typed = typeProblem(data, recipe.fields, 'the object');
  if (typed) return typed;
  for (const [name, rule] of Object.entries(recipe.fields)) {
    const matches = rule.selector === null ? 1 : selectAll(root, rule.selector).length;
    if (matches > 1)
      return `"${name}": its selector matches ${matches} elements here, one when learned (a list page?)`;
  }
  const problem = pageProblem(scope, data, recipe.fields, 'the object');
  if (problem) return problem;
  evidence.push(
    `${Object.keys(recipe.fields).length} fields re-read`,
    'each field selector matches one element',
    ...decimalEvidence(recipe.fields),
  );
  return null;
}

/**
 * Whether a replay's data can be trusted on this page: null when it can, else the reason.
 * `data` is what applyRecipe returned on this page. Checks, in order:
 * 1. the recipe is well-formed (ReplayRecipeSchema) and its selectors parse.
 * For a list:
 * 2. the item selector matches at least one element, and the data has at least one item;
 * 3. at most 20% of the matched containers read no field;
 * 4. the data has one item per container that reads a field (it is this page's replay);
 * 5. every item has every required field, and each field present has the rule's type (null
 *    only where the schema allows it);
 * 6. the first, middle and last items, read again: each value comes from an element with
 *    non-empty text (or from the attribute) inside its container, the container's text
 *    contains that text, and it reads as exactly the item's value;
 * 7. the item selector matches at least half of the look-alikes: the matched containers'
 *    siblings with the same tag and a stable class in common with them (any same-tag sibling
 *    when they have no class). A selector that still catches 3 of 40 cards has lost the rest.
 * Also: no advert mark the learning page's items did not show (but on an item that reads
 * exactly as one of `options.known`), no bare field selector that may read another element
 * than the value, no heading newly dividing the items, and the items sit under the learning
 * page's heading (sections.ts).
 * For an object: the data has at least one field; checks 5 and 6 on it; and no field's
 * selector matches more than one element (it matched one when learned: a page matching
 * several is not a page of the learned kind).
 */
export function spotCheck(
  root: Root,
  recipe: ReplayRecipe,
  data: unknown,
  options: SpotCheckOptions = {},
): string | null {
  return spotCheckWithEvidence(root, recipe, data, options).problem;
}

/**
 * The spot check, with what it verified when it passed: the evidence a replayed result carries,
 * taken from the checks that ran rather than described after the fact.
 */
export function spotCheckWithEvidence(
  root: Root,
  recipe: ReplayRecipe,
  data: unknown,
  options: SpotCheckOptions = {},
): { problem: string; evidence?: undefined } | { problem: null; evidence: string[] } {
  const read = readRecipe(recipe);
  if (!read.recipe) return { problem: read.reason };
  const problems = selectorProblems(root, read.recipe);
  if (problems.length > 0) return { problem: problems.join('; ') };
  const evidence: Evidence = [];
  const problem =
    read.recipe.kind === 'list'
      ? listProblem(root, read.recipe, data, evidence, options)
      : objectProblem(root, read.recipe, data, evidence);
  return problem === null ? { problem: null, evidence } : { problem };
}
