// Streaming extraction (docs/specs.md, "Streaming Extraction"): what the model hands to `collect`,
// how collected items travel to clients (JSON pages, CSV, server-sent events), and the task
// events the live stream carries. Collected data lives in the store, never in the prompt.
import { z } from 'zod';
import { CollectedCounts } from './collected-counts';
import { ActionStatus, TaskStatus } from './domain';
import { formatCount } from './format-count';
import { TaskId } from './interact';

export const COLLECT_LIMITS = {
  /** Item types are short category words ("job", "product"); longer text is a model slip. */
  typeLength: 40,
  /** One item, serialized as JSON. A long job description fits; a whole page does not. */
  dataBytes: 32_768,
  /** Top-level fields of one item. */
  dataKeys: 100,
  /** Nesting depth of one item (`{ salary: { min, max } }` is depth 2). */
  dataDepth: 6,
  /** Items one model answer may collect (one screenful of cards, never a whole site). */
  itemsPerStep: 50,
  /** Page size of GET /api/tasks/{taskId}/collected. */
  pageSize: 1_000,
} as const;

/** `type || 'default'`, as the spec writes it (docs/specs.md, "Streaming Extraction"). */
export const DEFAULT_COLLECT_TYPE = 'default';

const TYPE_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * The category of a collected item. Normalized (trimmed, lower-cased) before it is checked, so
 * "Job" and "job " count together: models are not consistent about case.
 */
export const CollectType = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, { error: 'type must not be empty (e.g. "job", "product")' })
  .max(COLLECT_LIMITS.typeLength, {
    error: `type must be at most ${COLLECT_LIMITS.typeLength} characters (a category such as "job", not a description)`,
  })
  .regex(TYPE_PATTERN, {
    error: 'type must be a single word of a-z, 0-9, "_" or "-" (e.g. "job", "search_result")',
  });
export type CollectType = z.infer<typeof CollectType>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/** Depth of a JSON value; `Infinity` for something that is not JSON (functions, cycles…). */
function jsonDepth(value: unknown, seen: Set<object> = new Set()): number {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return 0;
  if (typeof value === 'number') return Number.isFinite(value) ? 0 : Infinity;
  if (typeof value !== 'object') return Infinity;
  if (seen.has(value)) return Infinity;
  if (!Array.isArray(value) && !isPlainObject(value)) return Infinity;
  seen.add(value);
  let deepest = 0;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, jsonDepth(child, seen));
    if (deepest === Infinity) break;
  }
  seen.delete(value);
  return deepest + 1;
}

/** UTF-8 bytes of the JSON text, without Node's Buffer (this package is browser-safe). */
const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

/**
 * One collected item: a plain JSON object. The checks run in order of cost, and each failure
 * says what to do, because the message goes back to the model as the result of its collect.
 */
export const CollectData = z
  .record(z.string(), z.unknown())
  .superRefine((data, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (!isPlainObject(data)) return fail('data must be a plain JSON object');
    const keys = Object.keys(data);
    if (keys.length === 0) return fail('data must have at least one field');
    if (keys.length > COLLECT_LIMITS.dataKeys) {
      return fail(`data has ${keys.length} fields; at most ${COLLECT_LIMITS.dataKeys}`);
    }
    const depth = jsonDepth(data);
    if (depth === Infinity) {
      return fail('data must contain only JSON values (strings, finite numbers, booleans, null)');
    }
    if (depth > COLLECT_LIMITS.dataDepth) {
      return fail(`data is nested ${depth} levels deep; at most ${COLLECT_LIMITS.dataDepth}`);
    }
    const bytes = utf8Bytes(JSON.stringify(data));
    if (bytes > COLLECT_LIMITS.dataBytes) {
      fail(
        `data is ${formatCount(bytes)} bytes as JSON; at most ${formatCount(COLLECT_LIMITS.dataBytes)} — collect the fields, not the page`,
      );
    }
  })
  .meta({ description: 'The extracted item: a plain JSON object (e.g. title, company, salary).' });
export type CollectData = z.infer<typeof CollectData>;

/**
 * One `collect` call, as the model writes it in its structured output
 * (`collectActionSchema`: `{ type?, data }`, docs/specs.md, "Streaming Extraction"). A missing type
 * means "default".
 */
export const CollectCall = z.object({
  type: CollectType.optional().meta({
    description: 'Category of the item, e.g. "job" or "product" (default "default").',
  }),
  data: CollectData,
});
export type CollectCall = z.infer<typeof CollectCall>;

/** A collected item as clients see it (the stored record without tenant bookkeeping). */
export const CollectedItemEntry = z.object({
  id: z.string(),
  type: z.string(),
  uniqueKey: z.string().nullable().meta({
    description:
      'The key duplicates were detected by ("job:123", "title@company"…); null when none could be inferred (duplicates are then kept).',
  }),
  data: z.record(z.string(), z.unknown()),
  sourceUrl: z.string().nullable(),
  seq: z.number().int().positive().meta({ description: 'Monotonic per task; page with afterSeq.' }),
  createdAt: z.iso.datetime({ offset: true }),
});
export type CollectedItemEntry = z.infer<typeof CollectedItemEntry>;

// ------------------------------------------------------------------ GET collected

export const TaskParams = z.object({ taskId: TaskId });
export type TaskParams = z.infer<typeof TaskParams>;

export const CollectedFormat = z.enum(['json', 'csv']);
export type CollectedFormat = z.infer<typeof CollectedFormat>;

// Query values arrive as strings; coercion lives here so every reader parses them alike.
const Seq = z.coerce
  .number({ error: 'must be a number' })
  .int({ error: 'must be a whole number' })
  .nonnegative({ error: 'must be 0 or more' });

export const CollectedItemsQuery = z.object({
  type: CollectType.optional().meta({ description: 'Only items of this type.' }),
  format: CollectedFormat.default('json').meta({
    description: '"csv" answers text/csv (every item, one column per data field) as an attachment.',
  }),
  afterSeq: Seq.default(0).meta({
    description: 'Only items with a larger seq (JSON paging; pass the previous nextSeq).',
  }),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(COLLECT_LIMITS.pageSize, { error: `must be at most ${COLLECT_LIMITS.pageSize}` })
    .default(COLLECT_LIMITS.pageSize)
    .meta({ description: 'Items per JSON page.' }),
});
export type CollectedItemsQuery = z.infer<typeof CollectedItemsQuery>;

/** GET /api/tasks/{taskId}/collected (format=json). */
export const CollectedItemsResponse = z.object({
  taskId: TaskId,
  items: z.array(CollectedItemEntry),
  counts: CollectedCounts.meta({ description: 'All items of the task per type (not this page).' }),
  total: z.number().int().nonnegative(),
  nextSeq: z.number().int().nonnegative().meta({
    description:
      'afterSeq for the next request: the last seq of this page, or the given afterSeq when the page is empty (poll with it for new items).',
  }),
  hasMore: z.boolean().meta({ description: 'More items follow right now (the page was full).' }),
});
export type CollectedItemsResponse = z.infer<typeof CollectedItemsResponse>;

// ------------------------------------------------------------------ task events (SSE)

/** One agent step as it is dispatched to the client. */
export const StepEvent = z.object({
  event: z.literal('step'),
  taskId: TaskId,
  stepIndex: z.number().int().nonnegative(),
  action: z.string(),
  status: ActionStatus,
  thought: z.string(),
  summary: z.string().optional().meta({
    description: 'The action in plain language, as in the response’s actionSummary.',
  }),
  at: z.iso.datetime({ offset: true }),
});
export type StepEvent = z.infer<typeof StepEvent>;

/** One item stored by `collect` (never sent for a skipped duplicate). */
export const CollectedEvent = z.object({
  event: z.literal('collected'),
  taskId: TaskId,
  type: z.string(),
  count: z.number().int().positive().meta({
    description: 'Items of this type the task held when the event was sent.',
  }),
  item: CollectedItemEntry,
});
export type CollectedEvent = z.infer<typeof CollectedEvent>;

/** The task reached a terminal status; the stream closes after this event. */
export const DoneEvent = z.object({
  event: z.literal('done'),
  taskId: TaskId,
  status: TaskStatus,
  result: z.string().nullable(),
  counts: CollectedCounts,
});
export type DoneEvent = z.infer<typeof DoneEvent>;

/**
 * The `data` of each server-sent event of GET /api/tasks/{taskId}/events; the SSE `event:`
 * field repeats `event`, and collected events carry `id: <seq>` so a reconnect resumes.
 */
export const TaskEvent = z.discriminatedUnion('event', [StepEvent, CollectedEvent, DoneEvent]);
export type TaskEvent = z.infer<typeof TaskEvent>;
export type TaskEventName = TaskEvent['event'];

export const TaskEventsQuery = z.object({
  afterSeq: Seq.optional().meta({
    description:
      'Replay collected items after this seq (default 0: all of them). A Last-Event-ID header wins when larger.',
  }),
});
export type TaskEventsQuery = z.infer<typeof TaskEventsQuery>;
