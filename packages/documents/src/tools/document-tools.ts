// The document extraction agent's tools (the document-extraction agent spec in docs/specs.md): real
// reads and validated writes on the store, bound at creation to one tenant, user, document and
// extraction. No tool takes an id: whatever the model sends, it can only ever read this document
// and change this extraction. Every write is validated first (names, types, confidences in 0..1,
// the user's schema); what fails comes back to the model as a tool error it can fix.
import {
  fenceUntrusted,
  FieldPath,
  formatFieldPath,
  parseFieldPath,
  type FieldPathSegment,
} from '@tandem/contracts';
import type { DocumentExtraction, DocumentRecord, Store } from '@tandem/store';
import { z } from 'zod';
import { checkOutputSchema } from '@tandem/extraction';
import {
  confidenceProblem,
  confidenceTree,
  countValues,
  fieldProblems,
  flattenConfidences,
  lowConfidencePaths,
  schemaProblems,
  shapeConfidence,
  withFieldRemoved,
  withFieldSet,
} from './fields';
import { defineTool, ToolError, type AgentTool } from './tool';

/** Characters of document text one get_document_text call returns at most (pages stay whole). */
export const DOCUMENT_TEXT_BUDGET = 24_000;

export interface DocumentToolScope {
  store: Pick<Store, 'documents' | 'documentExtractions'>;
  tenantId: string;
  userId: string;
  documentId: string;
  extractionId: string;
  /** Characters per get_document_text call (tests page with less). */
  textBudget?: number;
}

export const DOCUMENT_TOOL_NAMES = [
  'get_document_text',
  'get_current_extraction',
  'identify_document',
  'extract_fields',
  'update_field',
  'remove_field',
  'complete_extraction',
] as const;
export type DocumentToolName = (typeof DOCUMENT_TOOL_NAMES)[number];

const Confidence = z
  .number()
  .min(0, { error: 'a confidence is at least 0' })
  .max(1, { error: 'a confidence is at most 1' });

const fail = (message: string, problems: string[] = []): never => {
  throw new ToolError(problems.length === 0 ? message : `${message}:\n- ${problems.join('\n- ')}`);
};

/**
 * The tag that fences document text, and the words that ask for the next page: exported because
 * the scripted model (./testing) reads tool answers by them, like a model reads the prose.
 */
export const DOCUMENT_TEXT_FENCE = 'document_text';
export const NEXT_PAGE_CALL = 'call get_document_text with page=';

/** The pages of one call: from `page` on, whole pages, until the budget is spent. */
export function documentTextPage(
  document: Pick<DocumentRecord, 'title' | 'fileName' | 'pages'>,
  page: number,
  budget: number,
): string {
  const pages = document.pages;
  if (pages.length === 0 || pages.every((p) => p.text.trim() === '')) {
    return fail(
      'This document has no readable text (OCR found none). Tell the user; there is nothing to extract.',
    );
  }
  if (page > pages.length) {
    return fail(
      `The document has ${pages.length} page(s); ask for a page from 1 to ${pages.length}.`,
    );
  }
  const chosen: DocumentRecord['pages'] = [];
  let used = 0;
  for (const p of pages.slice(page - 1)) {
    if (chosen.length > 0 && used + p.text.length > budget) break;
    chosen.push(p);
    used += p.text.length;
  }
  const first = chosen[0]?.number ?? page;
  const last = chosen[chosen.length - 1]?.number ?? page;
  const body = chosen.map((p) => `--- Page ${p.number} ---\n${p.text}`).join('\n\n');
  const more =
    last < pages.length
      ? `\n\nThere is more: ${NEXT_PAGE_CALL}${last + 1} for the next pages.`
      : '';
  return (
    `Document "${document.title}" (${document.fileName}), page${first === last ? ` ${first}` : `s ${first}-${last}`} of ${pages.length}:\n` +
    `${fenceUntrusted(body, DOCUMENT_TEXT_FENCE)}${more}`
  );
}

/** What every tool of one run shares: the bound ids and the helpers that use only them. */
interface ToolContext {
  scope: DocumentToolScope;
  budget: number;
  /** The bound extraction (only this user's; it cannot have gone while the run holds its lock). */
  current(): Promise<DocumentExtraction>;
  /** The user's schema as zod, converted once per run; null without one. */
  schemaOf(extraction: DocumentExtraction): z.ZodType | null;
}

function toolContext(scope: DocumentToolScope): ToolContext {
  let checkedSchema: z.ZodType | null | undefined;
  return {
    scope,
    budget: scope.textBudget ?? DOCUMENT_TEXT_BUDGET,
    async current() {
      const extraction = await scope.store.documentExtractions.get(
        scope.tenantId,
        scope.extractionId,
        { userId: scope.userId },
      );
      if (!extraction) throw new Error(`extraction ${scope.extractionId} is gone`);
      return extraction;
    },
    schemaOf(extraction) {
      if (checkedSchema !== undefined) return checkedSchema;
      if (extraction.schema === null) return (checkedSchema = null);
      const checked = checkOutputSchema(extraction.schema);
      checkedSchema = checked.ok ? checked.schema.zod : null;
      return checkedSchema;
    },
  };
}

/** A write the store refused although the checks passed: the extraction changed meanwhile. */
const changed = (): never =>
  fail('The extraction changed while this call ran; read it again with get_current_extraction.');

function parsePath(path: string): FieldPathSegment[] {
  const parsed = parseFieldPath(path);
  return parsed.ok ? parsed.segments : fail(parsed.reason);
}

function getDocumentTextTool(ctx: ToolContext): AgentTool {
  const { store, tenantId, userId, documentId } = ctx.scope;
  return defineTool({
    name: 'get_document_text',
    description:
      'Read the document text (OCR included), page by page. Long documents come in parts: the answer says which page to ask for next.',
    schema: z.object({
      page: z.number().int().min(1).optional().describe('First page to read (default 1).'),
    }),
    writes: false,
    async run({ page }) {
      const document = await store.documents.get(tenantId, documentId, { userId });
      if (!document) throw new Error(`document ${documentId} is gone`);
      // Extractions start on read documents only, and a read one stays read: a guard, not a path.
      if (document.status !== 'ready') throw new Error(`document ${documentId} has no text yet`);
      return documentTextPage(document, page ?? 1, ctx.budget);
    },
  });
}

function getCurrentExtractionTool(ctx: ToolContext): AgentTool {
  return defineTool({
    name: 'get_current_extraction',
    description:
      'See the extraction so far: status, document type, fields, and the confidence of every value by path.',
    schema: z.object({}),
    writes: false,
    async run() {
      const x = await ctx.current();
      return JSON.stringify(
        {
          status: x.status,
          document_type: x.documentType,
          fields: x.fields,
          confidences: flattenConfidences(x.confidences),
          ...(x.schema ? { schema: x.schema } : {}),
        },
        null,
        2,
      );
    },
  });
}

function identifyDocumentTool(ctx: ToolContext): AgentTool {
  const { store, tenantId, userId, extractionId } = ctx.scope;
  return defineTool({
    name: 'identify_document',
    description: 'Record what kind of document this is (invoice, lab_report, insurance_claim…).',
    schema: z.object({
      document_type: z
        .string()
        .trim()
        .min(2)
        .max(60)
        .regex(/^[a-z][a-z0-9_]*$/, {
          error: 'use lower_snake_case, like "invoice" or "lab_report"',
        }),
    }),
    writes: true,
    async run(input) {
      const done = await store.documentExtractions.setDocumentType(tenantId, extractionId, {
        userId,
        documentType: input.document_type,
        write: { tool: 'identify_document', input },
      });
      if (!done) return changed();
      return `Document type set to ${input.document_type}.`;
    },
  });
}

function extractFieldsTool(ctx: ToolContext): AgentTool {
  const { store, tenantId, userId, extractionId } = ctx.scope;
  return defineTool({
    name: 'extract_fields',
    description:
      'Save the extracted fields (replacing any saved before) with a confidence (0..1) per field. ' +
      'Use nested objects and lists, numbers for amounts, ISO dates (YYYY-MM-DD). Confidences are ' +
      'keyed by path ("vendor.name", "items[1].price"); one for "items" covers every item.',
    schema: z.object({
      fields: z.record(z.string(), z.unknown()).describe('Field names to values.'),
      confidences: z
        .record(z.string(), Confidence)
        .describe('Confidence per path, 0 to 1; a path covers the values under it.'),
    }),
    writes: true,
    async run(input) {
      const problems = fieldProblems(input.fields);
      if (problems.length > 0) fail('The fields were not saved', problems);
      const tree = confidenceTree(input.fields, input.confidences);
      if (!tree.ok) return fail('The fields were not saved', tree.problems);
      const x = await ctx.current();
      const offSchema = schemaProblems(input.fields, ctx.schemaOf(x));
      if (offSchema.length > 0) fail("The fields do not match the user's schema", offSchema);
      const done = await store.documentExtractions.replaceFields(tenantId, extractionId, {
        userId,
        fields: input.fields,
        confidences: tree.tree,
        write: { tool: 'extract_fields', input },
      });
      if (!done) return changed();
      const low = lowConfidencePaths(done.confidences);
      return (
        `Saved ${countValues(done.fields)} values in ${Object.keys(done.fields).length} fields.` +
        (low.length > 0 ? ` Low confidence: ${low.join(', ')}.` : '')
      );
    },
  });
}

function updateFieldTool(ctx: ToolContext): AgentTool {
  const { store, tenantId, userId, extractionId } = ctx.scope;
  return defineTool({
    name: 'update_field',
    description:
      'Set one value by path ("vendor.name", "items[2].price"): a correction, or a field that was missed. ' +
      'The parent must exist; a list index equal to its length appends.',
    schema: z.object({
      path: FieldPath,
      value: z.unknown().describe('The new value (any JSON).'),
      confidence: Confidence,
    }),
    writes: true,
    async run(input) {
      if (input.value === undefined) fail('value is required (use remove_field to delete)');
      const path = parsePath(input.path);
      const problems = fieldProblems({ value: input.value });
      if (problems.length > 0) fail(`${input.path} was not updated`, problems);
      const confidence = confidenceProblem(input.confidence, input.path);
      if (confidence) fail(confidence);
      const x = await ctx.current();
      const next = withFieldSet(x.fields, path, input.value);
      if (!next.ok) return fail(`${input.path} was not updated: ${next.problem}`);
      const offSchema = schemaProblems(next.fields, ctx.schemaOf(x));
      if (offSchema.length > 0)
        fail(`${input.path} was not updated: it breaks the user's schema`, offSchema);
      const done = await store.documentExtractions.setField(tenantId, extractionId, {
        userId,
        path,
        value: input.value,
        confidence: shapeConfidence(input.value, input.confidence),
        write: { tool: 'update_field', input },
      });
      if (!done) return changed();
      return `Updated ${formatFieldPath(path)} = ${JSON.stringify(input.value)} (confidence ${input.confidence}).`;
    },
  });
}

function removeFieldTool(ctx: ToolContext): AgentTool {
  const { store, tenantId, userId, extractionId } = ctx.scope;
  return defineTool({
    name: 'remove_field',
    description:
      'Remove a value by path that should not be there ("notes", "items[3]"); later list items move up.',
    schema: z.object({ path: FieldPath }),
    writes: true,
    async run(input) {
      const path = parsePath(input.path);
      const x = await ctx.current();
      const next = withFieldRemoved(x.fields, path);
      if (!next.ok) return fail(next.problem);
      const offSchema = schemaProblems(next.fields, ctx.schemaOf(x));
      if (offSchema.length > 0)
        fail(`${input.path} was not removed: the user's schema needs it`, offSchema);
      const done = await store.documentExtractions.removeField(tenantId, extractionId, {
        userId,
        path,
        write: { tool: 'remove_field', input },
      });
      if (!done) return changed();
      return `Removed ${formatFieldPath(path)}.`;
    },
  });
}

function completeExtractionTool(ctx: ToolContext): AgentTool {
  const { store, tenantId, userId, extractionId } = ctx.scope;
  return defineTool({
    name: 'complete_extraction',
    description: 'Mark the extraction complete, once the fields are saved.',
    schema: z.object({}),
    writes: true,
    async run(input) {
      const x = await ctx.current();
      if (Object.keys(x.fields).length === 0) {
        fail('Cannot complete: no fields were extracted. Save them with extract_fields first.');
      }
      const offSchema = schemaProblems(x.fields, ctx.schemaOf(x));
      if (offSchema.length > 0)
        fail("Cannot complete: the fields do not match the user's schema", offSchema);
      const done = await store.documentExtractions.complete(tenantId, extractionId, {
        userId,
        write: { tool: 'complete_extraction', input },
      });
      if (!done) return changed();
      return `Extraction complete: ${countValues(done.fields)} values in ${Object.keys(done.fields).length} fields.`;
    },
  });
}

export function createDocumentTools(scope: DocumentToolScope): AgentTool[] {
  const ctx = toolContext(scope);
  return [
    getDocumentTextTool(ctx),
    getCurrentExtractionTool(ctx),
    identifyDocumentTool(ctx),
    extractFieldsTool(ctx),
    updateFieldTool(ctx),
    removeFieldTool(ctx),
    completeExtractionTool(ctx),
  ];
}
