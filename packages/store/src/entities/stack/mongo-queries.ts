// Query documents of stacks and their rows, kept apart from the adapter so mingo tests can
// evaluate them without a server.
import { jsonValue } from '../../mongo/queries/json';
import type { Filter, FindSpec, UpdateSpec } from '../../mongo/queries/spec';

export function stacksQuery(tenantId: string, userId: string | undefined, limit: number): FindSpec {
  const filter: Filter = { tenantId };
  if (userId !== undefined) filter.userId = userId;
  return { filter, sort: { createdAt: -1, id: -1 }, limit };
}

export const stackSetUpdate = (
  filter: Filter,
  set: Record<string, unknown>,
  now: Date,
): UpdateSpec => ({
  filter,
  update: { $set: { ...set, updatedAt: now } },
});

/** A row's key; rows carry the stack owner's userId, so the key scopes a write to the user. */
export const rowFilter = (
  tenantId: string,
  stackId: string,
  documentId: string,
  userId: string,
): Filter => ({
  tenantId,
  stackId,
  documentId,
  userId,
});

/** Writes a document's whole row; a new row takes the next place, an old one keeps its own. */
export const rowUpsert = (
  key: Filter,
  row: { cells: unknown; confidences: unknown },
  position: number,
  now: Date,
): UpdateSpec => ({
  filter: key,
  update: {
    $set: { cells: jsonValue(row.cells), confidences: jsonValue(row.confidences), updatedAt: now },
    $setOnInsert: { position, createdAt: now },
  },
  upsert: true,
});

/** One cell and its confidence, set by column in one update. */
export const cellUpdate = (
  key: Filter,
  cellPath: string,
  confidencePath: string,
  value: unknown,
  confidence: number,
  now: Date,
): UpdateSpec => ({
  filter: key,
  update: { $set: { [cellPath]: jsonValue(value), [confidencePath]: confidence, updatedAt: now } },
});

export const rowsQuery = (tenantId: string, stackId: string): FindSpec => ({
  filter: { tenantId, stackId },
  sort: { position: 1, documentId: 1 },
});
