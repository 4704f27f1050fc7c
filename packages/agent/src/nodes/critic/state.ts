// The critic's fields of the interact state (state.ts gathers every feature's).
import { replace } from '../../channel';

export const criticState = {
  /** The action generator's confidence in the pending action (the critic reviews < 0.85). */
  actionConfidence: replace<number | null>(() => null),
  /**
   * Why the critic (or the user, on an approval card) rejected the last proposal; action
   * generation reads it once.
   */
  criticFeedback: replace<string | null>(() => null),
  /** Proposals the critic rejected on the current step (capped: the last one then runs). */
  criticRejections: replace<number>(() => 0),
};
