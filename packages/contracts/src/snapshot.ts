// Page snapshots (spec 002): the server asks for one when the semantic tree is not enough to
// understand the page (articles, tables), and the client answers on its next interact request.
import { z } from 'zod';
import { formatCount } from './format-count';

export const SnapshotMode = z
  .enum(['outline', 'content'])
  .meta({ description: 'outline: landmarks, sections and xpaths; content: text of sections.' });
export type SnapshotMode = z.infer<typeof SnapshotMode>;

export const SNAPSHOT_TEXT_MAX_LENGTH = 2_000_000;

/** Sent by the server in `needs_snapshot`. */
export const SnapshotRequest = z.object({
  mode: SnapshotMode,
  grep: z
    .string()
    .max(1_000)
    .optional()
    .meta({ description: 'xpath patterns from the outline, "|"-separated (content mode).' }),
  selector: z.string().max(1_000).optional(),
});
export type SnapshotRequest = z.infer<typeof SnapshotRequest>;

/** Sent by the client in `snapshot`, answering a `needs_snapshot`. */
export const PageSnapshot = z.object({
  mode: SnapshotMode,
  text: z.string().max(SNAPSHOT_TEXT_MAX_LENGTH, {
    error: `snapshot text must be at most ${formatCount(SNAPSHOT_TEXT_MAX_LENGTH)} characters`,
  }),
});
export type PageSnapshot = z.infer<typeof PageSnapshot>;
