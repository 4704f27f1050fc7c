// Document extraction (the document-extraction agent spec in docs/specs.md): a user uploads an
// invoice, a claim form or a lab report; an agent whose tools write to the store reads its text,
// extracts validated fields with confidences, and corrects them when the user says what is wrong.
// Stacks extract several documents into one table. The run answers a stream of the spec's flat
// events: `{ text }`, `{ tool, input }`, `{ complete, extraction_id, cost }` (no type field;
// clients check keys).
import { z } from 'zod';
import { fieldNameProblem } from './field-path';
import { OutputSchema } from './extraction';

export const DOCUMENT_LIMITS = {
  /** One uploaded file (POST /api/documents, multipart). */
  uploadBytes: 25 * 1024 * 1024,
  /**
   * One file sent inline with POST /api/extractions, before base64 (the JSON body also has to
   * fit the server's MAX_BODY_BYTES, 8 MB by default).
   */
  inlineUploadBytes: 6 * 1024 * 1024,
  instructionsLength: 4_000,
  messageLength: 4_000,
  /** Documents in one stack. */
  stackDocuments: 50,
  stackColumns: 40,
  listMaxLimit: 100,
} as const;

/**
 * Where an uploaded document is: being read by a job (no pages yet), read (`ready`: the only
 * state an extraction or a stack takes), or `failed` (its `error` says why; a retryable one has
 * `retryable`).
 */
export const DocumentStatus = z.enum(['processing', 'ready', 'failed']);
export type DocumentStatus = z.infer<typeof DocumentStatus>;

export const DocumentView = z.object({
  id: z.string(),
  fileName: z.string(),
  title: z.string(),
  mimeType: z.string(),
  pageCount: z.number().int().nonnegative(),
  sizeBytes: z.number().int().nonnegative(),
  /** Characters of text read from it (OCR included). */
  characters: z.number().int().nonnegative(),
  /** What the reader should know: pages read by OCR, low OCR confidence… */
  warnings: z.array(z.string()),
  /** Absent only from servers older than upload jobs, whose documents were all read. */
  status: DocumentStatus.default('ready'),
  /** Why reading it failed; null unless `failed`. */
  error: z.string().nullable().default(null),
  /** A failed document whose file is kept: POST /api/documents/{id}/retry reads it again. */
  retryable: z.boolean().default(false),
  createdAt: z.string(),
});
export type DocumentView = z.infer<typeof DocumentView>;

export const UploadDocumentResponse = z.object({ document: DocumentView });
export type UploadDocumentResponse = z.infer<typeof UploadDocumentResponse>;

/**
 * 202 from POST /api/documents: the file is stored and a job reads it, still going when the
 * request stopped waiting. Follow the document (GET /api/documents/{id}) until it is `ready`.
 */
export const UploadDocumentAccepted = z.object({
  document: DocumentView,
  links: z.object({ document: z.string() }),
});
export type UploadDocumentAccepted = z.infer<typeof UploadDocumentAccepted>;

export const DocumentList = z.object({ documents: z.array(DocumentView) });
export type DocumentList = z.infer<typeof DocumentList>;

export const DocumentExtractionStatus = z.enum(['in_progress', 'completed', 'failed']);
export type DocumentExtractionStatus = z.infer<typeof DocumentExtractionStatus>;

const Id = z.string().trim().min(1).max(100);

/** A file inside the JSON body (base64), for clients that cannot send multipart. */
export const InlineUpload = z.object({
  fileName: z.string().trim().min(1).max(255),
  contentType: z.string().trim().max(200).optional(),
  dataBase64: z
    .string()
    .min(1)
    .max(Math.ceil(DOCUMENT_LIMITS.inlineUploadBytes / 3) * 4, {
      message: `an inline upload may be at most ${DOCUMENT_LIMITS.inlineUploadBytes / 1024 / 1024} MB; upload bigger files with POST /api/documents`,
    })
    .regex(/^[A-Za-z0-9+/\r\n]+={0,2}\s*$/, { message: 'dataBase64 must be base64' }),
});
export type InlineUpload = z.infer<typeof InlineUpload>;

export const CreateDocumentExtractionRequest = z
  .object({
    /** A document uploaded before (POST /api/documents)… */
    documentId: Id.optional(),
    /** …or the file itself. */
    upload: InlineUpload.optional(),
    /** JSON Schema the fields must match (same rules as POST /api/extract's outputSchema). */
    schema: OutputSchema.optional(),
    /** What to extract or how, in words ("only the totals"). */
    instructions: z.string().trim().min(1).max(DOCUMENT_LIMITS.instructionsLength).optional(),
  })
  .refine((body) => (body.documentId === undefined) !== (body.upload === undefined), {
    message: 'give either documentId or upload',
    path: ['documentId'],
  });
export type CreateDocumentExtractionRequest = z.input<typeof CreateDocumentExtractionRequest>;

export const CorrectDocumentExtractionRequest = z.object({
  /** The correction in plain words: "the total is 1,240.50, not 1,204.50". */
  message: z.string().trim().min(1).max(DOCUMENT_LIMITS.messageLength),
});
export type CorrectDocumentExtractionRequest = z.infer<typeof CorrectDocumentExtractionRequest>;

export const DocumentExtractionParams = z.object({ extractionId: Id });
export const DocumentParams = z.object({ documentId: Id });

/** The fields as extracted: any JSON object. */
export const ExtractedFields = z.record(z.string(), z.unknown());

export const DocumentExtractionView = z.object({
  id: z.string(),
  documentId: z.string(),
  status: DocumentExtractionStatus,
  /** "invoice", "lab_report"… as the agent identified it; null until it has. */
  documentType: z.string().nullable(),
  fields: ExtractedFields,
  /**
   * Confidences in 0..1, shaped like `fields`: the same keys and arrays, a number where
   * `fields` has a value (`{ "vendor": { "name": 0.98 }, "items": [{ "price": 0.6 }] }`).
   */
  confidences: z.record(z.string(), z.unknown()),
  schema: z.record(z.string(), z.unknown()).nullable(),
  instructions: z.string().nullable(),
  /** Everything the model calls of this extraction cost, in micro-USD and in USD. */
  costMicroUsd: z.number().int().nonnegative(),
  cost: z.number().nonnegative(),
  /** Model tokens of every run on this extraction. */
  tokens: z.number().int().nonnegative(),
  /** Why the last run stopped early, when it did. */
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DocumentExtractionView = z.infer<typeof DocumentExtractionView>;

/** One tool write, as the append-only history keeps it. */
export const ExtractionWriteView = z.object({
  seq: z.number().int().positive(),
  tool: z.string(),
  input: z.unknown(),
  createdAt: z.string(),
});
export type ExtractionWriteView = z.infer<typeof ExtractionWriteView>;

export const DocumentExtractionDetail = DocumentExtractionView.extend({
  document: DocumentView.nullable(),
  history: z.array(ExtractionWriteView),
});
export type DocumentExtractionDetail = z.infer<typeof DocumentExtractionDetail>;

export const DocumentExtractionsQuery = z.object({
  documentId: Id.optional(),
  limit: z.coerce.number().int().min(1).max(DOCUMENT_LIMITS.listMaxLimit).default(20),
  cursor: z.string().max(500).optional(),
});
export const DocumentExtractionList = z.object({
  extractions: z.array(DocumentExtractionView),
  nextCursor: z.string().nullable(),
});
export type DocumentExtractionList = z.infer<typeof DocumentExtractionList>;

const TextEvent = z.strictObject({ text: z.string() });
const ToolEvent = z.strictObject({ tool: z.string(), input: z.unknown() });

/**
 * One event of an extraction run (flat SSE events, per the document-extraction agent spec in
 * docs/specs.md): the model's words for the user, a tool it called with its input, and the end of
 * the run with what it cost in USD. `complete` ends every run, also one that stopped early; GET the
 * extraction for its status.
 */
export const ExtractionStreamEvent = z.union([
  TextEvent,
  ToolEvent,
  z.strictObject({
    complete: z.literal(true),
    extraction_id: z.string(),
    cost: z.number().nonnegative(),
  }),
]);
export type ExtractionStreamEvent = z.infer<typeof ExtractionStreamEvent>;

// ---------------------------------------------------------------- stacks

/** A column name is a field name (see field-path.ts): one rule for cells and fields. */
export const StackColumnName = z.string().superRefine((name, ctx) => {
  const problem = fieldNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const StackColumnType = z.enum(['string', 'number', 'integer', 'boolean', 'date']);
export type StackColumnType = z.infer<typeof StackColumnType>;

export const StackColumn = z.object({
  name: StackColumnName,
  type: StackColumnType,
  description: z.string().trim().max(300).optional(),
});
export type StackColumn = z.infer<typeof StackColumn>;

export const StackStatus = DocumentExtractionStatus;
export type StackStatus = DocumentExtractionStatus;

export const CreateStackRequest = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  documentIds: z
    .array(Id)
    .min(1)
    .max(DOCUMENT_LIMITS.stackDocuments)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'documentIds repeat an id' }),
  /** The table's columns; without them the agent defines them from the documents. */
  columns: z.array(StackColumn).min(1).max(DOCUMENT_LIMITS.stackColumns).optional(),
  instructions: z.string().trim().min(1).max(DOCUMENT_LIMITS.instructionsLength).optional(),
});
export type CreateStackRequest = z.input<typeof CreateStackRequest>;

export const StackParams = z.object({ stackId: Id });
export const StackQuery = z.object({ format: z.enum(['json', 'csv']).default('json') });

export const StackRowView = z.object({
  documentId: z.string(),
  cells: z.record(z.string(), z.unknown()),
  confidences: z.record(z.string(), z.number()),
  updatedAt: z.string(),
});
export type StackRowView = z.infer<typeof StackRowView>;

export const StackView = z.object({
  id: z.string(),
  name: z.string(),
  status: StackStatus,
  documentIds: z.array(z.string()),
  columns: z.array(StackColumn),
  /** One row per document that has one, in the stack's document order. */
  rows: z.array(StackRowView),
  instructions: z.string().nullable(),
  costMicroUsd: z.number().int().nonnegative(),
  cost: z.number().nonnegative(),
  tokens: z.number().int().nonnegative(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StackView = z.infer<typeof StackView>;

export const StackList = z.object({ stacks: z.array(StackView.omit({ rows: true })) });
export type StackList = z.infer<typeof StackList>;

/** A stack run's events: the same flat shapes, ending with the stack's id. */
export const StackStreamEvent = z.union([
  TextEvent,
  ToolEvent,
  z.strictObject({
    complete: z.literal(true),
    stack_id: z.string(),
    cost: z.number().nonnegative(),
  }),
]);
export type StackStreamEvent = z.infer<typeof StackStreamEvent>;
