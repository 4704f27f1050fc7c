// The stacks agent's tools (the stacks agent the document-extraction agent spec in docs/specs.md
// names as future work): several documents into one table. Bound at creation to one tenant, user
// and stack. The model names documents by id, but only the stack's own documents exist for these
// tools: any other id is refused, whoever owns it.
import {
  DOCUMENT_LIMITS,
  StackColumn,
  StackColumnName,
  type StackColumnType,
} from '@tandem/contracts';
import type { DocumentRecord, Stack, Store } from '@tandem/store';
import { z } from 'zod';
import { DOCUMENT_TEXT_BUDGET, documentTextPage } from './document-tools';
import { confidenceProblem, LOW_CONFIDENCE } from './fields';
import { defineTool, ToolError, type AgentTool } from './tool';

export interface StackToolScope {
  store: Pick<Store, 'documents' | 'stacks'>;
  tenantId: string;
  userId: string;
  stackId: string;
  /**
   * Documents whose rows an earlier run of this stack saved (a run taken over after its
   * process died): kept as saved, so extract_row refuses them; update_cell may still correct
   * a cell.
   */
  keptRows?: ReadonlySet<string>;
  textBudget?: number;
}

export const STACK_TOOL_NAMES = [
  'list_documents',
  'get_document_text',
  'define_columns',
  'extract_row',
  'update_cell',
  'get_table_state',
  'complete_table',
] as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why `value` does not fit a column of `type`, or null. Null is "not in the document". */
export function cellProblem(value: unknown, type: StackColumnType, column: string): string | null {
  if (value === null) return null;
  const ok =
    (type === 'string' && typeof value === 'string' && value.trim() !== '') ||
    (type === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
    (type === 'integer' && Number.isSafeInteger(value)) ||
    (type === 'boolean' && typeof value === 'boolean') ||
    (type === 'date' &&
      typeof value === 'string' &&
      DATE.test(value) &&
      !Number.isNaN(Date.parse(value)));
  if (ok) return null;
  const wanted =
    type === 'date' ? 'a date as YYYY-MM-DD' : type === 'integer' ? 'a whole number' : `a ${type}`;
  return `${column} must be ${wanted} or null, not ${JSON.stringify(value)}`;
}

/**
 * What of a saved row does not fit the columns as they are now: a row saved before
 * define_columns changed them keeps its old cells.
 */
function rowMisfits(columns: Stack['columns'], cells: Record<string, unknown>): string[] {
  const types = new Map(columns.map((c) => [c.name, c.type]));
  const problems = Object.entries(cells).flatMap(([name, value]) => {
    const type = types.get(name);
    if (type === undefined) return [`${name} is no longer a column`];
    const problem = cellProblem(value, type, name);
    return problem ? [problem] : [];
  });
  const missing = columns.filter((c) => !Object.hasOwn(cells, c.name)).map((c) => c.name);
  return missing.length > 0 ? [...problems, `no cell for ${missing.join(', ')}`] : problems;
}

const fail = (message: string, problems: string[] = []): never => {
  throw new ToolError(problems.length === 0 ? message : `${message}:\n- ${problems.join('\n- ')}`);
};

const DocId = z.string().trim().min(1).max(100).describe('A document id from list_documents.');

/** What every stack tool of one run shares: the bound ids and the helpers that use only them. */
interface StackContext {
  scope: StackToolScope;
  budget: number;
  stack(): Promise<Stack>;
  stackDocument(docId: string): Promise<{ stack: Stack; document: DocumentRecord }>;
  checkCells(
    s: Stack,
    cells: Record<string, unknown>,
    confidences: Record<string, number>,
  ): string[];
}

function stackContext(scope: StackToolScope): StackContext {
  const { store, tenantId, userId, stackId } = scope;

  async function stack(): Promise<Stack> {
    const found = await store.stacks.get(tenantId, stackId, { userId });
    if (!found) throw new Error(`stack ${stackId} is gone`);
    return found;
  }

  /** The stack's document with this id; any other id is refused, whoever it belongs to. */
  async function stackDocument(docId: string) {
    const s = await stack();
    if (!s.documentIds.includes(docId)) {
      fail(`${docId} is not a document of this table; list_documents gives the ids.`);
    }
    const document = await store.documents.get(tenantId, docId, { userId });
    if (!document) fail(`${docId} is no longer available.`);
    // Stacks take read documents only, and a read one stays read: a guard, not a path.
    if (document?.status !== 'ready') fail(`${docId} has no text yet.`);
    return { stack: s, document: document as DocumentRecord };
  }

  /** Cells checked against the columns: known names, typed values, confidences in 0..1. */
  function checkCells(
    s: Stack,
    cells: Record<string, unknown>,
    confidences: Record<string, number>,
  ): string[] {
    if (s.columns.length === 0) return ['define the columns first (define_columns)'];
    const types = new Map(s.columns.map((c) => [c.name, c.type]));
    const problems: string[] = [];
    for (const [name, value] of Object.entries(cells)) {
      const type = types.get(name);
      if (type === undefined) {
        problems.push(`${name} is not a column (columns: ${[...types.keys()].join(', ')})`);
        continue;
      }
      const problem = cellProblem(value, type, name);
      if (problem) problems.push(problem);
      const confidence = confidenceProblem(confidences[name], name);
      if (confidence) problems.push(confidence);
    }
    for (const name of Object.keys(confidences)) {
      if (!Object.hasOwn(cells, name))
        problems.push(`a confidence is given for ${name}, which has no cell`);
    }
    return problems;
  }
  return {
    scope,
    budget: scope.textBudget ?? DOCUMENT_TEXT_BUDGET,
    stack,
    stackDocument,
    checkCells,
  };
}

function listDocumentsTool(ctx: StackContext): AgentTool {
  const { store, tenantId, userId, stackId } = ctx.scope;
  return defineTool({
    name: 'list_documents',
    description: "List this table's documents: id, title, pages, and whether it has a row yet.",
    schema: z.object({}),
    writes: false,
    async run() {
      const s = await ctx.stack();
      const rows = new Set(
        (await store.stacks.listRows(tenantId, stackId)).map((r) => r.documentId),
      );
      const lines = await Promise.all(
        s.documentIds.map(async (id) => {
          const doc = await store.documents.get(tenantId, id, { userId });
          return doc
            ? `${id}: "${doc.title}" (${doc.fileName}, ${doc.pageCount} page(s))${rows.has(id) ? ' [row done]' : ''}`
            : `${id}: (no longer available)`;
        }),
      );
      return `${s.documentIds.length} document(s):\n${lines.join('\n')}`;
    },
  });
}

function getDocumentTextTool(ctx: StackContext): AgentTool {
  return defineTool({
    name: 'get_document_text',
    description: "Read one of the table's documents, page by page.",
    schema: z.object({ doc_id: DocId, page: z.number().int().min(1).optional() }),
    writes: false,
    async run({ doc_id, page }) {
      const { document } = await ctx.stackDocument(doc_id);
      return documentTextPage(document, page ?? 1, ctx.budget);
    },
  });
}

function defineColumnsTool(ctx: StackContext): AgentTool {
  const { store, tenantId, userId, stackId } = ctx.scope;
  return defineTool({
    name: 'define_columns',
    description:
      'Set the columns of the table (replacing any defined before): a name, a type (string, number, integer, boolean, date) and an optional description.',
    schema: z.object({
      columns: z.array(StackColumn).min(1).max(DOCUMENT_LIMITS.stackColumns),
    }),
    writes: true,
    async run({ columns }) {
      // A complete table is what the user exports: its rows fit its columns, and stay so.
      if ((await ctx.stack()).status === 'completed')
        fail('The table is complete: its columns stay as they are (update_cell corrects a cell).');
      const names = columns.map((c) => c.name);
      const repeated = names.filter((name, i) => names.indexOf(name) !== i);
      if (repeated.length > 0) fail(`Column names repeat: ${[...new Set(repeated)].join(', ')}`);
      const done = await store.stacks.setColumns(tenantId, stackId, { userId, columns });
      if (!done) throw new Error(`stack ${stackId} is gone`);
      return `Columns set: ${columns.map((c) => `${c.name} (${c.type})`).join(', ')}.`;
    },
  });
}

function extractRowTool(ctx: StackContext): AgentTool {
  const { store, tenantId, userId, stackId } = ctx.scope;
  return defineTool({
    name: 'extract_row',
    description:
      "Save one document's row (replacing it if it exists): a value per column (null when the document does not say) and a confidence (0..1) per value.",
    schema: z.object({
      doc_id: DocId,
      cells: z.record(StackColumnName, z.unknown()),
      confidences: z.record(StackColumnName, z.number()),
    }),
    writes: true,
    async run({ doc_id, cells, confidences }) {
      const { stack: s } = await ctx.stackDocument(doc_id);
      if (ctx.scope.keptRows?.has(doc_id)) {
        fail(
          `The row of ${doc_id} was saved by an earlier run and is kept; extract only the documents without a row (update_cell corrects one cell).`,
        );
      }
      const problems = ctx.checkCells(s, cells, confidences);
      const missing = s.columns.map((c) => c.name).filter((name) => !Object.hasOwn(cells, name));
      if (missing.length > 0)
        problems.push(
          `no cell for ${missing.join(', ')} (use null when the document does not say)`,
        );
      if (problems.length > 0) fail(`The row of ${doc_id} was not saved`, problems);
      await store.stacks.putRow(tenantId, stackId, {
        userId,
        documentId: doc_id,
        cells,
        confidences,
      });
      const low = Object.entries(confidences)
        .filter(([, c]) => c < LOW_CONFIDENCE)
        .map(([n]) => n);
      return `Saved the row of ${doc_id}.${low.length > 0 ? ` Low confidence: ${low.join(', ')}.` : ''}`;
    },
  });
}

function updateCellTool(ctx: StackContext): AgentTool {
  const { store, tenantId, userId, stackId } = ctx.scope;
  return defineTool({
    name: 'update_cell',
    description: "Correct one cell of a document's row.",
    schema: z.object({
      doc_id: DocId,
      column: StackColumnName,
      value: z.unknown(),
      confidence: z.number(),
    }),
    writes: true,
    async run({ doc_id, column, value, confidence }) {
      const { stack: s } = await ctx.stackDocument(doc_id);
      const problems = ctx.checkCells(s, { [column]: value ?? null }, { [column]: confidence });
      if (problems.length > 0) fail(`The cell was not updated`, problems);
      const done = await store.stacks.setCell(tenantId, stackId, {
        userId,
        documentId: doc_id,
        column,
        value: value ?? null,
        confidence,
      });
      if (!done) fail(`${doc_id} has no row yet; save it with extract_row first.`);
      return `Updated ${column} of ${doc_id} = ${JSON.stringify(value ?? null)}.`;
    },
  });
}

function getTableStateTool(ctx: StackContext): AgentTool {
  const { store, tenantId, stackId } = ctx.scope;
  return defineTool({
    name: 'get_table_state',
    description:
      'See the table so far: columns, the rows saved, and the documents still without a row.',
    schema: z.object({}),
    writes: false,
    async run() {
      const s = await ctx.stack();
      const rows = await store.stacks.listRows(tenantId, stackId);
      const done = new Set(rows.map((r) => r.documentId));
      return JSON.stringify(
        {
          status: s.status,
          columns: s.columns,
          rows: rows.map((r) => ({
            doc_id: r.documentId,
            cells: r.cells,
            confidences: r.confidences,
          })),
          documents_without_row: s.documentIds.filter((id) => !done.has(id)),
        },
        null,
        2,
      );
    },
  });
}

function completeTableTool(ctx: StackContext): AgentTool {
  const { store, tenantId, userId, stackId } = ctx.scope;
  return defineTool({
    name: 'complete_table',
    description: 'Mark the table complete, once every document has its row.',
    schema: z.object({}),
    writes: true,
    async run() {
      const s = await ctx.stack();
      const rows = await store.stacks.listRows(tenantId, stackId);
      const done = new Set(rows.map((r) => r.documentId));
      const missing = s.documentIds.filter((id) => !done.has(id));
      if (s.columns.length === 0) fail('Cannot complete: define the columns first.');
      if (missing.length > 0) {
        fail(
          `Cannot complete: no row yet for ${missing.join(', ')} (extract_row, with nulls for what a document does not say)`,
        );
      }
      const misfits = rows.flatMap((r) =>
        rowMisfits(s.columns, r.cells).map((problem) => `${r.documentId}: ${problem}`),
      );
      if (misfits.length > 0) {
        fail(
          'Cannot complete: rows saved before the columns changed do not fit them; save those rows again with extract_row',
          misfits.slice(0, 10),
        );
      }
      const completed = await store.stacks.complete(tenantId, stackId, { userId });
      if (!completed) fail('Cannot complete: the table has no rows.');
      return `Table complete: ${rows.length} rows × ${s.columns.length} columns.`;
    },
  });
}

export function createStackTools(scope: StackToolScope): AgentTool[] {
  const ctx = stackContext(scope);
  return [
    listDocumentsTool(ctx),
    getDocumentTextTool(ctx),
    defineColumnsTool(ctx),
    extractRowTool(ctx),
    updateCellTool(ctx),
    getTableStateTool(ctx),
    completeTableTool(ctx),
  ];
}
