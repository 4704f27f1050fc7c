// A routine's `collect` step: the items the first run's model collected off a page, read again
// on the server with no model. The step asks the client for the page's HTML; the items come
// from the tenant's selectors for that page (an extraction strategy kept under the item type),
// learned on the first rerun from the items the saved run stored from that page or that it
// shows again: the learner keeps selectors only when they read those items back (its spot
// check). They are
// stored as the model's would be (collect service: validation, unique keys, the task's count),
// and the step is traced like the model's collect, so a rerun compiles as the first run did.
// Whatever cannot be read this way (no selectors fit, the saved items are gone from the page)
// goes to the full agent, which collects with the model.
import { fillTemplate, ROUTINE_COLLECT, type RoutineStep } from '@tandem/contracts';
import type { OnwardAsk } from '@tandem/extraction';
import type { AgentDeps } from '../deps';
import { logFor } from '../nodes/node-context';
import { readPage } from '../nodes/outcomes';
import type { PageState } from '../page/page-state';
import type { InteractStateType, InteractStateUpdate } from '../state';
import { fallBackUpdate } from './handover';
import { onwardAsk } from './leads-on';
import { offPage } from './replay';
import { stepLabel, type RoutineRun } from './run';
import { traceCollect } from './trace';

export const isCollect = (step: RoutineStep | undefined) => step?.action === ROUTINE_COLLECT;

/** The strategy's key: one per item type and page kind, the tenant's for later reruns. */
export const collectQuery = (type: string) => `collected ${type} items`;

/**
 * The saved run's items looked through for a page's examples: a collecting task's first pages
 * hold far fewer. Items past it are not learned from (that page then goes to the agent).
 */
const MAX_EXAMPLES = 500;

/** Asks the client for the page's HTML: the step's items are read from it on the server. */
export function collectUnit(
  deps: AgentDeps,
  state: InteractStateType,
  run: RoutineRun,
  page: PageState,
  k: number,
): InteractStateUpdate {
  const step = run.routine.steps[k] as RoutineStep;
  const off = offPage(step, page.url, k, 'collects');
  if (off) return fallBackUpdate(deps, state, run, off);
  if (!deps.extraction || !deps.collect)
    return fallBackUpdate(deps, state, run, `step ${k + 1}'s items cannot be read here`);
  const unit = { from: k, to: k };
  return {
    routineRun: { ...run, unit },
    pending: null,
    pageRequest: { mode: 'content', format: 'html' },
    ...readPage(`${stepLabel(run, unit)}: read the page's items as saved`),
  };
}

/**
 * A JSON Schema for items like these: a list of objects of their scalar fields. Only the field
 * every item names first is required (what the item is: a title, a name): the model leaves out
 * what a card does not show (a job without an id), and a required field the page lacks on one
 * card would refuse the whole page.
 */
export function schemaOfItems(items: readonly Record<string, unknown>[]): Record<string, unknown> {
  const types = new Map<string, string>();
  for (const item of items)
    for (const [field, value] of Object.entries(item)) {
      const type =
        typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : null;
      if (type && !types.has(field)) types.set(field, type);
    }
  const first = Object.keys(items[0] ?? {})[0];
  const named =
    first !== undefined && types.has(first) && items.every((i) => Object.keys(i)[0] === first);
  const required = named ? [first] : [];
  return {
    type: 'array',
    items: {
      type: 'object',
      properties: Object.fromEntries([...types].map(([f, type]) => [f, { type }])),
      required,
    },
  };
}

type Read = ({ ok: true; items: unknown[]; how: string } | { ok: false; reason: string }) & {
  /** What leads on past the page, read with the items when this is a paged list's last read. */
  onward?: string | null;
};

/**
 * Items another page may show again: a board repeats the tail of the page before (a job
 * promoted again at the top of page 2), and the model read it there as well, so the selectors
 * must read it too. Only that tail is offered: the reader keeps those whose every text is in
 * the page's HTML (PageLearnRequest.shownAgain, searched in the worker pool), so the search
 * stays bounded however many items the saved run stored.
 */
const SHOWN_AGAIN_CANDIDATES = 50;

/**
 * The saved items of the page at `from` (`own`) and the ones just before them it may show
 * again (`shownAgain`).
 */
export function examplesFor(
  saved: readonly { sourceUrl: string | null; data: Record<string, unknown> }[],
  from: string,
): { own: Record<string, unknown>[]; shownAgain: Record<string, unknown>[] } {
  const firstHere = saved.findIndex((item) => item.sourceUrl === from);
  const end = firstHere < 0 ? saved.length : firstHere;
  return {
    own: saved.filter((item) => item.sourceUrl === from).map((item) => item.data),
    shownAgain: saved.slice(Math.max(0, end - SHOWN_AGAIN_CANDIDATES), end).map((i) => i.data),
  };
}

/** What reading one page's items needs: the services, the page, and the saved run's items. */
interface Reading {
  extraction: NonNullable<AgentDeps['extraction']>;
  collect: NonNullable<AgentDeps['collect']>;
  page: { tenantId: string; url: string; html: string; onward?: OnwardAsk };
  type: string;
  /** The task the routine was saved from, and the page the step collected on then. */
  source: string | null;
  from: string | undefined;
}

/** The page's items by the tenant's selectors, learned now from the saved run's if none exist. */
async function readItems(
  deps: AgentDeps,
  state: InteractStateType,
  run: RoutineRun,
  step: RoutineStep,
  html: string,
): Promise<Read> {
  const { extraction, collect } = deps;
  if (!extraction || !collect) return { ok: false, reason: 'collecting is not available here' };
  const url = state.page?.url ?? '';
  const onward = onwardAsk({ routineRun: run }, url);
  const reading: Reading = {
    extraction,
    collect,
    page: {
      tenantId: state.tenantId,
      url,
      html,
      // The routine's last read of a paged list: does the page go on past it (leads-on.ts)?
      ...(onward ? { onward } : {}),
    },
    type: fillTemplate(step.value ?? '', {}),
    source: run.routine.sourceTaskId,
    from: step.page?.url,
  };
  const { page, type } = reading;
  const examples = await savedExamples(reading);
  const strategy = await extraction.findData(page.tenantId, page.url, collectQuery(type));
  // A strategy learned on another page of the list matches this one's URL. The saved run's
  // items this page shows are items, whatever they carry here (page 2 marks the job repeated
  // from page 1 "Promoted", a mark page 1's items never had): the replay is told so.
  let replayProblem: string | null = null;
  if (strategy) {
    // Those of the page before are offered too: a card reads exactly as one only if shown again.
    const known = examples ? [...examples.shownAgain, ...examples.own] : [];
    const replayed = await extraction.replayData({ ...page, strategy, known });
    if (replayed.ok && Array.isArray(replayed.data))
      return {
        ok: true,
        items: replayed.data,
        how: `replayed strategy ${strategy.id}`,
        ...(replayed.onward !== undefined ? { onward: replayed.onward } : {}),
      };
    replayProblem = replayed.ok ? 'the selectors read no list' : replayed.reason;
  }
  // It may not fit this page otherwise: the saved items of this page teach it then.
  const learned = await learnItems(reading, examples);
  return learned.ok || replayProblem === null
    ? learned
    : { ok: false, reason: `${replayProblem}; ${learned.reason}` };
}

/** What the saved run stored on the step's page and just before it; null with no saved run. */
type Examples = ReturnType<typeof examplesFor> | null;

/** The saved run's items of the step's page (examplesFor); null when there is no saved run. */
async function savedExamples({ collect, page, type, source, from }: Reading): Promise<Examples> {
  if (!source || !from) return null;
  const saved = await collect.items(page.tenantId, source, type, MAX_EXAMPLES);
  return examplesFor(saved, from);
}

/** The page's items by selectors learned now from the items the saved run stored. */
async function learnItems({ extraction, page, type }: Reading, examples: Examples): Promise<Read> {
  if (examples === null) return { ok: false, reason: 'the saved run left no items to learn from' };
  const { own, shownAgain } = examples;
  if (own.length === 0 && shownAgain.length === 0)
    return { ok: false, reason: 'the saved run stored no items from this page' };
  const learned = await extraction.learnData({
    ...page,
    query: collectQuery(type),
    // Of every item offered: those the page shows again are known only in the pool.
    schema: schemaOfItems([...shownAgain, ...own]),
    data: own,
    shownAgain,
    // Stored on an earlier visit: a card beside them may be an item added since.
    fromEarlierVisit: true,
  });
  if (!learned.strategy) return { ok: false, reason: `no selectors read them: ${learned.reason}` };
  return Array.isArray(learned.data)
    ? {
        ok: true,
        items: learned.data,
        how: `learned strategy ${learned.strategy.id}`,
        ...(learned.onward !== undefined ? { onward: learned.onward } : {}),
      }
    : { ok: false, reason: 'the learned selectors read no list' };
}

/**
 * The page's HTML came back for the collect step `k`: its items are stored, and the run goes
 * on (`limitReached`: the task has its count). Anything else hands the task to the agent.
 */
export async function collectRead(
  deps: AgentDeps,
  state: InteractStateType,
  run: RoutineRun,
  k: number,
): Promise<
  { run: RoutineRun; update: InteractStateUpdate; limitReached: boolean } | InteractStateUpdate
> {
  const page = state.page as PageState;
  const step = run.routine.steps[k] as RoutineStep;
  // The HTML is for this step only: never left in the page the next prompt describes.
  const cleared = { page: { ...page, snapshot: null }, resumedFromPageRead: false };
  const snapshot = page.snapshot;
  const read: Read =
    !snapshot || snapshot.mode !== 'content' || snapshot.error
      ? {
          ok: false,
          reason: `the page's content did not arrive${snapshot?.error ? `: ${snapshot.error}` : ''}`,
        }
      : await readItems(deps, state, run, step, snapshot.text);
  if (!read.ok || !deps.collect)
    return {
      ...fallBackUpdate(
        deps,
        state,
        run,
        `step ${k + 1} read no items (${read.ok ? 'collecting is off' : read.reason})`,
      ),
      ...cleared,
    };
  const type = fillTemplate(step.value ?? '', {});
  const result = await deps.collect.collectMany({
    tenantId: state.tenantId,
    taskId: state.taskId,
    items: read.items.map((data) => ({ type, data })),
    sourceUrl: page.url,
    collectLimit: state.collectLimit,
  });
  const stored = result.outcomes.filter((o) => o.status === 'collected').length;
  const duplicates = result.outcomes.filter((o) => o.status === 'duplicate').length;
  logFor(deps, state, 'routine_step').info('routine collected', {
    routineId: run.routine.id,
    step: k,
    read: read.items.length,
    stored,
    duplicates,
    how: read.how,
  });
  // A key shared by items of other names (a recipe reading one URL for every card) would
  // store part of the list as the whole: the model reads this page instead.
  const conflicts = result.outcomes.filter((o) => o.status === 'conflict').length;
  if (conflicts > 0)
    return {
      ...fallBackUpdate(
        deps,
        state,
        run,
        `step ${k + 1} read ${conflicts} items whose key is another item's: ${result.message}`,
      ),
      ...cleared,
    };
  if (stored + duplicates === 0)
    return {
      ...fallBackUpdate(deps, state, run, `step ${k + 1}'s items were refused: ${result.message}`),
      ...cleared,
    };
  // Kept for the end check (step-node.ts, listGoesOn), seen while the run is on this unit.
  const onward = read.onward;
  return {
    run: { ...run, ...(onward ? { onward } : {}), next: k + 1, unit: null },
    limitReached: result.limitReached,
    update: {
      ...cleared,
      collectedCounts: result.counts,
      duplicatesSkipped: state.duplicatesSkipped + duplicates,
      ...(stored > 0 ? traceCollect(state, page.url, { type, stored }) : {}),
    },
  };
}
