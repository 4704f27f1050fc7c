// Whether a list page a routine read last goes on past it, from the page's HTML: the routine
// ends where the first run's list ended, and tells a longer list by the element it paged with.
// When that element is there under another name ("More products" for "Next page"), the tree
// cannot tell it from any other link; the links of the HTML the last read asked for can: a link
// to the URL the first run's pager led to, advanced to this page, or one the page marks
// rel="next". The extraction reads those links in the same parse as the items, in the server's
// worker pool (PageReadRequest.links): no second parse of the page on the request's thread.
import { ROUTINE_COLLECT, ROUTINE_EXTRACT, type RoutineStep } from '@tandem/contracts';
import type { PageLink } from '@tandem/contracts';
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

const parse = (url: string, base?: string): URL | null => {
  try {
    return new URL(url, base);
  } catch {
    return null;
  }
};

/** A URL as compared: no fragment, its query parameters in one order. */
function sameUrl(a: URL, b: URL): boolean {
  const key = (u: URL) => {
    const params = [...u.searchParams].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `${u.origin}${u.pathname}?${new URLSearchParams(params).toString()}`;
  };
  return key(a) === key(b);
}

const INTEGER = /^\d{1,9}$/;

/**
 * `here` advanced as the first run's pager advanced `before` to `after`: each number that
 * changed (?page=1 → 2, ?start=0 → 20, /page/2 → /page/3) moves by as much here. Null when the
 * change is not one of numbers (a cursor, another path) or `here` lacks what changed.
 */
function advanced(before: URL, after: URL, here: URL): URL | null {
  const next = new URL(here.href);
  let moved = false;
  const keys = new Set([...before.searchParams.keys(), ...after.searchParams.keys()]);
  for (const key of keys) {
    const [b, a, h] = [before, after, here].map((u) => u.searchParams.get(key));
    if (a === b) continue;
    if (!a || !INTEGER.test(a)) return null;
    // No number on the first page (?page= only from page 2 on): here must be that page too.
    if (b === null || b === undefined) {
      if (h !== null) return null;
      next.searchParams.set(key, a);
    } else if (INTEGER.test(b) && h && INTEGER.test(h)) {
      next.searchParams.set(key, String(Number(h) + Number(a) - Number(b)));
    } else return null;
    moved = true;
  }
  const [b, a, h] = [before, after, here].map((u) => u.pathname.split('/'));
  if (!b || !a || !h || a.length !== b.length || h.length !== b.length) return null;
  const path = h.map((part, i) => {
    if (a[i] === b[i]) return part;
    if (!INTEGER.test(a[i] ?? '') || !INTEGER.test(b[i] ?? '') || !INTEGER.test(part)) return null;
    moved = true;
    return String(Number(part) + Number(a[i]) - Number(b[i]));
  });
  if (path.includes(null)) return null;
  next.pathname = path.join('/');
  return moved ? next : null;
}

/**
 * The URL the pager leads to from `url`, as the first run's did: the page it led to when `url`
 * is the page it left, else that page's URL advanced to this one. Null when it led nowhere new
 * (a list that grows in place) or its change cannot be carried over.
 */
export function nextPageUrl(steps: readonly RoutineStep[], pager: number, url: string): URL | null {
  // A chain keeps its start page on its first step and its outcome on its last.
  const start = steps.slice(0, pager + 1).findLast((s) => s.page !== undefined)?.page?.url;
  const outcome = steps.slice(pager).find((s) => s.expect !== null)?.expect;
  if (!start || !outcome?.urlChanged) return null;
  const [before, after, here] = [parse(start), parse(outcome.url), parse(url)];
  if (!before || !after || !here || after.origin !== here.origin) return null;
  if (sameUrl(here, before)) return after;
  return advanced(before, after, here);
}

/**
 * What of the page's links leads on past it: a link to `next` (the URL the first run's pager led
 * to, for this page) or a link the page marks rel="next"; null when nothing does. A link the
 * page marks disabled leads nowhere.
 */
export function leadsOn(links: readonly PageLink[], url: string, next: URL | null): string | null {
  for (const link of links) {
    if (!link.href || link.disabled) continue;
    const target = parse(link.href, url);
    if (!target || !/^https?:$/.test(target.protocol)) continue;
    if (link.rel.includes('next')) return `the page links its next page (${target.href})`;
    if (next && sameUrl(target, next)) return `the page links ${target.href}, its next page`;
  }
  return null;
}

/**
 * The step that paged the list, when this read is a routine's last read and one did: then the
 * read asks for the page's links (onwardUpdate reads them). -1 otherwise.
 */
export function lastReadPager(state: Pick<InteractStateType, 'routineRun'>): number {
  const run = state.routineRun;
  if (!replaying(run) || !run.unit) return -1;
  const steps = run.routine.steps;
  if (run.unit.from !== steps.length - 1 || !readsItems(steps.at(-1))) return -1;
  return pagerStep(steps);
}

/**
 * For the routine's last read, from the links of the page it read: what shows that the list
 * goes on past it (kept on the run for the end check, routines/step-node.ts, listGoesOn), or
 * null.
 */
export function onwardOf(
  run: InteractStateType['routineRun'],
  url: string,
  links: readonly PageLink[] | undefined,
): string | null {
  const pager = lastReadPager({ routineRun: run });
  if (!links || pager < 0 || !run) return null;
  return leadsOn(links, url, nextPageUrl(run.routine.steps, pager, url));
}

/** The run with what leads on past its last read (onwardOf); nothing when nothing does. */
export function onwardUpdate(
  state: Pick<InteractStateType, 'routineRun'>,
  url: string,
  links: readonly PageLink[] | undefined,
): Pick<InteractStateUpdate, 'routineRun'> {
  const run = state.routineRun;
  const onward = onwardOf(run, url, links);
  return onward && run ? { routineRun: { ...run, onward } } : {};
}
