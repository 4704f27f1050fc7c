// Keyset paging and per-scope sequence numbers, shared by several repositories.
import { decodeCursor } from '../../shared';
import type { Filter, UpdateSpec } from './spec';

/** Port time (ISO string, any offset) → BSON date. Rejects what is not a time. */
export function toDate(value: string): Date {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new Error(`Invalid timestamp: ${value}`);
  return new Date(time);
}

/**
 * Keyset filter for "newest first" pages: the cursor is the (createdAt, id) of the last item
 * returned, the same cursor the libSQL adapter hands out.
 */
export function olderThanCursor(cursor: string | null | undefined): Filter {
  const after = cursor ? decodeCursor(cursor) : null;
  if (!after || after.length !== 2) return {};
  const createdAt = toDate(String(after[0]));
  return {
    $or: [{ createdAt: { $lt: createdAt } }, { createdAt, id: { $lt: String(after[1]) } }],
  };
}

/** The next number of a per-scope sequence: one atomic $inc on an upserted counter. */
export function nextSeqUpdate(tenantId: string, scope: string, key: string): UpdateSpec {
  return { filter: { tenantId, scope, key }, update: { $inc: { seq: 1 } }, upsert: true };
}
