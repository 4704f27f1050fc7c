// Its own module because both interact.ts (the task result) and collect.ts (which needs
// interact's TaskId) use it: keeping it in either would make the two import each other.
import { z } from 'zod';

/** Collected items per type, e.g. `{ "job": 12 }` (spec 000 "Streaming Extraction"). */
export const CollectedCounts = z.record(z.string(), z.number().int().nonnegative());
export type CollectedCounts = z.infer<typeof CollectedCounts>;
