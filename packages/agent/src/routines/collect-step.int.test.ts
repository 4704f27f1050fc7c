// A routine's `collect` step over the real collect service, ExtractionService and store (libSQL
// in memory): the items the first run's model collected leave a step in the trace, the goal's
// count becomes a parameter, and a rerun reads the page's items with no model call: the first
// rerun learns selectors from the saved run's items on that page, later reruns replay them on
// whatever the page lists then. A page without the saved items, or a list too short for the
// count, goes to the full agent.
import type { Routine, SemanticNodeV3 } from '@tandem/contracts';
import { catalogPageHtml, testProduct } from '@tandem/extraction/testing';
import { describe, expect, it } from 'vitest';
import { routeAfterDispatch, routeAfterRoutineStep } from '../routes';
import {
  collectedTrace,
  collectEnv,
  collectRerun,
  savedCollectRoutine,
  type CollectEnv,
} from '../testing/collect-runs';
import { nextPageClick } from '../testing/routine-runs';
import { examplesFor, schemaOfItems } from './collect-step';
import type { RoutineRun } from './run';
import type { RoutineTraceEntry } from './trace';

const URL = 'https://shop.test/catalog/';
const goal = (count: number) => `Collect ${count} products`;

/** What a model reads off a catalogue page: the products' names and prices. */
const productsOn = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const { name, price } = testProduct(first + i);
    return { type: 'product', data: { name, price } };
  });

type Setup = CollectEnv;

/** The first run: the model collected page 1's twelve products; the trace it leaves. */
const firstRun = (env: Setup, count: number): Promise<RoutineTraceEntry[]> =>
  collectedTrace(env, { goal: goal(count), count, url: URL, items: productsOn(0, 12) });

const saved = (count: number, trace: RoutineTraceEntry[]): Routine =>
  savedCollectRoutine(goal(count), trace);

/** One rerun of `routine` for `count` items: the HTML asked for, then the page's `html`. */
async function rerun(env: Setup, routine: Routine, taskId: string, count: number, html: string) {
  const { asked, back, after } = await collectRerun(env, routine, {
    taskId,
    goal: goal(count),
    count,
    url: URL,
    html,
  });
  expect(asked.pending).toBeNull();
  expect(asked.pageRequest).toEqual({ mode: 'content', format: 'html' });
  expect(routeAfterRoutineStep(asked)).toBe('dispatch');
  expect(back && routeAfterDispatch(back)).toBe('routine_step');
  return after;
}

const names = async (env: Setup, taskId: string) =>
  (await env.collect.items('t1', taskId, 'product')).map((i) => i.data.name);

describe('a routine that collects', () => {
  it('compiles the collected items into a collect step with the count as a parameter', async () => {
    const env = await collectEnv();
    const trace = await firstRun(env, 10);
    expect(trace).toEqual([
      expect.objectContaining({
        verified: true,
        actions: [],
        beforeUrl: URL,
        collect: { type: 'product', limit: 10 },
      }),
    ]);
    const routine = saved(10, trace);
    expect(routine.goalTemplate).toBe('Collect {count} products');
    expect(routine.parameters).toEqual([
      expect.objectContaining({ name: 'count', example: '10', steps: [0] }),
    ]);
    expect(routine.steps).toEqual([
      expect.objectContaining({ action: 'collect', target: null, value: 'product' }),
    ]);
  });

  it('learns selectors from the saved items, then reads new items with them, no model call', async () => {
    const env = await collectEnv();
    const routine = saved(10, await firstRun(env, 10));
    // First rerun, 8 wanted: learned from task-1's items on the same page.
    const first = await rerun(env, routine, 'task-2', 8, catalogPageHtml(0, 12, 1));
    expect(first.status).toBe('completed');
    expect(first.result).toMatch(/Collected 8 items, stored with the task\./);
    expect(await names(env, 'task-2')).toEqual(productsOn(0, 8).map((p) => p.data.name));
    // The page lists other products now: the kept selectors read them.
    const later = await rerun(env, routine, 'task-3', 5, catalogPageHtml(40, 12, 1));
    expect(later.status).toBe('completed');
    expect(await names(env, 'task-3')).toEqual(productsOn(40, 5).map((p) => p.data.name));
    expect(later.routineTrace.at(-1)).toMatchObject({
      verified: true,
      collect: { type: 'product' },
    });
    expect(env.llm.calls).toHaveLength(0);
  });

  it('hands over when the saved items are not on the page to learn from', async () => {
    const env = await collectEnv();
    const routine = saved(10, await firstRun(env, 10));
    const after = await rerun(env, routine, 'task-2', 10, catalogPageHtml(100, 12, 1));
    expect(after.status).not.toBe('completed');
    expect((after.routineRun as RoutineRun).fellBack).toMatch(/step 1 read no items/);
    expect(routeAfterRoutineStep(after)).toBe('action_generation');
    expect(after.page?.snapshot).toBeNull();
    expect(await names(env, 'task-2')).toEqual([]);
  });

  it('hands over when the saved pages give fewer items than the goal asks for', async () => {
    const env = await collectEnv();
    const routine = saved(10, await firstRun(env, 10));
    const after = await rerun(env, routine, 'task-2', 30, catalogPageHtml(0, 12, 1));
    expect((after.routineRun as RoutineRun).fellBack).toMatch(/gave 12 of the 30 items/);
    // What it read is kept: the agent goes on from 12.
    expect(await names(env, 'task-2')).toHaveLength(12);
    expect(after.collectedCounts).toEqual({ product: 12 });
  });

  it('hands over when the cards it reads share one key under different names', async () => {
    const env = await collectEnv();
    const withSku = productsOn(0, 12).map((p, i) => ({
      ...p,
      data: { ...p.data, sku: `P-${1001 + i}` },
    }));
    const trace = await collectedTrace(env, {
      goal: goal(10),
      count: 10,
      url: URL,
      items: withSku,
    });
    const routine = saved(10, trace);
    const first = await rerun(env, routine, 'task-2', 8, catalogPageHtml(0, 12, 1));
    expect(first.status).toBe('completed');
    // The page now writes one SKU on every card: read as keys, all but one would be dropped.
    const oneSku = catalogPageHtml(40, 12, 1).replace(/data-sku="[^"]*"/g, 'data-sku="P-0"');
    const after = await rerun(env, routine, 'task-3', 5, oneSku);
    expect((after.routineRun as RoutineRun).fellBack).toMatch(
      /step 1 read 11 items whose key is another item's/,
    );
    expect(routeAfterRoutineStep(after)).toBe('action_generation');
  });
});

describe('a routine that collected every item of a list, page by page', () => {
  const P1 = `${URL}?page=1`;
  const P2 = `${URL}?page=2`;
  const EVERY = 'Collect every product';

  /** The first run: page 1's twelve products, Next page clicked, page 2's twelve. */
  async function pagedRoutine(env: Setup): Promise<Routine> {
    const [one] = await collectedTrace(env, {
      goal: EVERY,
      count: null,
      url: P1,
      items: productsOn(0, 12),
    });
    const [two] = await collectedTrace(env, {
      goal: EVERY,
      count: null,
      url: P2,
      items: productsOn(12, 12),
    });
    if (!one || !two) throw new Error('no collect traced');
    const click = nextPageClick(one, P2);
    const routine = savedCollectRoutine(EVERY, [one, click, two]);
    expect(routine.steps.map((s) => s.action)).toEqual(['collect', 'click', 'collect']);
    return routine;
  }

  /** The rerun's last read: page 2 with these elements and this HTML. */
  const lastPage = (
    env: Setup,
    routine: Routine,
    taskId: string,
    html: string,
    tree: SemanticNodeV3[],
  ) =>
    collectRerun(env, routine, { taskId, goal: EVERY, count: null, url: P2, html, from: 2, tree });

  const page2 = catalogPageHtml(12, 12, 2);
  const lastOfTwo = page2.replace(/<p><a href="\?page=3">Next page<\/a><\/p>/, '');

  it('ends where the list ended then, and hands over when the list goes on past it now', async () => {
    const env = await collectEnv();
    const routine = await pagedRoutine(env);
    expect(lastOfTwo).not.toContain('Next page');
    const ended = await lastPage(env, routine, 'task-2', lastOfTwo, []);
    expect(ended.after.status).toBe('completed');
    expect(await names(env, 'task-2')).toEqual(productsOn(12, 12).map((p) => p.data.name));
    // Page 2 has a Next page now: the routine's pages are not the whole list.
    const next: SemanticNodeV3 = { i: 'next', r: 'link', n: 'Next page' };
    const longer = await lastPage(env, routine, 'task-3', page2, [next]);
    expect((longer.after.routineRun as RoutineRun).fellBack).toMatch(
      /the list goes on past the pages .*still there/,
    );
    expect(longer.after.status).not.toBe('completed');
    expect(env.llm.calls).toHaveLength(0);
  });

  it('hands over when the next page is linked under another name', async () => {
    const env = await collectEnv();
    const routine = await pagedRoutine(env);
    const renamed = page2.replace('Next page', 'More products');
    const more: SemanticNodeV3 = { i: 'more', r: 'link', n: 'More products' };
    const longer = await lastPage(env, routine, 'task-2', renamed, [more]);
    expect((longer.after.routineRun as RoutineRun).fellBack).toMatch(
      /the list goes on past the pages .*page=3, a later page of the list/,
    );
    // What it read is kept: the agent goes on from page 2's items.
    expect(await names(env, 'task-2')).toHaveLength(12);
  });
});

describe('schemaOfItems', () => {
  it('lists scalar fields, requiring only the one every item names first', () => {
    expect(
      schemaOfItems([
        { name: 'A', price: 1, tags: ['x'] },
        { name: 'B', price: 2, note: 'n' },
      ]),
    ).toEqual({
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          price: { type: 'number' },
          note: { type: 'string' },
        },
        required: ['name'],
      },
    });
  });
});

describe('examplesFor', () => {
  it('takes the page’s own items, and offers the tail of the page before as shown again', () => {
    const item = (n: number, sourceUrl: string) => ({ sourceUrl, data: { title: `Job ${n}x` } });
    const saved = [
      ...Array.from({ length: 120 }, (_, n) => item(n, 'p1')),
      ...Array.from({ length: 3 }, (_, n) => item(200 + n, 'p2')),
    ];
    const { own, shownAgain } = examplesFor(saved, 'p2');
    expect(own.map((d) => d.title)).toEqual(['Job 200x', 'Job 201x', 'Job 202x']);
    // Only the 50 before its own are offered (the reader keeps those the page shows).
    expect(shownAgain.map((d) => d.title)).toEqual(
      Array.from({ length: 50 }, (_, n) => `Job ${70 + n}x`),
    );
    // A page the saved run never collected on: the last 50 items may still be on it.
    expect(examplesFor(saved, 'p9').own).toEqual([]);
    expect(examplesFor(saved, 'p9').shownAgain).toHaveLength(50);
  });
});
