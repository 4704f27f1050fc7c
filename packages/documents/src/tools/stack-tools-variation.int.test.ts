// Generated model answers for the stacks agent's write tools, as for the document tools
// (document-tools-variation.int.test.ts): columns with made-up or repeated names and unknown
// types, rows with cells of the wrong type, blank text, impossible dates, a column too many or
// one short, confidences missing or out of 0..1, document ids of another user's document or of
// none, a cell update without its value, arguments that are no object, tools that do not
// exist. Each call runs as the tool loop runs it (runToolCall) against the real libSQL store.
// What users rely on:
// - every fault comes back to the model as a tool error, never as a failed run;
// - a refused call changes nothing stored (the columns, the rows, the status);
// - an accepted row or cell stored exactly what the model sent, typed as its column says;
// - a completed table has a row for every one of its documents, and only for them, each
//   fitting the columns as they are when it completes.
// The expectations come from the generated calls, never from the code under test.
import type { StackColumnType } from '@tandem/contracts';
import type { LlmToolCall } from '@tandem/llm';
import { createLibsqlStore, type Store } from '@tandem/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsedToolCall } from '../testing/tool-call';
import { runToolCall } from '../tool-agent';
import { createStackTools } from './stack-tools';
import type { AgentTool } from './tool';

const SEED = 37;
const RUNS = 200;
const TENANT = 'tenant-s';
const USER = 'user-s';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const TYPES: StackColumnType[] = ['string', 'number', 'integer', 'boolean', 'date'];

/** A value of each type, and values that fit none or another. */
const cellOf: Record<StackColumnType, fc.Arbitrary<Json>> = {
  string: fc.constantFrom('Acme Ltd', 'INV-0042', 'Ω ü 名', '=HYPERLINK("x")'),
  number: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  integer: fc.integer({ min: -1000, max: 100_000 }),
  boolean: fc.boolean(),
  date: fc.constantFrom('2024-05-01', '1999-12-31'),
};
const oddCell: fc.Arbitrary<Json> = fc.constantFrom(
  '',
  '   ',
  '2024-02-30',
  '01/05/2024',
  '1,240.50',
  1.5,
  'true',
  [1, 2],
  { amount: 1 },
);

const columnName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('vendor', 'total', 'date', 'paid', 'items', 'invoice') },
  { weight: 1, arbitrary: fc.constantFrom('constructor', 'toString', 'valueOf') },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', '', ' total', 'a.b', '$where', '7') },
);

/** Columns a table may start with: distinct names a model uses, each with a type. */
const goodColumns = fc.uniqueArray(
  fc.record({
    name: fc.constantFrom('vendor', 'total', 'date', 'paid', 'items', 'invoice', 'constructor'),
    type: fc.constantFrom(...TYPES),
  }),
  { minLength: 1, maxLength: 5, selector: (c) => c.name },
);

/** What define_columns is sent: mostly good columns, sometimes names or types no table takes. */
const columnsArb = fc.oneof(
  { weight: 3, arbitrary: goodColumns },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record({
        name: columnName,
        type: fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom(...TYPES) },
          { weight: 1, arbitrary: fc.constant('money') },
        ),
      }),
      { minLength: 0, maxLength: 5 },
    ),
  },
);

/** Which document a call names: one of the table's, another of the user's, or none. */
const docArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(0, 1).map((i) => ({ table: i })) },
  { weight: 1, arbitrary: fc.constantFrom('outside', 'missing', '').map((other) => ({ other })) },
);
type DocPick = { table: number } | { other: string };

/** How a row's cells are made from the table's columns when the call runs. */
const rowArb = fc.record({
  typed: fc.array(fc.nat(), { maxLength: 6 }),
  fault: fc.constantFrom(
    ...['none', 'none', 'none', 'odd cell', 'null cell', 'extra column', 'one short'],
    ...['no confidence', 'confidence out of range'],
  ),
  odd: oddCell,
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  seed: fc.nat(),
});

type RowSpec = typeof rowArb extends fc.Arbitrary<infer R> ? R : never;

type CallSpec =
  | { tool: 'define_columns'; columns: { name: string; type: string }[] }
  | { tool: 'extract_row'; doc: DocPick; row: RowSpec }
  | {
      tool: 'update_cell';
      doc: DocPick;
      column: number | string;
      value: Json | undefined;
      confidence: number;
    }
  | { tool: 'complete_table' | 'get_table_state' | 'list_documents' }
  | { tool: 'unknown' | 'bad args' };

const callArb: fc.Arbitrary<CallSpec> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({ tool: fc.constant('define_columns' as const), columns: columnsArb }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ tool: fc.constant('extract_row' as const), doc: docArb, row: rowArb }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      tool: fc.constant('update_cell' as const),
      doc: docArb,
      column: fc.oneof(fc.nat(), fc.constantFrom('unknown', '__proto__')),
      value: fc.oneof(
        { weight: 4, arbitrary: fc.oneof(...TYPES.map((t) => cellOf[t])) },
        { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
        { weight: 1, arbitrary: oddCell },
      ),
      confidence: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(-1, 2)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      tool: fc.constantFrom(
        'complete_table' as const,
        'get_table_state' as const,
        'list_documents' as const,
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ tool: fc.constantFrom('unknown' as const, 'bad args' as const) }),
  },
);

interface Table {
  columns: { name: string; type: StackColumnType }[];
}

let store: Store;
let tableDocs: string[];
let outsideDoc: string;
beforeAll(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  const doc = (userId: string, n: number) =>
    store.documents.create(TENANT, {
      userId,
      fileName: `invoice-${n}.pdf`,
      title: `Invoice ${n}`,
      mimeType: 'application/pdf',
      sizeBytes: 40,
      pages: [{ number: 1, text: `Invoice ${n} from Acme Ltd, total 1,240.50` }],
      status: 'ready',
    });
  tableDocs = [(await doc(USER, 1)).id, (await doc(USER, 2)).id];
  // The same user's document, not in the table; and another user's.
  outsideDoc = (await doc(USER, 3)).id;
  await doc('user-other', 4);
});
afterAll(() => store.close());

const docId = (pick: DocPick): string =>
  'table' in pick
    ? (tableDocs[pick.table] as string)
    : pick.other === 'outside'
      ? outsideDoc
      : pick.other;

/** A row's cells and confidences for the table's columns, with the call's one fault. */
function rowFor(table: Table, row: RowSpec) {
  const first = table.columns[0]?.name;
  // One column short, or its confidence missing: left out of the row's entries.
  const shortOf = (name: string) => row.fault === 'one short' && name === first;
  const noConfidence = (name: string) => row.fault === 'no confidence' && name === first;
  const cells: Record<string, Json> = Object.fromEntries(
    table.columns
      .filter((column) => !shortOf(column.name))
      .map((column, i) => [
        column.name,
        // A value of the column's type, drawn with the generator's own numbers.
        fc.sample(cellOf[column.type], { seed: row.typed[i] ?? row.seed + i, numRuns: 1 })[0] ??
          null,
      ]),
  );
  const confidences: Record<string, number> = Object.fromEntries(
    Object.keys(cells)
      .filter((name) => !noConfidence(name))
      .map((name) => [name, row.confidence]),
  );
  if (row.fault === 'odd cell' && first) cells[first] = row.odd;
  if (row.fault === 'null cell' && first) cells[first] = null;
  if (row.fault === 'extra column') [cells.unknown, confidences.unknown] = ['x', 0.9];
  if (row.fault === 'confidence out of range' && first) confidences[first] = 1.5;
  return { cells, confidences };
}

function callOf(spec: CallSpec, table: Table): LlmToolCall {
  switch (spec.tool) {
    case 'define_columns':
      return parsedToolCall('define_columns', { columns: spec.columns });
    case 'extract_row':
      return parsedToolCall('extract_row', { doc_id: docId(spec.doc), ...rowFor(table, spec.row) });
    case 'update_cell': {
      const column =
        typeof spec.column === 'number'
          ? (table.columns[spec.column % Math.max(table.columns.length, 1)]?.name ?? 'total')
          : spec.column;
      return parsedToolCall('update_cell', {
        doc_id: docId(spec.doc),
        column,
        ...(spec.value === undefined ? {} : { value: spec.value }),
        confidence: spec.confidence,
      });
    }
    case 'unknown':
      return parsedToolCall('delete_rows', {});
    case 'bad args':
      return { id: 'call', name: 'extract_row', args: {}, argsError: 'not a JSON object' };
    default:
      return parsedToolCall(spec.tool, {});
  }
}

async function storedTable(stackId: string) {
  const stack = await store.stacks.get(TENANT, stackId, { userId: USER });
  if (!stack) throw new Error('the stack is gone');
  const rows = await store.stacks.listRows(TENANT, stackId);
  return {
    columns: stack.columns,
    status: stack.status,
    rows: rows.map((r) => ({ doc: r.documentId, cells: r.cells, confidences: r.confidences })),
  };
}

const TYPED: Record<StackColumnType, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string' && v.trim() !== '',
  number: (v) => typeof v === 'number',
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  date: (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v),
};

describe('the stack tools on generated model answers', () => {
  it('refuse what does not fit the table, change nothing then, and store the rest', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(goodColumns, { freq: 4 }),
        fc.array(callArb, { minLength: 1, maxLength: 10 }),
        async (columns, specs) => {
          const stack = await store.stacks.create(TENANT, {
            userId: USER,
            name: 'Invoices',
            documentIds: tableDocs,
            ...(columns ? { columns } : {}),
          });
          const tools = new Map<string, AgentTool>(
            createStackTools({ store, tenantId: TENANT, userId: USER, stackId: stack.id }).map(
              (t) => [t.name, t],
            ),
          );
          for (const spec of specs) {
            const before = await storedTable(stack.id);
            const call = callOf(spec, before);
            const outcome = await runToolCall(call, tools, undefined);
            const after = await storedTable(stack.id);
            const label = `${call.name} ${JSON.stringify(call.args).slice(0, 300)}`;
            if (outcome.isError) {
              expect(after, `refused, yet changed: ${label}`).toEqual(before);
              continue;
            }
            const types = new Map(after.columns.map((c) => [c.name, c.type]));
            if (call.name === 'extract_row') {
              const row = after.rows.find((r) => r.doc === call.args.doc_id);
              expect(tableDocs, label).toContain(call.args.doc_id);
              expect(row?.cells, label).toEqual(call.args.cells);
              expect(row?.confidences, label).toEqual(call.args.confidences);
              // One cell per column, each null or of its column's type.
              expect(Object.keys(row?.cells ?? {}).sort(), label).toEqual([...types.keys()].sort());
            }
            if (call.name === 'update_cell') {
              const row = after.rows.find((r) => r.doc === call.args.doc_id);
              const column = String(call.args.column);
              expect('value' in call.args, `a cell update without its value: ${label}`).toBe(true);
              expect(row?.cells[column], label).toEqual(call.args.value);
              expect(row?.confidences[column], label).toBe(call.args.confidence);
            }
            // What the call wrote is null or of its column's type, with a confidence in 0..1.
            const written =
              call.name === 'extract_row'
                ? Object.keys(call.args.cells as object)
                : call.name === 'update_cell'
                  ? [String(call.args.column)]
                  : [];
            const row = after.rows.find((r) => r.doc === call.args.doc_id);
            for (const name of written) {
              const [type, value] = [types.get(name), row?.cells[name]];
              expect(type, label).toBeDefined();
              if (type) expect(value === null || TYPED[type](value), label).toBe(true);
              const c = row?.confidences[name] ?? -1;
              expect(c >= 0 && c <= 1, label).toBe(true);
            }
            // A completed table: a row for each of its documents, each fitting the columns as they
            // are now (rows saved before the columns changed do not).
            if (after.status === 'completed') {
              expect(after.rows.map((r) => r.doc).sort(), label).toEqual([...tableDocs].sort());
              for (const r of after.rows) {
                expect(Object.keys(r.cells).sort(), label).toEqual([...types.keys()].sort());
                for (const [name, value] of Object.entries(r.cells)) {
                  const type = types.get(name);
                  if (type) expect(value === null || TYPED[type](value), label).toBe(true);
                }
              }
            }
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
