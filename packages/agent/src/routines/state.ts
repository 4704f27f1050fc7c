// The routines feature's fields of the interact state (state.ts gathers every feature's).
import type { RoutineRunRequest } from '@tandem/contracts';
import { replace } from '../channel';
import type { RoutineRun } from './run';
import type { RoutineTraceEntry } from './trace';

export const routinesState = {
  /**
   * Every verdict of the task, in order, with what a routine needs of it (the actions, their
   * targets' locators, the tier-1 facts after them): compiled into a routine when the task
   * completes. Capped just past the longest routine, which is then refused.
   */
  routineTrace: replace<RoutineTraceEntry[]>(() => []),
  /**
   * The goal as the user typed it, `{{name=value}}` markers and all: what a routine is compiled
   * from and matched against. The state's `query` (what every prompt reads) has them removed.
   */
  goalAsTyped: replace<string>(() => ''),
  /** The routine the user picked in the popup ("Run again with…"), from the first request. */
  routineRequest: replace<RoutineRunRequest | null>(() => null),
  /** The routine this task reruns; null when it runs with the model from the start. */
  routineRun: replace<RoutineRun | null>(() => null),
};
