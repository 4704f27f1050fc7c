// Stored collected items as clients see them: no tenant bookkeeping, and no synthetic key.
import type { CollectedItemEntry } from '@tandem/contracts';
import type { CollectedItem } from '@tandem/store';

/**
 * The store needs a key per item (unique per task and type). When unique-id inference
 * (docs/specs.md, "Unique ID Inference") finds none, duplicates are allowed, so the item gets a key
 * of its own under this prefix; clients see `uniqueKey: null` for it.
 */
export const UNKEYED_PREFIX = 'unkeyed:';

export const isInferredKey = (uniqueKey: string): boolean => !uniqueKey.startsWith(UNKEYED_PREFIX);

export function toCollectedItemEntry(item: CollectedItem): CollectedItemEntry {
  return {
    id: item.id,
    type: item.type,
    uniqueKey: isInferredKey(item.uniqueKey) ? item.uniqueKey : null,
    data: item.data,
    sourceUrl: item.sourceUrl,
    seq: item.seq,
    createdAt: item.createdAt,
  };
}
