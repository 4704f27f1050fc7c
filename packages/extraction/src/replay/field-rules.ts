// A field's selector relative to its item container. Candidates are built from the paths
// between the containers and the places the values were found (short ones first: the tag and
// classes of the element itself, then with its parent, then the full path from the container
// with positions), and the one that reads back the model's values in most items wins. Judging
// candidates by the values they read, not by the elements they hit, is what lets a misspelt
// value or a field missing from a few items not spoil the rule for the others.
import type { Located } from './locate';
import type { FieldRule } from './recipe';
import type { FieldSpec } from './schema-shape';
import { rawField, readField } from './read';
import {
  cssString,
  hasSameTagSibling,
  intersect,
  NAMING_ATTRS,
  nthChild,
  nthOfType,
  stableClasses,
  tagOf,
} from './dom';
import { isLoneNumber, learnDecimalMark, normalizeText, numberReadings, sameValue } from './values';

/** One learned item, as seen by one field. */
export interface FieldExample {
  container: Element;
  /** Where the item's value was found (absent: no value, or not found). */
  place: Located | undefined;
  /** The model's value. */
  value: unknown;
}

/** Examples a candidate is first scored on; the winner is then checked on all of them. */
const SAMPLE = 40;
const CELLS = new Set(['td', 'th']);

interface Step {
  tag: string;
  classes: string[];
  /** Set when the same in every example. */
  nthChild: number | null;
  nthOfType: number | null;
  /** Some example has a sibling of the same tag here: a path needs a position. */
  crowded: boolean;
  /** Naming attributes with one value in every example. */
  attrs: [string, string][];
}

function pathOf(container: Element, el: Element): Element[] {
  const path: Element[] = [];
  for (let node: Element | null = el; node && node !== container; node = node.parentElement)
    path.push(node);
  return path.reverse();
}

const same = (values: number[]): number | null =>
  values.every((v) => v === values[0]) ? (values[0] ?? null) : null;

function stepsOf(paths: readonly Element[][]): Step[] {
  const first = paths[0] ?? [];
  return first.map((el, depth) => {
    const column = paths.map((path) => path[depth]).filter((node): node is Element => !!node);
    const attrs = NAMING_ATTRS.flatMap((name): [string, string][] => {
      const value = el.getAttribute(name);
      return value && column.every((node) => node.getAttribute(name) === value)
        ? [[name, value]]
        : [];
    });
    return {
      tag: tagOf(el),
      classes: intersect(column.map(stableClasses)),
      nthChild: same(column.map(nthChild)),
      nthOfType: same(column.map(nthOfType)),
      crowded: column.some(hasSameTagSibling),
      attrs,
    };
  });
}

const plain = (step: Step): string => step.tag + step.classes.map((name) => `.${name}`).join('');

function positional(step: Step): string | null {
  if (CELLS.has(step.tag) && step.nthChild !== null)
    return `${step.tag}:nth-child(${step.nthChild})`;
  return step.nthOfType === null ? null : `${plain(step)}:nth-of-type(${step.nthOfType})`;
}

function candidatesFor(steps: readonly Step[]): string[] {
  const last = steps.at(-1);
  if (!last) return [];
  const parent = steps.at(-2);
  const lastAt = positional(last);
  const out = [plain(last), lastAt];
  if (parent)
    out.push(`${plain(parent)} > ${plain(last)}`, lastAt && `${plain(parent)} > ${lastAt}`);
  out.push(...last.attrs.map(([name, value]) => `${last.tag}[${name}=${cssString(value)}]`));
  const chain = steps.map((step) =>
    step.crowded ? (positional(step) ?? plain(step)) : plain(step),
  );
  out.push(`:scope > ${chain.join(' > ')}`);
  return out.filter((candidate): candidate is string => !!candidate);
}

/** Shorter is more likely to survive another page; positions and :scope are brittle. */
function cost(selector: string | null): number {
  if (selector === null) return 0;
  return (
    selector.length +
    6 * (selector.match(/:nth-/g)?.length ?? 0) +
    4 * Number(selector.startsWith(':scope'))
  );
}

function spread<T>(list: readonly T[], count: number): T[] {
  if (list.length <= count) return [...list];
  return Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)] as T);
}

/** Selectors to try: from the paths of the commonest shapes (tag sequences) of paths. */
function selectorCandidates(examples: readonly FieldExample[]): (string | null)[] {
  const groups = new Map<string, Element[][]>();
  for (const { container, place } of examples) {
    if (!place) continue;
    const path = pathOf(container, place.el);
    const shape = path.map((el) => el.localName).join('>');
    const group = groups.get(shape);
    if (group) group.push(path);
    else groups.set(shape, [path]);
  }
  const shapes = [...groups.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, 3);
  const out = new Set<string | null>();
  for (const [shape, paths] of shapes) {
    if (shape === '') out.add(null);
    else for (const candidate of candidatesFor(stepsOf(spread(paths, 50)))) out.add(candidate);
  }
  return [...out];
}

function agreement(
  rule: Omit<FieldRule, 'required' | 'nullable'>,
  examples: readonly FieldExample[],
): number {
  return examples.filter(({ container, value }) => sameValue(value, readField(container, rule)))
    .length;
}

/** The source most examples were found in: the element's text, or one attribute. */
function majoritySource(examples: readonly FieldExample[]): string | null {
  const counts = new Map<string, number>();
  for (const { place } of examples)
    if (place) counts.set(place.attr ?? '', (counts.get(place.attr ?? '') ?? 0) + 1);
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  return best ? best[0] : null;
}

/**
 * The decimal mark the rule's texts are written with, judged by the model's values: later
 * pages are read in that format, so a page in another locale declines instead of misreading.
 */
function numberFormat(
  rule: FieldRule,
  examples: readonly FieldExample[],
): FieldRule['decimal'] | undefined {
  if (rule.type !== 'number' && rule.type !== 'integer') return undefined;
  const read = examples.flatMap(({ container, value }) => {
    const text = typeof value === 'number' ? rawField(container, rule) : null;
    return text === null ? [] : [{ text, value: value as number }];
  });
  return learnDecimalMark(read);
}

/**
 * A number's place widened to the element below the container whose whole text is that number
 * (with its currency mark): a price written "$<span>219</span>" on one page may be
 * "$<span>219</span><sup>.99</sup>" on the next, and only the whole element reads it right.
 */
function wholeNumberPlace(example: FieldExample): FieldExample {
  const { container, place } = example;
  if (!place || place.attr !== null) return example;
  const value = numberReadings(normalizeText(place.el.textContent ?? ''));
  let el = place.el;
  for (
    let parent = el.parentElement;
    parent && parent !== container;
    parent = parent.parentElement
  ) {
    // Up while the parent adds to the number (a currency mark, more digits of it); a wrapper
    // adding nothing is as good as the element, and fewer levels survive more layouts.
    const text = normalizeText(parent.textContent ?? '');
    if (text === normalizeText(el.textContent ?? '')) break;
    if (!isLoneNumber(text) || !numberReadings(text).some((n) => value.includes(n))) break;
    el = parent;
  }
  return el === place.el ? example : { ...example, place: { ...place, el } };
}

/** The rule reading this field, and in how many examples it agrees with the model. */
export function learnFieldRule(
  spec: FieldSpec,
  given: readonly FieldExample[],
): { rule: FieldRule; agree: number } | { reason: string } {
  const numeric = spec.type === 'number' || spec.type === 'integer';
  const examples = numeric ? given.map(wholeNumberPlace) : given;
  const source = majoritySource(examples);
  if (source === null)
    return { reason: `field "${spec.name}": no value of it was found on the page` };
  const attr = source === '' ? undefined : source;
  const fromSource = examples.filter(({ place }) => place && (place.attr ?? '') === source);
  const sample = spread(examples, SAMPLE);
  let best: { rule: FieldRule; score: number } | null = null;
  const ordered = selectorCandidates(fromSource).sort((a, b) => cost(a) - cost(b));
  for (const selector of ordered) {
    const rule: FieldRule = {
      selector,
      source: attr ? 'attr' : 'text',
      ...(attr ? { attr } : {}),
      type: spec.type,
    };
    const score = agreement(rule, sample);
    if (!best || score > best.score) best = { rule, score };
    // Candidates come cheapest first: none after a perfect one can beat it.
    if (score === sample.length) break;
  }
  if (!best) return { reason: `field "${spec.name}": no selector reaches its values` };
  const decimal = numberFormat(best.rule, examples);
  const rule: FieldRule = {
    ...best.rule,
    ...(decimal ? { decimal } : {}),
    required: spec.required,
    nullable: spec.nullable,
  };
  return { rule, agree: agreement(rule, examples) };
}
