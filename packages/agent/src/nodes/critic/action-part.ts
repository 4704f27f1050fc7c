// The critic in action generation: an accepted answer leaves its confidence for the critic to
// decide whether the proposal needs a review, and the critic's feedback (which the node put in
// the prompt's correction line) has been read.
import type { ActionPart } from '../action-generation/part';

export const criticPart: ActionPart = {
  name: 'critic',
  prepare: (_deps, state) => ({
    accepted: (turn) => ({
      ...(turn.out.confidence !== state.actionConfidence
        ? { actionConfidence: turn.out.confidence }
        : {}),
      ...(state.criticFeedback !== null ? { criticFeedback: null } : {}),
    }),
  }),
};
