// Structured extraction (docs/specs.md, "extraction overhaul"): what the model asks for
// (`extract`), what an extraction produces (`ExtractionResult`), how results of several pages
// aggregate under one `extractionId`, and the developer API `POST /api/extract`. The data lives in
// the store; the agent's prompts only ever see the compact summary.
import { z } from 'zod';

export const EXTRACTION_LIMITS = {
  /** What to extract, in words. */
  queryLength: 2_000,
  /** A CSS selector narrowing the page to one subtree. */
  selectorLength: 1_000,
  /** An output schema, serialized as JSON. */
  schemaBytes: 32_768,
  /** Strategy / aggregate ids. */
  idLength: 100,
  /** Bytes of a POST /api/extract body (the content, JSON-escaped, plus the rest): 413 above. */
  bodyBytes: 6_000_000,
  /** `html` or `markdown` of POST /api/extract, in characters (a body that fits holds no more). */
  contentChars: 6_000_000,
  /** Items carried in an interact response; the rest are at GET /api/tasks/{id}/extractions. */
  resultItems: 500,
} as const;

/**
 * A JSON Schema for the extracted data (draft 2020-12 keywords; `type`, `properties`,
 * `required`, `items`, `enum`, `description`, `nullable` types). Features the extractor cannot
 * enforce (`anyOf`, `$ref`, `patternProperties`…) do not fail the request: the result says so
 * in `warnings` and the data comes back as free text. Its nesting and size are budgets of the
 * server (SCHEMA_MAX_DEPTH, SCHEMA_MAX_NODES: 422 INPUT_TOO_COMPLEX past them).
 */
export const OutputSchema = z
  .record(z.string(), z.unknown())
  .refine((schema) => JSON.stringify(schema).length <= EXTRACTION_LIMITS.schemaBytes, {
    error: `outputSchema must be at most ${EXTRACTION_LIMITS.schemaBytes} bytes of JSON`,
  })
  .meta({
    description:
      'JSON Schema of the data, e.g. {"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}},"required":["name"]}}.',
  });
export type OutputSchema = z.infer<typeof OutputSchema>;

export const ExtractionId = z
  .string()
  .trim()
  .min(1)
  .max(EXTRACTION_LIMITS.idLength)
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'extractionId must be letters, digits, "_" or "-"' });

/**
 * One extraction the agent (or a script) asks for. With `extractionId` the strategy of an
 * earlier extraction is reused (its schema, selector and query when not given) and the result
 * is aggregated with the earlier pages'.
 */
export const ExtractRequest = z
  .object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(EXTRACTION_LIMITS.queryLength)
      .optional()
      .meta({ description: 'What to extract, e.g. "every product with name, price and rating".' }),
    outputSchema: OutputSchema.optional(),
    cssSelector: z
      .string()
      .trim()
      .min(1)
      .max(EXTRACTION_LIMITS.selectorLength)
      .optional()
      .meta({ description: 'Only the content of the first element matching it.' }),
    extractionId: ExtractionId.optional().meta({
      description: 'Reuse the strategy an earlier extraction returned, and aggregate with it.',
    }),
  })
  .refine((request) => request.query !== undefined || request.extractionId !== undefined, {
    error: 'query is required unless extractionId names an earlier extraction',
    path: ['query'],
  });
export type ExtractRequest = z.infer<typeof ExtractRequest>;

/** How the data was produced: a model call (or several), or a strategy's selectors alone. */
export const ExtractionMethod = z.enum(['model', 'replay']).meta({
  description:
    'model: the extraction model read the content (chunked when large); replay: the selectors a strategy learned found the data with zero model tokens.',
});
export type ExtractionMethod = z.infer<typeof ExtractionMethod>;

export const ExtractionErrorKind = z.enum([
  'validation',
  'empty',
  'timeout',
  'rate_limit',
  'provider',
  'selector',
  'schema',
]);
export type ExtractionErrorKind = z.infer<typeof ExtractionErrorKind>;

/**
 * What went wrong (docs/specs.md, "error recovery and aggregation") in one chunk (or the whole
 * extraction) and what was tried.
 */
export const ExtractionError = z.object({
  kind: ExtractionErrorKind,
  message: z.string(),
  chunkIndex: z.number().int().nonnegative().nullable(),
  retries: z.number().int().nonnegative(),
  retriesExhausted: z.boolean(),
  fallbackUsed: z.boolean(),
});
export type ExtractionError = z.infer<typeof ExtractionError>;

export const ContentStats = z.object({
  /** Characters of the content given (HTML or Markdown), after the selector. */
  sourceChars: z.number().int().nonnegative(),
  /** Characters of the Markdown the model read (0 for a replay). */
  markdownChars: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
  failedChunks: z.number().int().nonnegative(),
  /** Each chunk's structural context ("## Products (rows 1-50 of 200)"). */
  structuralContext: z.array(z.string()),
  /** Items in `data` when it is an array. */
  items: z.number().int().nonnegative().nullable(),
  modelCalls: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costMicroUsd: z.number().int().nonnegative(),
  durationMs: z.number().int().nonnegative(),
});
export type ContentStats = z.infer<typeof ContentStats>;

/** How a replayed result was checked on its page (present exactly when method is replay). */
export const ExtractionReplay = z
  .object({
    recipeId: z.string().meta({
      description:
        'The recipe replayed: the strategy id and a hash of its learned selectors (a relearned recipe gets a new one).',
    }),
    evidence: z.array(z.string()).meta({
      description:
        'What the spot check verified on this page, in short words ("3 items re-read", "columns bound to headers: SKU, Item").',
    }),
    checked: z.boolean().meta({
      description:
        "Whether the model also read a slice of this page and agreed with the replay (the recipe's first replay, then every Nth).",
    }),
  })
  .meta({ description: 'How the replay was checked; present when method is replay.' });
export type ExtractionReplay = z.infer<typeof ExtractionReplay>;

export const ExtractionResult = z.object({
  data: z.unknown().meta({
    description: 'Schema-valid JSON (an object or an array) or, without a usable schema, text.',
  }),
  schemaUsed: OutputSchema.nullable().meta({
    description: 'The schema the data was validated against; null for free text.',
  }),
  isPartial: z.boolean().meta({
    description: 'A chunk failed after its retries: the data misses what that chunk held.',
  }),
  sourceUrl: z.string().nullable(),
  contentStats: ContentStats,
  warnings: z.array(z.string()),
  errors: z.array(ExtractionError),
  method: ExtractionMethod,
  extractionId: ExtractionId.nullable().meta({
    description:
      'The strategy registered or reused, which is also the key results of several pages are aggregated by (pass it back as extractionId on similar pages); null when none was (free text, or nothing extracted).',
  }),
  replay: ExtractionReplay.optional(),
});
export type ExtractionResult = z.infer<typeof ExtractionResult>;

/** One stored result: an extraction of one page of a task. */
export const StoredExtraction = ExtractionResult.extend({
  id: z.string(),
  taskId: z.string().nullable(),
  query: z.string(),
  createdAt: z.string(),
});
export type StoredExtraction = z.infer<typeof StoredExtraction>;

/** The results of one `extractionId` in a task, merged across pages with duplicates removed. */
export const ExtractionAggregate = z.object({
  extractionId: ExtractionId,
  data: z.unknown(),
  /** Unique items when the data is an array. */
  items: z.number().int().nonnegative().nullable(),
  pages: z.number().int().positive(),
  isPartial: z.boolean(),
  schemaUsed: OutputSchema.nullable(),
  /** What the model reads: "40 unique products from 2 pages, extraction_id=…". */
  summary: z.string(),
  /** The data was cut to EXTRACTION_LIMITS.resultItems items here; the route has them all. */
  truncated: z.boolean(),
});
export type ExtractionAggregate = z.infer<typeof ExtractionAggregate>;

/** One extraction of a task as every interact response reports it: counts, never the data. */
export const ExtractionProgress = z.object({
  extractionId: z.string(),
  items: z.number().int().nonnegative().nullable(),
  pages: z.number().int().nonnegative(),
  isPartial: z.boolean(),
  summary: z.string(),
});
export type ExtractionProgress = z.infer<typeof ExtractionProgress>;

export const ExtractionsFormat = z.enum(['json', 'csv']);

export const TaskExtractionsQuery = z.object({
  format: ExtractionsFormat.default('json').meta({
    description:
      '"csv" answers text/csv of one aggregate whose data is an array (needs extractionId when the task has several).',
  }),
  extractionId: ExtractionId.optional().meta({ description: 'Only this aggregate.' }),
});
export type TaskExtractionsQuery = z.infer<typeof TaskExtractionsQuery>;

/** GET /api/tasks/{taskId}/extractions (format=json). */
export const TaskExtractionsResponse = z.object({
  taskId: z.string(),
  aggregates: z.array(ExtractionAggregate),
  results: z.array(StoredExtraction).meta({ description: 'Every page result, oldest first.' }),
});
export type TaskExtractionsResponse = z.infer<typeof TaskExtractionsResponse>;

/** POST /api/extract: the extractor without the extension. */
export const ExtractApiRequest = z
  .object({
    html: z.string().min(1).max(EXTRACTION_LIMITS.contentChars).optional(),
    markdown: z.string().min(1).max(EXTRACTION_LIMITS.contentChars).optional(),
    url: z.url().max(2_048).optional().meta({
      description: 'Where the content came from: links resolve against it, strategies match it.',
    }),
    query: z.string().trim().min(1).max(EXTRACTION_LIMITS.queryLength),
    outputSchema: OutputSchema.optional(),
    cssSelector: z.string().trim().min(1).max(EXTRACTION_LIMITS.selectorLength).optional(),
  })
  .refine((body) => (body.html === undefined) !== (body.markdown === undefined), {
    error: 'send exactly one of html or markdown',
    path: ['html'],
  })
  .refine((body) => body.cssSelector === undefined || body.html !== undefined, {
    error: 'cssSelector needs html (Markdown has no elements to select)',
    path: ['cssSelector'],
  });
export type ExtractApiRequest = z.infer<typeof ExtractApiRequest>;
