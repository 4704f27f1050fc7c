// Query documents of uploaded documents and their extractions (with the embedded write history).
// The path writes of fields are in mongo-field-updates.ts.
import type { WriteRecord } from './record';
import type { ExtractionWriteDoc } from './mongo-schema';
import { olderThanCursor } from '../../mongo/queries/cursor';
import { jsonValue } from '../../mongo/queries/json';
import type { Filter, FindSpec, UpdateSpec } from '../../mongo/queries/spec';

/** A record of the tenant, and of the user when one is named. */
export const ownedFilter = (tenantId: string, id: string, userId?: string): Filter =>
  userId === undefined ? { tenantId, id } : { tenantId, id, userId };

/** Lists read no page text. */
export const WITHOUT_PAGES = { pages: 0 } as const;
/** Reads of an extraction never carry its history along. */
export const WITHOUT_WRITES = { writes: 0 } as const;

export function documentsQuery(
  tenantId: string,
  userId: string | undefined,
  limit: number,
): FindSpec {
  const filter: Filter = { tenantId };
  if (userId !== undefined) filter.userId = userId;
  return { filter, sort: { createdAt: -1, id: -1 }, limit, projection: WITHOUT_PAGES };
}

export function extractionsQuery(
  tenantId: string,
  options: { userId?: string; documentId?: string; cursor?: string | null },
  limit: number,
): FindSpec {
  const filter: Filter = { tenantId, ...olderThanCursor(options.cursor) };
  if (options.userId !== undefined) filter.userId = options.userId;
  if (options.documentId !== undefined) filter.documentId = options.documentId;
  return { filter, sort: { createdAt: -1, id: -1 }, limit, projection: WITHOUT_WRITES };
}

/** A tool's write, as the history keeps it: its input as JSON text (a model's keys are no field names). */
export const writeEntry = (write: WriteRecord, at: Date): ExtractionWriteDoc => ({
  tool: write.tool,
  input: JSON.stringify(write.input ?? null),
  createdAt: at,
});

/** Sets fields of the user's extraction (and pushes the write's entry in the same update). */
export function extractionSetUpdate(
  tenantId: string,
  id: string,
  userId: string,
  set: Record<string, unknown>,
  write: WriteRecord | null,
  now: Date,
  guard: Filter = {},
): UpdateSpec {
  return {
    filter: { ...ownedFilter(tenantId, id, userId), ...guard },
    update: {
      $set: { ...set, updatedAt: now },
      ...(write ? { $push: { writes: writeEntry(write, now) } } : {}),
    },
  };
}

/** Completes it unless it has no fields: an empty object is stored as {} (minimize is off). */
export const completeUpdate = (
  tenantId: string,
  id: string,
  userId: string,
  write: WriteRecord,
  now: Date,
): UpdateSpec =>
  extractionSetUpdate(tenantId, id, userId, { status: 'completed', error: null }, write, now, {
    fields: { $ne: {} },
  });

export const replaceFieldsUpdate = (
  tenantId: string,
  id: string,
  input: { userId: string; fields: unknown; confidences: unknown; write: WriteRecord },
  now: Date,
): UpdateSpec =>
  extractionSetUpdate(
    tenantId,
    id,
    input.userId,
    { fields: jsonValue(input.fields), confidences: jsonValue(input.confidences) },
    input.write,
    now,
  );

/** One model call's cost, added atomically (concurrent adds both count). */
export const usageUpdate = (
  tenantId: string,
  id: string,
  usage: { costMicroUsd: number; tokens: number },
): UpdateSpec => ({
  filter: { tenantId, id },
  update: {
    $inc: { costMicroUsd: Math.round(usage.costMicroUsd), tokens: Math.round(usage.tokens) },
  },
});

/** The history, or the part after `afterSeq` (the entry at index i has seq i + 1). */
export const writesQuery = (tenantId: string, id: string, afterSeq = 0): FindSpec => ({
  filter: { tenantId, id },
  projection: { writes: afterSeq > 0 ? { $slice: [afterSeq, MAX_WRITES_READ] } : 1 },
});

/** More writes than any extraction has: $slice needs a count with its skip. */
const MAX_WRITES_READ = 1_000_000;
