// Tables for Markdown (docs/specs.md, "structure-aware chunking"): every data table becomes a
// rectangle with exactly one header row, so the converter (converter.ts) can write it as a GFM
// table, and the page snapshot's tree and HTML formats show rows of equal width. Pages and
// documents leave <thead> out, write short rows and span cells across rows and columns; GFM has
// none of that, and turndown-plugin-gfm kept such tables as raw HTML or wrote rows of different
// widths.
//
// Rules, in the order a table meets them:
// - Layout tables are left as they are and read as text, cell after cell: a table holding
//   another table (a GFM cell cannot hold a table, so normalising the outer one would crush
//   the inner one into one line), a table with role=presentation/none, a table of a single
//   cell (a box around text), and a table with no cell at all.
// - Spans are expanded by repeating the cell into every slot it covers (see expandRow).
// - Short rows are padded with empty cells to the widest row; rows with no cell are dropped.
// - The header row is the first <thead>'s rows merged column by column (a two-level header
//   "Q1" over "Jan" gives "Q1 Jan"), or else the table's first row, moved into a new <thead>.
//   Its cells become <th>.
// - <tfoot> rows come after the body rows (where the browser draws them), <caption>s first.
// - A table whose normalised grid would add more than MAX_ADDED_CELLS cells is left alone too.
// Runs in the page and over jsdom or domino alike: standard DOM calls only.

/** HTML's own span limits: a browser lays out no wider or taller span, so neither do we. */
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;
/**
 * Cells normalisation may add to one table (span copies and padding). A hostile page can ask
 * for a 1000-column span in each of thousands of rows; past this budget the table is read as
 * text instead, which costs no more than the page's own cells.
 */
const MAX_ADDED_CELLS = 20_000;

const SECTION_TAGS = new Set(['thead', 'tbody', 'tfoot']);

/**
 * An element's child elements. Walked by sibling rather than read from `children`: jsdom's
 * HTMLCollection costs ~100x more per item, which is seconds on a 5,000-row table.
 */
export function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let child = el.firstElementChild; child; child = child.nextElementSibling) out.push(child);
  return out;
}

const cellsOf = (row: Element): Element[] =>
  childElements(row).filter((el) => el.localName === 'td' || el.localName === 'th');

const rowsOf = (section: Element): Element[] =>
  childElements(section).filter((el) => el.localName === 'tr');

/** Tables that lay out a page rather than hold data, whatever their shape. */
export function isLayoutTable(table: Element): boolean {
  const role = table.getAttribute('role');
  // `!= null`: domino's querySelector answers undefined, not null, when nothing matches.
  return role === 'presentation' || role === 'none' || table.querySelector('table') != null;
}

const PARTS: Record<string, ReadonlySet<string>> = {
  table: new Set(['caption', 'colgroup', 'thead', 'tbody', 'tfoot', 'tr']),
  thead: new Set(['tr']),
  tbody: new Set(['tr']),
  tfoot: new Set(['tr']),
  tr: new Set(['td', 'th']),
};

/** An element with nothing to read: the empty <form> the parser leaves between rows. */
const isEmpty = (el: Element): boolean =>
  (el.textContent ?? '').trim() === '' &&
  el.localName !== 'img' &&
  el.localName !== 'picture' &&
  !el.querySelector('img, picture');

/**
 * Content outside any cell: an element a table part cannot hold, or text between rows. The
 * parser never leaves any (it moves it before the table) but scripts can put it there; such a
 * table is read as text rather than lose that content. Empty ones are dropped (dropEmptyStrays).
 */
function hasStrayContent(el: Element): boolean {
  const allowed = PARTS[el.localName];
  if (!allowed) return false;
  for (let node = el.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 3 && (node as Text).data.trim() !== '') return true;
    if (node.nodeType !== 1) continue;
    const child = node as Element;
    if (allowed.has(child.localName) ? hasStrayContent(child) : !isEmpty(child)) return true;
  }
  return false;
}

function dropEmptyStrays(el: Element): void {
  const allowed = PARTS[el.localName];
  if (!allowed) return;
  for (const child of childElements(el)) {
    if (allowed.has(child.localName)) dropEmptyStrays(child);
    else child.remove();
  }
}

/**
 * Whether `table` has the shape normalizeTables gives a data table: captions and column
 * groups, a <thead> with one row, then <tbody>/<tfoot>s, every row with the same number of
 * cells and no span, nothing else but whitespace. Renderers write such a table as a table and
 * any other as text.
 */
export function isGridTable(table: Element): boolean {
  if (isLayoutTable(table) || hasStrayContent(table)) return false;
  const parts = childElements(table);
  const sections = parts.filter((el) => SECTION_TAGS.has(el.localName));
  const front = parts.slice(0, parts.length - sections.length);
  if (front.some((el) => el.localName !== 'caption' && el.localName !== 'colgroup')) return false;
  const [head, ...rest] = sections;
  if (head?.localName !== 'thead' || rowsOf(head).length !== 1) return false;
  if (rest.some((el) => el.localName === 'thead')) return false;
  const rows = sections.flatMap(rowsOf);
  const width = cellsOf(rows[0] as Element).length;
  if (width === 0 || (rows.length === 1 && width === 1)) return false;
  return rows.every(
    (row) =>
      row.childElementCount === width &&
      cellsOf(row).every((cell) => !cell.hasAttribute('colspan') && !cell.hasAttribute('rowspan')),
  );
}

/** Normalises every data table under `root` in place (see the rules at the top). */
export function normalizeTables(root: Element): void {
  // Array.from, not a spread: domino's collections (ingestion, in Node) are not iterable. A
  // snapshot, as normalizing may move nested tables. getElementsByTagName, not
  // querySelectorAll: domino's selector engine took three quarters of this function's time.
  for (const table of Array.from(root.getElementsByTagName('table'))) normalizeTable(table);
}

// ---------------------------------------------------------------------------------------------
// The grid: which cell covers each slot, by HTML's table model (simplified: spans stop at the
// end of their row group, a slot two cells claim goes to the first).

interface Grid {
  /** The table's rows in rendering order, rows without any cell left out. */
  rows: Element[];
  /** slots[r][c]: the cell covering row r, column c; undefined where the row is short. */
  slots: (Element | undefined)[][];
  width: number;
  /** How many of `rows` come from the header <thead>. */
  headRows: number;
  /** Cells the page wrote. */
  source: number;
}

interface Sections {
  head: Element | undefined;
  /** Rows of each row group in rendering order: head, bodies and bare rows, feet. */
  groups: Element[][];
}

function sectionsOf(table: Element): Sections {
  let head: Element | undefined;
  const bodies: Element[][] = [];
  const feet: Element[][] = [];
  let bare: Element[] | undefined;
  for (const el of childElements(table)) {
    if (el.localName !== 'tr') bare = undefined;
    if (el.localName === 'tr') {
      if (!bare) bodies.push((bare = []));
      bare.push(el);
    } else if (el.localName === 'thead' && !head && rowsOf(el).length > 0) head = el;
    else if (el.localName === 'tfoot') feet.push(rowsOf(el));
    else if (SECTION_TAGS.has(el.localName)) bodies.push(rowsOf(el));
  }
  return { head, groups: [...(head ? [rowsOf(head)] : []), ...bodies, ...feet] };
}

function spanOf(cell: Element, name: string, max: number): number {
  const value = parseInt(cell.getAttribute(name) ?? '', 10);
  return Number.isNaN(value) || value < 0 ? 1 : Math.min(value, max);
}

/**
 * Places a row's cells in the slots left free by rowspans from above. A spanning cell is
 * repeated into every slot it covers rather than leaving them empty: a reader of one row (a
 * model reading row 7 of a Markdown table) must find the spanned value in that row itself.
 * Returns the slots still allowed by the budget, negative when it ran out.
 */
function expandRow(group: Element[], r: number, lines: (Element | undefined)[][], budget: number) {
  const line = lines[r] as (Element | undefined)[];
  let col = 0;
  for (const cell of cellsOf(group[r] as Element)) {
    while (line[col] !== undefined) col++;
    const colspan = Math.max(1, spanOf(cell, 'colspan', MAX_COLSPAN));
    const left = group.length - r;
    const rowspan = spanOf(cell, 'rowspan', MAX_ROWSPAN) || left; // 0: to the group's end
    const height = Math.min(rowspan, left);
    budget -= colspan * height;
    if (budget < 0) return budget;
    for (let dr = 0; dr < height; dr++) {
      const target = lines[r + dr] as (Element | undefined)[];
      for (let dc = 0; dc < colspan; dc++) target[col + dc] ??= cell;
    }
    col += colspan;
  }
  return budget;
}

function buildGrid({ head, groups }: Sections): Grid | undefined {
  let source = 0;
  for (const group of groups) for (const row of group) source += cellsOf(row).length;
  let budget = source + MAX_ADDED_CELLS;
  const grid: Grid = { rows: [], slots: [], width: 0, headRows: 0, source };
  groups.forEach((group, g) => {
    const lines = group.map((): (Element | undefined)[] => []);
    for (let r = 0; r < group.length && budget >= 0; r++) {
      budget = expandRow(group, r, lines, budget);
    }
    lines.forEach((line, r) => {
      if (line.length === 0) return;
      grid.rows.push(group[r] as Element);
      grid.slots.push(line);
      grid.width = Math.max(grid.width, line.length);
      if (g === 0 && head) grid.headRows++;
    });
  });
  if (budget < 0 || grid.rows.length * grid.width - source > MAX_ADDED_CELLS) return undefined;
  return grid;
}

// ---------------------------------------------------------------------------------------------
// Rewriting the table from its grid.

/** `el` as a `tag` element: same attributes and children, in the same place. */
function retag(el: Element, tag: string): Element {
  if (el.localName === tag) return el;
  const copy = el.ownerDocument.createElement(tag);
  for (const attr of Array.from(el.attributes)) copy.setAttribute(attr.name, attr.value);
  while (el.firstChild) copy.appendChild(el.firstChild);
  el.replaceWith(copy);
  return copy;
}

/** A repeated cell: same content, without the span or an id that would now appear twice. */
function copyCell(cell: Element): Element {
  const copy = cell.cloneNode(true) as Element;
  copy.removeAttribute('id');
  return copy;
}

/** The cells row r gets, width of them: its own, copies of spanning ones, empty padding. */
function rowCells(grid: Grid, r: number): Element[] {
  const row = grid.rows[r] as Element;
  const line = grid.slots[r] as (Element | undefined)[];
  const placed = new Set<Element>();
  const cells: Element[] = [];
  for (let c = 0; c < grid.width; c++) {
    const cell = line[c];
    if (!cell) cells.push(row.ownerDocument.createElement('td'));
    else if (cell.parentElement === row && !placed.has(cell)) {
      placed.add(cell);
      cells.push(cell);
    } else cells.push(copyCell(cell));
  }
  for (const cell of cells) {
    cell.removeAttribute('colspan');
    cell.removeAttribute('rowspan');
  }
  return cells;
}

/**
 * Header rows after the first are folded into it, column by column: each header cell gets the
 * text of the distinct cells above and below it ("Q1" spanning "Jan" and "Feb" gives "Q1 Jan"
 * and "Q1 Feb"), as GFM has a single header row.
 */
function mergeHeader(grid: Grid, cells: Element[][]): void {
  const header = cells[0] as Element[];
  header.forEach((th, c) => {
    const seen = new Set<Element | undefined>([grid.slots[0]?.[c]]);
    for (let r = 1; r < grid.headRows; r++) {
      const cell = grid.slots[r]?.[c];
      if (!cell || seen.has(cell)) continue;
      seen.add(cell);
      if (th.firstChild) th.appendChild(th.ownerDocument.createTextNode(' '));
      for (let child = cell.firstChild; child; child = child.nextSibling) {
        th.appendChild(child.cloneNode(true));
      }
    }
  });
  for (let r = 1; r < grid.headRows; r++) grid.rows[r]?.remove();
}

/** A text node that keeps the words of neighbouring cells apart in textContent. */
const space = (doc: Document, text: string): Text => doc.createTextNode(text);

/**
 * Puts the table's parts in GFM order: captions first, then the header <thead>, the bodies
 * (bare rows wrapped in a <tbody>, later <thead>s retagged as bodies) and the <tfoot>s last,
 * a line break between parts. Rows without a cell go (`keep` holds the others).
 */
function arrange(table: Element, head: Element | undefined, keep: ReadonlySet<Element>): void {
  const doc = table.ownerDocument;
  const captions: Element[] = [];
  const columns: Element[] = [];
  const bodies: Element[] = [];
  const feet: Element[] = [];
  let bare: Element | undefined;
  for (const el of childElements(table)) {
    if (el.localName !== 'tr') bare = undefined;
    if (el.localName === 'tr') {
      if (!bare) bodies.push((bare = doc.createElement('tbody')));
      bare.appendChild(el);
    } else if (el.localName === 'caption') captions.push(el);
    else if (el.localName === 'colgroup') columns.push(el);
    else if (el.localName === 'tfoot') feet.push(el);
    else if (el !== head) bodies.push(retag(el, 'tbody'));
  }
  const sections = [...(head ? [head] : []), ...bodies, ...feet];
  for (const section of sections) {
    for (const row of rowsOf(section)) if (!keep.has(row)) row.remove();
  }
  const parts = [...captions, ...columns, ...sections];
  // By hand rather than replaceChildren, which domino lacks.
  while (table.firstChild) table.removeChild(table.firstChild);
  for (const part of parts) {
    table.appendChild(space(doc, '\n'));
    table.appendChild(part);
  }
  table.appendChild(space(doc, '\n'));
}

/** Moves the header row into the <thead> (made when missing) as the only header row. */
function placeHeader(table: Element, grid: Grid, head: Element | undefined): Element {
  const headerRow = grid.rows[0] as Element;
  if (!head) {
    head = table.ownerDocument.createElement('thead');
    const firstSection = childElements(table).find((el) => SECTION_TAGS.has(el.localName));
    table.insertBefore(head, firstSection ?? null);
    table.insertBefore(space(table.ownerDocument, '\n'), firstSection ?? null);
  }
  const from = headerRow.parentElement;
  head.appendChild(headerRow);
  if (from && from !== head && !from.firstElementChild) from.remove();
  return headerRow;
}

/**
 * Gives `row` exactly `cells`, in order. The row's own cells stay where they are with the
 * whitespace around them, so an unchanged row keeps its markup; new ones go in after a space.
 */
function fillRow(row: Element, cells: Element[]): void {
  let next: ChildNode | null = row.firstChild;
  for (const cell of cells) {
    if (cell.parentNode === row) {
      next = cell.nextSibling;
      continue;
    }
    row.insertBefore(space(row.ownerDocument, ' '), next);
    row.insertBefore(cell, next);
  }
  const wanted = new Set(cells);
  for (const child of cellsOf(row)) if (!wanted.has(child)) child.remove();
}

function normalizeTable(table: Element): void {
  if (isLayoutTable(table) || hasStrayContent(table)) return;
  const sections = sectionsOf(table);
  const grid = buildGrid(sections);
  // One cell is a box around text, not a table; a failed budget leaves the page's own cells.
  if (!grid || grid.width === 0 || (grid.rows.length === 1 && grid.source <= 1)) return;
  dropEmptyStrays(table);
  // All new cells first: copies must be taken before header cells are retagged below.
  const cells = grid.rows.map((_, r) => rowCells(grid, r));
  arrange(table, sections.head, new Set(grid.rows));
  if (grid.headRows > 1) mergeHeader(grid, cells);
  const headerRow = placeHeader(table, grid, sections.head);
  fillRow(
    headerRow,
    (cells[0] as Element[]).map((cell) => retag(cell, 'th')),
  );
  for (let r = Math.max(1, grid.headRows); r < grid.rows.length; r++) {
    fillRow(grid.rows[r] as Element, cells[r] as Element[]);
  }
}
