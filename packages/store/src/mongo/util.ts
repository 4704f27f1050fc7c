// Helpers every Mongo repository shares: time and JSON conversions between documents and the
// port's records, duplicate-key detection, per-scope sequence numbers.
import type { Model } from 'mongoose';
import type { CounterDoc } from './schemas';
import { nextSeqUpdate } from './queries/cursor';

export { toDate, olderThanCursor } from './queries/cursor';
export { jsonValue } from './queries/json';

/** BSON date → the port's ISO form (UTC, ms). */
export const iso = (value: Date): string => value.toISOString();

export const isoOrNull = (value: Date | null | undefined): string | null =>
  value instanceof Date ? value.toISOString() : null;

export const nowDate = (): Date => new Date();

/** `optional ?? null`, for string/number fields a document may lack or hold as null. */
export const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

/** A stored JSON-ish value as the record's type (it was written from that same type). */
export const fromJson = <T>(value: unknown): T => (value === undefined ? null : value) as T;

/** MongoServerError / MongoBulkWriteError for a unique index violation. */
export function isMongoDuplicateKey(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, writeErrors } = error as { code?: unknown; writeErrors?: unknown };
  if (code === 11000 || code === 11001) return true;
  return (
    Array.isArray(writeErrors) &&
    writeErrors.some(
      (e: unknown) =>
        typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 11000,
    )
  );
}

/**
 * An upsert whose filter names a unique key can still fail with E11000 when two of them
 * insert at once; the retry then finds the winner's document and updates it.
 */
export async function retryOnDuplicate<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!isMongoDuplicateKey(error)) throw error;
    return operation();
  }
}

/**
 * The next number of a per-scope sequence (1, 2, 3…): one atomic $inc on a counter document,
 * so concurrent appends never read the same value.
 */
export async function nextSeq(
  counters: Model<CounterDoc>,
  tenantId: string,
  scope: CounterDoc['scope'],
  key: string,
): Promise<number> {
  const { filter, update } = nextSeqUpdate(tenantId, scope, key);
  const counter = await retryOnDuplicate(() =>
    counters
      .findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' })
      .lean()
      .exec(),
  );
  if (counter === null) throw new Error(`mongo: counter ${scope}/${key} was not returned`);
  return counter.seq;
}
