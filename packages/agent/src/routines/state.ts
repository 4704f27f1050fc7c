// The routines feature's fields of the interact state (state.ts gathers every feature's).
import { replace } from '../channel';
import type { RoutineTraceEntry } from './trace';

export const routinesState = {
  /**
   * Every verdict of the task, in order, with what a routine needs of it (the actions, their
   * targets' locators, the tier-1 facts after them): compiled into a routine when the task
   * completes. Capped just past the longest routine, which is then refused.
   */
  routineTrace: replace<RoutineTraceEntry[]>(() => []),
};
