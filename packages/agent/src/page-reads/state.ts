// The page-reading feature's fields of the interact state (state.ts gathers every feature's).
import type { SnapshotRequest } from '@tandem/contracts';
import { replace } from '../channel';

export const pageReadsState = {
  /** A snapshot asked of the client (needs_snapshot); set while waiting for its answer. */
  pageRequest: replace<SnapshotRequest | null>(() => null),
  /**
   * The client executed nothing since the last response (it answered pageRequest, or the user
   * rejected the action): reason again, verify nothing.
   */
  resumedFromPageRead: replace<boolean>(() => false),
  /** Snapshots asked for the current step; capped so a model cannot loop on reading. */
  pageReadsThisStep: replace<number>(() => 0),
};
