// Running a recipe: the answer without the model. Deterministic (document order, the recipe's
// field order), and it never throws on a page: a selector that no longer fits yields nothing,
// and the spot check and the schema then send the page to the model.
import type { Root } from './dom';
import { rootElement, selectAll, selectorError } from './dom';
import { bindColumns, isHeaderRow } from './columns';
import { isExcluded } from './negatives';
import { formatOf, rawField } from './read';
import type { FieldRule, ReplayRecipe } from './recipe';
import { readRecipe } from './recipe';
import { convert, normalizeText } from './values';
import { setOwn } from '../json';

export interface ReplayRow {
  container: Element;
  item: Record<string, unknown>;
  /** Fields that read a value (nulls written for nullable fields do not count). */
  filled: number;
}

interface Unreadable {
  count: number;
  example: string;
}

function readItem(
  scope: Element,
  fields: Record<string, FieldRule>,
  unreadable: Map<string, Unreadable>,
): { item: Record<string, unknown>; filled: number } {
  const item: Record<string, unknown> = {};
  let filled = 0;
  for (const [name, rule] of Object.entries(fields)) {
    const raw = rawField(scope, rule);
    const value = raw === null ? null : convert(raw, rule.type, formatOf(scope, rule));
    if (value !== null) {
      setOwn(item, name, value);
      filled++;
      continue;
    }
    if (rule.nullable) setOwn(item, name, null);
    const text = raw === null ? '' : normalizeText(raw);
    if (text) {
      const seen = unreadable.get(name);
      if (seen) seen.count++;
      else unreadable.set(name, { count: 1, example: text.slice(0, 40) });
    }
  }
  return { item, filled };
}

function unreadableWarnings(
  unreadable: Map<string, Unreadable>,
  fields: Record<string, FieldRule>,
): string[] {
  return [...unreadable.entries()].map(
    ([name, { count, example }]) =>
      `${name}: ${count} item(s) had text that is not a ${fields[name]?.type ?? 'value'} (e.g. ${JSON.stringify(example)})`,
  );
}

/** Every container the recipe matches, with what it reads (empty ones included). */
export function runList(
  root: Root,
  recipe: ReplayRecipe,
): { rows: ReplayRow[]; warnings: string[] } {
  const unreadable = new Map<string, Unreadable>();
  const matched = recipe.container === null ? [] : selectAll(root, recipe.container);
  const containers = matched.filter((el) => !isExcluded(el, recipe.exclude));
  const rows = containers.map((container) => ({
    container,
    ...readItem(container, recipe.fields, unreadable),
  }));
  return { rows, warnings: unreadableWarnings(unreadable, recipe.fields) };
}

export function runObject(
  root: Root,
  recipe: ReplayRecipe,
): { item: Record<string, unknown>; filled: number; warnings: string[] } {
  const unreadable = new Map<string, Unreadable>();
  const scope = rootElement(root);
  if (!scope) return { item: {}, filled: 0, warnings: ['the document is empty'] };
  const read = readItem(scope, recipe.fields, unreadable);
  return { ...read, warnings: unreadableWarnings(unreadable, recipe.fields) };
}

/** Reasons the recipe's selectors do not even parse (a corrupted or foreign recipe). */
export function selectorProblems(root: Root, recipe: ReplayRecipe): string[] {
  const selectors = [
    recipe.container,
    ...Object.values(recipe.fields).map((rule) => rule.selector),
  ];
  return selectors.flatMap((selector) =>
    selector === null ? [] : (selectorError(root, selector) ?? []),
  );
}

/**
 * Runs a recipe on a page. 'list': one item per matched container that reads at least one
 * field, in document order (containers reading nothing are skipped and counted in a warning);
 * 'object': one object. Fields not found are left out, or null when the schema allows null.
 */
export function applyRecipe(
  root: Root,
  recipe: ReplayRecipe,
): { data: unknown; items: number; warnings: string[] } {
  const read = readRecipe(recipe);
  if (!read.recipe) return { data: null, items: 0, warnings: [read.reason] };
  const checked = read.recipe;
  const empty = checked.kind === 'list' ? [] : {};
  const problems = selectorProblems(root, checked);
  if (problems.length > 0) return { data: empty, items: 0, warnings: problems };
  if (checked.kind === 'object') {
    const { item, filled, warnings } = runObject(root, checked);
    return { data: item, items: filled > 0 ? 1 : 0, warnings };
  }
  const columns = bindColumns(root, checked);
  if ('problem' in columns) return { data: [], items: 0, warnings: [columns.problem] };
  const { rows, warnings } = runList(root, columns.recipe);
  warnings.unshift(...columns.warnings);
  const kept = rows.filter((row) => row.filled > 0);
  if (rows.length === 0)
    warnings.unshift(`the item selector "${checked.container}" matches nothing`);
  const skipped = rows.filter((row) => row.filled === 0 && !isHeaderRow(row.container)).length;
  if (skipped > 0) {
    warnings.unshift(
      `${skipped} of ${rows.length} matched containers read no field and were skipped`,
    );
  }
  return { data: kept.map((row) => row.item), items: kept.length, warnings };
}
