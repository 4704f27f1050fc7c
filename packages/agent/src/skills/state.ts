// The skills feature's fields of the interact state (state.ts gathers every feature's).
import { replace } from '../channel';

export const skillsState = {
  /**
   * Skills (lessons from earlier corrections) shown to the model for the action in flight:
   * its verification records whether they helped (the skills' effectiveness).
   */
  skillHintIds: replace<string[]>(() => []),
};
