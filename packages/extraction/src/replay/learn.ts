// Learning a recipe from what the model extracted on a page: find the values on the page,
// derive selectors, then prove the recipe by replaying it on the same page. A recipe that
// cannot reproduce the model's answer here (98% of fields) would not be trusted elsewhere.
import { applyRecipe } from './apply';
import { learnColumns } from './columns';
import { alignContainers } from './containers';
import { chooseContainerSelector } from './container-selector';
import type { Root } from './dom';
import { rootElement, selectAll } from './dom';
import { entityWords } from './entity';
import type { FieldExample } from './field-rules';
import { learnFieldRule } from './field-rules';
import type { ListPlaces } from './items';
import { locateItems } from './items';
import { buildIndex } from './locate';
import { adMark, learnExclusion, leftOutBeside } from './negatives';
import { headingBetween, listHeading, namedByUrl } from './sections';
import { learnObjectRules } from './object-rules';
import { readField } from './read';
import type { FieldRule, ReplayRecipe } from './recipe';
import { readRecipe } from './recipe';
import type { FieldSpec } from './schema-shape';
import { readShape } from './schema-shape';
import { spotCheck } from './spot-check';
import { normalizeText, sameValue } from './values';
import { ownValue } from '../json';

/** Share of the learned items' fields the replay must reproduce on the learning page. */
export const AGREEMENT = 0.98;
/** Share of the items (with a value) in which a field must be found, and read back right. */
export const FIELD_COVERAGE = 0.9;

type Learned = { recipe: ReplayRecipe } | { reason: string };

export interface LearnOptions {
  /**
   * The data was read off this page on an earlier visit (a collecting task's saved items), not
   * by the model now: a card beside the items may have been added since, so one the recipe
   * would leave out makes learning decline rather than count as a look-alike the model skipped.
   */
  fromEarlierVisit?: boolean;
  /** The learning page's URL: whether it names the list's heading (recipe.headingInUrl). */
  url?: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The longest string value: no longer text can equal a value, so none is indexed. */
function longestValue(items: readonly Record<string, unknown>[]): number {
  let longest = 5; // "false": booleans are found by their words
  for (const item of items) {
    for (const value of Object.values(item)) {
      if (typeof value === 'string') longest = Math.max(longest, normalizeText(value).length);
    }
  }
  return Math.min(longest, 10_000);
}

/** Why the values could not be placed well enough to learn from, or null. */
function placementProblem(places: ListPlaces, fields: readonly FieldSpec[]): string | null {
  const total = places.items.length;
  const placed = places.items.filter(Boolean).length;
  if (placed < FIELD_COVERAGE * total)
    return `only ${placed} of ${total} items could be found on the page`;
  for (const { name } of fields) {
    const stat = places.stats.get(name);
    if (!stat || stat.withValue === 0) {
      return `field "${name}" has no value in any item, so there is no place to learn it from`;
    }
    if (stat.found >= FIELD_COVERAGE * stat.withValue) continue;
    if (stat.outside > stat.found) {
      return `field "${name}": its values are on the page but not inside one container per item (${stat.outside} of ${stat.withValue}); the items do not look like a list of cards or rows`;
    }
    return `field "${name}": found in ${stat.found} of ${stat.withValue} items (values not on the page?)`;
  }
  return null;
}

/**
 * Whether the rules read back enough of the model's fields: `agree` per field counts the
 * placed items whose value the rule reads exactly; every other item's field is a miss.
 */
function verify(items: number, agree: Map<string, number>): string | null {
  const total = items * agree.size;
  const misses = [...agree.entries()].map(([name, n]) => [name, items - n] as const);
  const disagree = misses.reduce((sum, [, n]) => sum + n, 0);
  if (total - disagree >= AGREEMENT * total) return null;
  const detail = misses
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} in ${n}`)
    .join(', ');
  return `the replay disagrees with the model in ${disagree} of ${total} fields (${detail}); at most ${Math.floor((1 - AGREEMENT) * total)} may`;
}

function learnRules(
  fields: readonly FieldSpec[],
  items: readonly Record<string, unknown>[],
  places: ListPlaces,
  containers: readonly (Element | null)[],
): { rules: Record<string, FieldRule>; agree: Map<string, number> } | string {
  const rules: Record<string, FieldRule> = {};
  const agree = new Map<string, number>();
  for (const spec of fields) {
    const examples = items.flatMap((item, i): FieldExample[] => {
      const container = containers[i];
      const place = places.items[i]?.fields.get(spec.name);
      return container ? [{ container, place, value: item[spec.name] }] : [];
    });
    const learned = learnFieldRule(spec, examples);
    if ('reason' in learned) return learned.reason;
    if (learned.agree < FIELD_COVERAGE * examples.length) {
      return `field "${spec.name}": the best selector (${JSON.stringify(learned.rule.selector)}) reads the model's value in only ${learned.agree} of ${examples.length} items`;
    }
    rules[spec.name] = learned.rule;
    agree.set(spec.name, learned.agree);
  }
  return { rules, agree };
}

/**
 * The items without exact repeats. A repeat is either the model listing an item twice (its
 * copy has no card of its own and would count as a miss) or a product the page shows twice
 * (the replay reads both cards anyway), so learning from one copy loses nothing.
 */
function distinct(
  items: readonly Record<string, unknown>[],
  fields: readonly FieldSpec[],
): Record<string, unknown>[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(fields.map(({ name }) => ownValue(item, name) ?? null));
    return !seen.has(key) && !!seen.add(key);
  });
}

function learnList(
  root: Root,
  given: unknown,
  fields: readonly FieldSpec[],
  options: LearnOptions,
): Learned {
  if (!Array.isArray(given) || given.length === 0) {
    return { reason: 'there are no items to learn from' };
  }
  if (!given.every(isRecord)) return { reason: 'the data is not an array of objects' };
  const data = distinct(given, fields);
  const top = rootElement(root);
  if (!top) return { reason: 'the document is empty' };
  const places = locateItems(buildIndex(root, longestValue(data)), data, fields, top);
  const unplaced = placementProblem(places, fields);
  if (unplaced) return { reason: unplaced };
  const aligned = alignContainers(places.items);
  if ('reason' in aligned) return aligned;
  const { containers } = aligned;
  const learned = learnRules(fields, data, places, containers);
  if (typeof learned === 'string') return { reason: learned };
  const { rules, agree } = learned;
  const disagreement = verify(data.length, agree);
  if (disagreement) return { reason: disagreement };
  const placed = containers.filter((el): el is Element => el !== null);
  const container = chooseContainerSelector(root, placed, Object.values(rules));
  if ('reason' in container) return container;
  const matched = selectAll(root, container.selector);
  const excluded = learnExclusion(matched, placed, rules);
  if ('reason' in excluded) return excluded;
  const { exclusion } = excluded;
  const left = options.fromEarlierVisit ? leftOutBeside(placed, matched, exclusion, rules) : null;
  if (left) {
    const text = normalizeText(left.textContent ?? '').slice(0, 80);
    return {
      reason: `a card beside the items ("${text}") is not one the recipe reads, and the items come from an earlier visit: it may be an item added since`,
    };
  }
  // At most what the recipe schema keeps: more marks would only make the replay decline.
  const marks = [...new Set(placed.flatMap((el) => adMark(el) ?? []))].slice(0, 20);
  const heading = listHeading(placed, matched);
  const columns = learnColumns(placed, rules);
  return {
    recipe: {
      version: 1,
      kind: 'list',
      container: container.selector,
      fields: columns?.fields ?? rules,
      ...(columns ? { headers: columns.headers } : {}),
      itemsSeen: data.length,
      entity: entityWords(root),
      ...(exclusion.text !== undefined || exclusion.className !== undefined
        ? { exclude: exclusion }
        : {}),
      ...(headingBetween(placed, matched) ? { sectioned: true as const } : {}),
      heading,
      ...(namedByUrl(heading, options.url) ? { headingInUrl: true as const } : {}),
      ...(marks.length > 0 ? { itemMarks: marks } : {}),
    },
  };
}

function learnObject(root: Root, data: unknown, fields: readonly FieldSpec[]): Learned {
  if (!isRecord(data)) return { reason: 'the data is not an object' };
  const top = rootElement(root);
  if (!top) return { reason: 'the document is empty' };
  const learned = learnObjectRules(root, buildIndex(root, longestValue([data])), data, fields);
  if ('reason' in learned) return learned;
  const agree = new Map(
    Object.entries(learned.fields).map(([name, rule]) => [
      name,
      Number(sameValue(ownValue(data, name), readField(top, rule))),
    ]),
  );
  const disagreement = verify(1, agree);
  if (disagreement) return { reason: disagreement };
  return {
    recipe: { version: 1, kind: 'object', container: null, fields: learned.fields, itemsSeen: 1 },
  };
}

/**
 * Learns a recipe from data the model extracted from this document: values are located
 * (locate.ts, items.ts), item containers found (containers.ts), field and item selectors
 * derived (field-rules.ts, container-selector.ts; object-rules.ts for one object), and the
 * recipe replayed here and spot-checked. Null, with the reason, when the schema is not one
 * replay handles or the values cannot be located consistently; the model is used then.
 */
export function learnRecipe(
  root: Root,
  data: unknown,
  schema: Record<string, unknown>,
  options: LearnOptions = {},
): { recipe: ReplayRecipe } | { recipe: null; reason: string } {
  const shape = readShape(schema);
  if ('reason' in shape) return { recipe: null, reason: shape.reason };
  const learned =
    shape.kind === 'list'
      ? learnList(root, data, shape.fields, options)
      : learnObject(root, data, shape.fields);
  if ('reason' in learned) return { recipe: null, reason: learned.reason };
  const checked = readRecipe(learned.recipe);
  if (!checked.recipe) return { recipe: null, reason: checked.reason };
  const replay = applyRecipe(root, checked.recipe);
  const spot = spotCheck(root, checked.recipe, replay.data);
  if (spot)
    return {
      recipe: null,
      reason: `the recipe fails its spot check on the page it was learned from: ${spot}`,
    };
  return { recipe: checked.recipe };
}
