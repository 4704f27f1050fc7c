import type { PageLink, Routine, RoutineStep } from '@tandem/contracts';
import { readPage } from '@tandem/extraction';
import { describe, expect, it } from 'vitest';
import { lastReadPager, onwardAsk, onwardUpdate, pagerMove, pagerStep } from './leads-on';
import { startRun } from './run';
import { pagedSteps, readStep as read } from '../testing/routine-runs';

describe('pagerStep', () => {
  it('is the element clicked between two reads, and none without one', () => {
    const steps = pagedSteps('https://shop.test/c?page=1', 'https://shop.test/c?page=2');
    expect(pagerStep(steps)).toBe(1);
    expect(pagerStep([read('https://shop.test/c')])).toBe(-1);
  });
});

describe('pagerMove', () => {
  it('is the page the pager left and the one it led to, or none when it led nowhere new', () => {
    const [p1, p2] = ['https://shop.test/c/?page=1', 'https://shop.test/c/?page=2'];
    expect(pagerMove(pagedSteps(p1, p2), 1)).toEqual({ before: p1, after: p2 });
    expect(pagerMove(pagedSteps(p1, p1, false), 1)).toBeNull();
    // A carousel's arrow that only changed the fragment, on pages-dev's shop pages.
    expect(
      pagerMove(pagedSteps('https://s.test/b?node=1', 'https://s.test/b?node=1#'), 1),
    ).toBeNull();
  });
});

describe('onwardAsk and onwardUpdate', () => {
  const p1 = 'https://shop.test/c/?page=1';
  const p2 = 'https://shop.test/c/?page=2';
  const routine = (steps: RoutineStep[]) => ({ steps }) as unknown as Routine;
  const tokens = { input: 0, output: 0, saved: 0, calls: 0, costMicroUsd: 0 };
  const at = (steps: RoutineStep[], k: number) => ({
    routineRun: { ...startRun(routine(steps), {}, tokens), next: k, unit: { from: k, to: k } },
  });
  /** The read's answer to the ask, as the page reader gives it (in the worker pool). */
  const answer = (html: string, state: ReturnType<typeof at>, outside?: PageLink[]) => {
    const onward = onwardAsk(state, p2, outside);
    return readPage({
      html,
      cssSelector: null,
      url: p2,
      replay: null,
      ...(onward ? { onward } : {}),
    }).onward;
  };

  it('keeps what leads on past the routine’s last read', () => {
    const last = at(pagedSteps(p1, p2), 2);
    const update = onwardUpdate(last, answer('<a href="?page=3">More products</a>', last));
    expect(update.routineRun).toMatchObject({ onward: expect.stringContaining('page=3') });
    expect(onwardUpdate(last, answer('<a href="?page=1">Back</a>', last))).toEqual({});
    // The pager outside a snapshot scoped to the list: the client lists it.
    const outside = [{ href: '?page=3', rel: [], disabled: false }];
    expect(answer('<a href="?page=1">Back</a>', last, outside)).toMatch(/page=3/);
  });

  it('asks only on the last read of a routine that paged', () => {
    expect(lastReadPager(at(pagedSteps(p1, p2), 2))).toBeGreaterThanOrEqual(0);
    expect(onwardAsk(at(pagedSteps(p1, p2), 2), p2)).toEqual({
      url: p2,
      move: { before: p1, after: p2 },
    });
    expect(lastReadPager(at(pagedSteps(p1, p2), 0))).toBe(-1);
    expect(onwardAsk(at(pagedSteps(p1, p2), 0), p1)).toBeUndefined();
    expect(onwardAsk(at([read(p1)], 0), p1)).toBeUndefined();
    expect(onwardAsk({ routineRun: null }, p1)).toBeUndefined();
  });

  it('is nothing when the read found nothing leading on, or was not asked', () => {
    const last = at(pagedSteps(p1, p2), 2);
    expect(onwardUpdate(last, null)).toEqual({});
    expect(onwardUpdate(last, undefined)).toEqual({});
    expect(answer('<a href="?page=3">More products</a>', at(pagedSteps(p1, p2), 0))).toBe(
      undefined,
    );
  });
});
