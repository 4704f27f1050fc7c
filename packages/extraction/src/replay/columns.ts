// Table columns bound to their header text. A rule learned as "the 2nd cell" reads whatever
// column is 2nd on the next page; with the learned header row kept, replay finds each field's
// column by its header: a column moved or one inserted is followed, a header row that is
// entirely renamed (same column count) is read by position with a warning, and a table whose
// headers only partly match declines, since its columns cannot be told apart.
import type { Root } from './dom';
import { selectAll } from './dom';
import { fieldElement } from './read';
import type { FieldRule, ReplayRecipe } from './recipe';
import { normalizeText } from './values';

const CELLS = new Set(['td', 'th']);

/** A row of header cells only: it reads no field by design, so it is not an empty item. */
export function isHeaderRow(el: Element): boolean {
  return (
    el.localName === 'tr' &&
    el.children.length > 0 &&
    [...el.children].every((cell) => cell.localName === 'th')
  );
}

/** The header texts of the table a row is in, or null without a plain header row. */
export function headerRow(row: Element): string[] | null {
  const table = row.closest('table');
  if (!table) return null;
  const rows = [...table.querySelectorAll('tr')].filter((tr) => tr.closest('table') === table);
  const head =
    rows.find((tr) => tr.parentElement?.localName === 'thead') ??
    rows.find(
      (tr) => tr.children.length > 0 && [...tr.children].every((cell) => cell.localName === 'th'),
    );
  if (!head) return null;
  const cells = [...head.children];
  if (
    cells.some(
      (cell) => !CELLS.has(cell.localName) || Number(cell.getAttribute('colspan') ?? 1) > 1,
    )
  )
    return null;
  return cells.map((cell) => normalizeText(cell.textContent ?? ''));
}

/**
 * The learning page's header row and each field's column in it, for a list whose rules read
 * cells of its rows; null when the items are not table rows under a header row.
 */
export function learnColumns(
  containers: readonly Element[],
  fields: Record<string, FieldRule>,
): { headers: string[]; fields: Record<string, FieldRule> } | null {
  const [first] = containers;
  if (!first || first.localName !== 'tr') return null;
  const headers = headerRow(first);
  if (!headers || new Set(headers.map((h) => h.toLowerCase())).size !== headers.length) return null;
  const bound: Record<string, FieldRule> = {};
  let any = false;
  for (const [name, rule] of Object.entries(fields)) {
    const columns = new Set(
      containers.slice(0, 20).map((row) => {
        const el = fieldElement(row, rule);
        return el && el.parentElement === row && CELLS.has(el.localName)
          ? [...row.children].indexOf(el)
          : -1;
      }),
    );
    const [column] = columns;
    if (columns.size === 1 && column !== undefined && column >= 0 && column < headers.length) {
      bound[name] = { ...rule, column };
      any = true;
    } else bound[name] = rule;
  }
  return any ? { headers, fields: bound } : null;
}

const key = (text: string) => text.toLowerCase();

/**
 * The recipe with its column rules pointed at this page's columns (see the file comment), and
 * what changed; or why the page's table does not fit the learned one.
 */
export function bindColumns(
  root: Root,
  recipe: ReplayRecipe,
): { recipe: ReplayRecipe; warnings: string[] } | { problem: string } {
  const learned = recipe.headers;
  if (!learned || recipe.container === null) return { recipe, warnings: [] };
  const [row] = selectAll(root, recipe.container);
  if (!row) return { recipe, warnings: [] };
  const headers = headerRow(row);
  if (!headers)
    return {
      problem: `the table has no header row to find the learned columns (${learned.join(', ')}) by`,
    };
  const at = new Map(headers.map((text, i) => [key(text), i]));
  const bound = Object.entries(recipe.fields).filter(([, rule]) => rule.column !== undefined);
  const found = bound.filter(([, rule]) => at.has(key(learned[rule.column as number] ?? '')));
  if (found.length === 0 && headers.length === learned.length) {
    if (headers.join('|') === learned.join('|')) return { recipe, warnings: [] };
    return {
      recipe,
      warnings: [
        `The table's headers changed (${learned.join(', ')} → ${headers.join(', ')}); its columns were read by position.`,
      ],
    };
  }
  if (found.length < bound.length) {
    const lost = bound
      .filter(([, rule]) => !at.has(key(learned[rule.column as number] ?? '')))
      .map(([name, rule]) => `${name} under "${learned[rule.column as number]}"`);
    return {
      problem: `the table's headers (${headers.join(', ')}) lack the learned column(s) ${lost.join(', ')}`,
    };
  }
  const moved: string[] = [];
  const fields: Record<string, FieldRule> = { ...recipe.fields };
  for (const [name, rule] of bound) {
    const header = learned[rule.column as number] ?? '';
    const column = at.get(key(header)) as number;
    if (column === rule.column) continue;
    const el = fieldElement(row, { selector: rule.selector });
    const tag = el && CELLS.has(el.localName) ? el.localName : 'td';
    fields[name] = { ...rule, selector: `:scope > ${tag}:nth-child(${column + 1})`, column };
    moved.push(`${name} ("${header}") from column ${(rule.column as number) + 1} to ${column + 1}`);
  }
  if (moved.length === 0) return { recipe, warnings: [] };
  return {
    recipe: { ...recipe, fields },
    warnings: [`The table's columns moved; followed their headers: ${moved.join(', ')}.`],
  };
}
