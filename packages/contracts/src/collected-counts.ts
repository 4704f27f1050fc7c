// Its own module because both interact.ts (the task result) and collect.ts (which needs
// interact's TaskId) use it: keeping it in either would make the two import each other.
import { z } from 'zod';

/** Collected items per type, e.g. `{ "job": 12 }` (docs/specs.md, "Streaming Extraction"). */
export const CollectedCounts = z.record(z.string(), z.number().int().nonnegative());
export type CollectedCounts = z.infer<typeof CollectedCounts>;

/**
 * The response that ends a task carries at most this many items: a result stays one JSON body
 * of bounded size, and a larger collection is paged from GET /api/tasks/{taskId}/collected.
 */
export const RESULT_ITEMS_MAX = 1_000;

/** Collected items' data per type, in collection order (docs/specs.md, "TaskResult.collected"). */
export const CollectedItemsByType = z.record(
  z.string(),
  z.array(z.record(z.string(), z.unknown())),
);
export type CollectedItemsByType = z.infer<typeof CollectedItemsByType>;
