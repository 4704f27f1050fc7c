// A routine's `extract` step over the real ExtractionService and store (libSQL in memory): the
// first run's extraction leaves a read in the trace, the compiled routine replays its saved
// strategy on the page with no model call, and the routine ends with what it stored. A read
// that finds nothing, and a list that has grown a page since, go to the full agent.
import type { Routine, SemanticNodeV3 } from '@tandem/contracts';
import { ExtractionService } from '@tandem/extraction';
import {
  catalogPageHtml,
  productListSchema,
  scriptedExtractionLlm,
  sentHtml,
  sentLinks,
} from '@tandem/extraction/testing';
import { createLibsqlStore } from '@tandem/store';
import { describe, expect, it } from 'vitest';
import { extraction } from '../nodes/extraction/node';
import { routeAfterExtraction, routeAfterRoutineStep } from '../routes';
import type { InteractStateType } from '../state';
import { nextPageClick, savedRoutine } from '../testing/routine-runs';
import { applyUpdate, nodeDeps, pageWith, stateWith } from '../testing/state';
import { startRun, type RoutineRun } from './run';
import { routineStep } from './step-node';
import type { RoutineTraceEntry } from './trace';

const URL = 'https://shop.test/catalog/?page=1';
const GOAL = 'Extract every product as JSON with name and price';
const TOKENS = { input: 0, output: 0, saved: 0, calls: 0, costMicroUsd: 0 };
const NEXT: SemanticNodeV3 = { i: 'next', r: 'link', n: 'Next page' };

async function setup() {
  const store = await createLibsqlStore({ url: ':memory:' });
  const llm = scriptedExtractionLlm();
  const deps = nodeDeps({ extraction: new ExtractionService({ llm, store }) });
  return { store, llm, deps };
}
type Setup = Awaited<ReturnType<typeof setup>>;

const onPage = (state: InteractStateType, html: string, tree: SemanticNodeV3[] = []) => ({
  ...state,
  page: pageWith({ url: URL, tree, snapshot: { mode: 'content', text: html } }),
});

/** The first run's extraction of page 1, as the model asked for it: its trace entry. */
async function firstRun({ deps }: Setup): Promise<RoutineTraceEntry[]> {
  const before = onPage(
    stateWith({
      tenantId: 't1',
      taskId: 'task-1',
      pendingExtraction: { query: 'products', outputSchema: productListSchema(['name', 'price']) },
    }),
    catalogPageHtml(0, 12, 1),
  );
  return applyUpdate(before, await extraction(deps)(before)).routineTrace;
}

const saved = (trace: RoutineTraceEntry[]): Routine => savedRoutine(GOAL, trace);

const rerun = (routine: Routine, tree: SemanticNodeV3[] = []) =>
  stateWith({
    tenantId: 't1',
    taskId: 'task-2',
    query: GOAL,
    complexity: 'COMPLEX',
    page: pageWith({ url: URL, tree }),
    routineRun: startRun(routine, {}, TOKENS),
  });

/** One rerun of `routine` on page 1: the read asked for, the content extracted, the verdict. */
async function replayed(env: Setup, routine: Routine, taskId: string) {
  // The step asks the client for the content its strategy reads, and sends no action.
  const start = { ...rerun(routine), taskId };
  const asked = applyUpdate(start, await routineStep(env.deps)(start));
  const strategy = routine.steps[0]?.value;
  expect(asked.pending).toBeNull();
  expect(asked.pageRequest).toMatchObject({ mode: 'content', format: 'html' });
  expect(asked.pendingExtraction).toEqual({ extractionId: strategy });
  expect(asked.routineRun?.unit).toEqual({ from: 0, to: 0 });
  expect(routeAfterRoutineStep(asked)).toBe('dispatch');
  // The content comes back: the strategy reads it, and the routine goes on.
  const read = onPage({ ...asked, pageRequest: null }, catalogPageHtml(0, 12, 1));
  const extracted = applyUpdate(read, await extraction(env.deps)(read));
  expect(extracted.routineTrace.at(-1)).toMatchObject({
    verified: true,
    read: { extractionId: strategy },
  });
  expect(routeAfterExtraction(extracted)).toBe('routine_step');
  return applyUpdate(extracted, await routineStep(env.deps)(extracted));
}

describe('a routine that reads with a saved extraction', () => {
  it('compiles the extraction into an extract step and replays it with no model call', async () => {
    const env = await setup();
    const trace = await firstRun(env);
    expect(trace).toHaveLength(1);
    expect(trace[0]).toMatchObject({ verified: true, actions: [], beforeUrl: URL });
    const strategy = trace[0]?.read?.extractionId;
    expect(strategy).toEqual(expect.any(String));
    const routine = saved(trace);
    expect(routine.steps).toEqual([
      expect.objectContaining({
        action: 'extract',
        target: null,
        value: strategy,
        page: { url: URL },
      }),
    ]);
    // The first replay of a learned recipe is cross-checked by the model once (the extraction
    // service's rule); a routine's later runs call nothing.
    await replayed(env, routine, 'task-2');
    const callsBefore = env.llm.calls.length;
    const done = await replayed(env, routine, 'task-3');
    expect(done.status).toBe('completed');
    expect(done.result).toMatch(
      /\(1 steps\)\. Extracted 12 items from 1 page, stored with the task\./,
    );
    expect(env.llm.calls.length).toBe(callsBefore);
    const stored = await env.store.extractionResults.listByTask('t1', 'task-3');
    expect(stored.map((r) => [r.method, (r.data as unknown[]).length])).toEqual([['replay', 12]]);
  });

  it('hands over when the saved extraction reads nothing on the page', async () => {
    const env = await setup();
    const routine = saved(await firstRun(env));
    const start = rerun(routine);
    const asked = applyUpdate(start, await routineStep(env.deps)(start));
    const empty = onPage(
      { ...asked, pageRequest: null },
      '<html><body><p>Sold out.</p></body></html>',
    );
    const extracted = applyUpdate(empty, await extraction(env.deps)(empty));
    const after = applyUpdate(extracted, await routineStep(env.deps)(extracted));
    expect(after.status).not.toBe('completed');
    expect((after.routineRun as RoutineRun).fellBack).toMatch(
      /saved extraction of step 1 read nothing here/,
    );
    expect(routeAfterRoutineStep(after)).toBe('action_generation');
    // A read that added nothing to the trace (an earlier read's entry is last) is no read.
    const earlier = {
      ...asked,
      routineTrace: extracted.routineTrace.map((e) => ({ ...e, verified: true })),
    };
    const unread = await routineStep(env.deps)({
      ...earlier,
      routineRun: { ...(asked.routineRun as RoutineRun), readAt: earlier.routineTrace.length },
    });
    expect((unread.routineRun as RoutineRun).fellBack).toMatch(/read nothing here/);
  });

  it('hands over when the list has a page more than when the routine was saved', async () => {
    const env = await setup();
    const [read] = await firstRun(env);
    if (!read) throw new Error('no read');
    // Page 1 read, Next page clicked (verified), page 2 read: the last page then had no Next.
    const click = nextPageClick(read, 'https://shop.test/catalog/?page=2');
    const page2 = { ...read, beforeUrl: 'https://shop.test/catalog/?page=2' };
    const routine = saved([read, click, page2]);
    expect(routine.steps.map((s) => s.action)).toEqual(['extract', 'click', 'extract']);

    // At its last read, Next page is still there: the agent reads on.
    const last = {
      ...rerun(routine, [NEXT]),
      routineRun: { ...startRun(routine, {}, TOKENS), next: 3 },
    };
    const longer = await routineStep(env.deps)(last);
    expect((longer.routineRun as RoutineRun).fellBack).toMatch(/the list goes on past the pages/);
    // Without it, the routine is done.
    const ended = await routineStep(env.deps)({ ...last, page: pageWith({ url: URL, tree: [] }) });
    expect(ended.status).toBe('completed');
    // A scroll between the click and the next read (the model scrolled after paging) is no
    // reason to miss the pager.
    const scroll: RoutineTraceEntry = {
      ...click,
      actions: [{ action: { name: 'scroll', args: { direction: 'down' } }, target: null }],
    };
    const scrolled = saved([read, click, scroll, page2]);
    expect(scrolled.steps.map((s) => s.action)).toEqual(['extract', 'click', 'scroll', 'extract']);
    const atEnd = {
      ...rerun(scrolled, [NEXT]),
      routineRun: { ...startRun(scrolled, {}, TOKENS), next: 4 },
    };
    const more = await routineStep(env.deps)(atEnd);
    expect((more.routineRun as RoutineRun).fellBack).toMatch(/the list goes on past the pages/);
  });
});

describe('a routine whose saved extraction reads one part of the page', () => {
  const PAGE_2 = 'https://shop.test/catalog/?page=2';
  const SCOPE = '#products';
  /** Page `n` as a shop renders it, its pager below the list under `pager`'s name. */
  const shopPage = (n: number, pager: string | null) =>
    catalogPageHtml((n - 1) * 12, 12, n).replace(
      /<p><a href="\?page=\d+">Next page<\/a><\/p>/,
      pager ? `<p><a href="?page=${n + 1}">${pager}</a></p>` : '',
    );

  // The model scoped its read to the list (cssSelector), so the strategy is scoped, and a read
  // with it sends that part only: a pager below the list is not in it. Renamed ("More
  // products"), the pager is not found by name either, and the routine ended after page 2 with
  // a longer list: part of the data, handed back as all of it. The read now asks for the
  // page's links outside the part it reads, and the one to page 3 tells the list goes on.
  it('hands over when a pager outside that part leads on under another name', async () => {
    const env = await setup();
    const first = onPage(
      stateWith({
        tenantId: 't1',
        taskId: 'task-1',
        pendingExtraction: {
          query: 'products',
          outputSchema: productListSchema(['name', 'price']),
          cssSelector: SCOPE,
        },
      }),
      sentHtml(shopPage(1, 'Next page'), URL, SCOPE),
    );
    const [read] = applyUpdate(first, await extraction(env.deps)(first)).routineTrace;
    if (!read?.read?.extractionId) throw new Error('the first run read nothing');
    const routine = saved([read, nextPageClick(read, PAGE_2), { ...read, beforeUrl: PAGE_2 }]);

    const lastRead = async (pager: string | null, tree: SemanticNodeV3[]) => {
      const start = {
        ...rerun(routine, tree),
        taskId: `task-${pager ?? 'end'}`,
        page: pageWith({ url: PAGE_2, tree }),
        routineRun: { ...startRun(routine, {}, TOKENS), next: 2 },
      };
      const asked = applyUpdate(start, await routineStep(env.deps)(start));
      // The read is scoped as the strategy is, and asks for the links outside it.
      expect(asked.pageRequest).toEqual({
        mode: 'content',
        format: 'html',
        selector: SCOPE,
        pageLinks: true,
      });
      const html = shopPage(2, pager);
      const sent = {
        ...asked,
        pageRequest: null,
        page: pageWith({
          url: PAGE_2,
          tree,
          snapshot: {
            mode: 'content',
            text: sentHtml(html, PAGE_2, SCOPE),
            links: sentLinks(html, SCOPE),
          },
        }),
      };
      expect(sent.page.snapshot?.text).not.toContain('?page=3');
      const extracted = applyUpdate(sent, await extraction(env.deps)(sent));
      return applyUpdate(extracted, await routineStep(env.deps)(extracted));
    };

    const more: SemanticNodeV3 = { i: 'more', r: 'link', n: 'More products' };
    const longer = await lastRead('More products', [more]);
    expect(longer.routineRun?.fellBack).toMatch(
      /the list goes on past the pages .*shop\.test\/catalog\/\?page=3/,
    );
    expect(routeAfterRoutineStep(longer)).toBe('action_generation');
    // No pager below the list: it ended there, as it did when the routine was saved.
    const ended = await lastRead(null, []);
    expect(ended.routineRun?.fellBack).toBeNull();
    expect(ended.status).toBe('completed');
    // The first read of the list (not its last) asks for no links.
    const firstRead = applyUpdate(rerun(routine), await routineStep(env.deps)(rerun(routine)));
    expect(firstRead.pageRequest).toEqual({ mode: 'content', format: 'html', selector: SCOPE });
  });
});
