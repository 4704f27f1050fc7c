// The collect feature's fields of the interact state (state.ts gathers every feature's).
import type { CollectedCounts } from '@tandem/contracts';
import { replace } from '../channel';

export const collectState = {
  /**
   * Finish once this many items are collected (docs/specs.md, "Collection Limits"); null: no
   * target.
   */
  collectLimit: replace<number | null>(() => null),
  /**
   * Items collected so far per type. Counts only: the items live in the store, so the state
   * and every prompt stay the same size however many are collected (docs/specs.md, "streaming
   * extraction").
   */
  collectedCounts: replace<CollectedCounts>(() => ({})),
  /** Items collect skipped as duplicates so far (shown as a count, never one line each). */
  duplicatesSkipped: replace<number>(() => 0),
};
