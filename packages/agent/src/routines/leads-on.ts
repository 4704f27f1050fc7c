// Whether a list page a routine read last goes on past it: the routine ends where the first
// run's list ended, and tells a longer list by the element it paged with. When that element is
// there under another name ("More products" for "Next page"), the tree cannot tell it; the
// page's links can (@tandem/extraction's leadsOn: a later page of the list as the first run's
// pager moved, or rel="next"). The last read asks for that verdict with its items
// (OnwardAsk): the extraction works it out in the same parse, in the server's worker pool, so
// neither a second parse nor the page's thousands of links land on the request's thread.
import { ROUTINE_COLLECT, ROUTINE_EXTRACT, type RoutineStep } from '@tandem/contracts';
import type { PageLink } from '@tandem/contracts';
import { pagerMoveOf, type OnwardAsk, type PagerMove } from '@tandem/extraction';
import type { InteractStateType, InteractStateUpdate } from '../state';
import { replaying } from './run';

/** Whether a step reads the page's items with a saved extraction. */
export const isRead = (step: RoutineStep | undefined) => step?.action === ROUTINE_EXTRACT;

/**
 * Whether a step reads a list's items off the page: a saved extraction, or the items a
 * collecting run's model stored (collect-step.ts). A list read page by page is either.
 */
export const readsItems = (step: RoutineStep | undefined) =>
  isRead(step) || step?.action === ROUTINE_COLLECT;

/**
 * The step that paged the list: the last element clicked between two reads (steps on no
 * element, a scroll or a wait, may sit between it and the read after it); -1 when none did.
 */
export function pagerStep(steps: readonly RoutineStep[]): number {
  const readsNext = (i: number) =>
    readsItems(steps.slice(i + 1).find((s) => s.target !== null || readsItems(s)));
  return steps.findLastIndex(
    (step, i) => step.target !== null && readsNext(i) && steps.slice(0, i).some(readsItems),
  );
}

/**
 * The first run's pager move: the page it was clicked on and the page it led to. Null when it
 * led nowhere new (a list that grows in place, a fragment of the same page).
 */
export function pagerMove(steps: readonly RoutineStep[], pager: number): PagerMove | null {
  // A chain keeps its start page on its first step and its outcome on its last.
  const start = steps.slice(0, pager + 1).findLast((s) => s.page !== undefined)?.page?.url;
  const outcome = steps.slice(pager).find((s) => s.expect !== null)?.expect;
  if (!start || !outcome?.urlChanged) return null;
  return pagerMoveOf(start, outcome.url);
}

/**
 * The step that paged the list, when this read is a routine's last read and one did: then the
 * read asks whether the page's links lead on past it (onwardAsk). -1 otherwise.
 */
export function lastReadPager(state: Pick<InteractStateType, 'routineRun'>): number {
  const run = state.routineRun;
  if (!replaying(run) || !run.unit) return -1;
  const steps = run.routine.steps;
  if (run.unit.from !== steps.length - 1 || !readsItems(steps.at(-1))) return -1;
  return pagerStep(steps);
}

/**
 * What the routine's last read of a paged list asks of the page's links (the read's
 * `onward`): whether they lead on past `url`, as the first run's pager moved. `outside`: links
 * the client listed outside a snapshot scoped to the list. Undefined for any other read.
 */
export function onwardAsk(
  state: Pick<InteractStateType, 'routineRun'>,
  url: string,
  outside?: readonly PageLink[],
): OnwardAsk | undefined {
  const run = state.routineRun;
  const pager = lastReadPager(state);
  if (pager < 0 || !run) return undefined;
  const move = pagerMove(run.routine.steps, pager);
  return { url, move, ...(outside && outside.length > 0 ? { outside } : {}) };
}

/**
 * The run with what leads on past its last read (the read's answer to onwardAsk), kept for the
 * end check (routines/step-node.ts, listGoesOn); nothing when nothing does.
 */
export function onwardUpdate(
  state: Pick<InteractStateType, 'routineRun'>,
  onward: string | null | undefined,
): Pick<InteractStateUpdate, 'routineRun'> {
  const run = state.routineRun;
  return onward && run ? { routineRun: { ...run, onward } } : {};
}
