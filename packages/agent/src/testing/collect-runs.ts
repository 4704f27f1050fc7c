// A collecting task's first run and its routine's reruns, over the real collect service,
// ExtractionService and store (libSQL in memory), with the scripted extraction model at the
// boundary: the collect routine tests share them (routines/collect-*.int.test.ts).
import type { Routine } from '@tandem/contracts';
import { ExtractionService } from '@tandem/extraction';
import { scriptedExtractionLlm } from '@tandem/extraction/testing';
import { createLibsqlStore } from '@tandem/store';
import { collectPart } from '../collect/action-part';
import { CollectService } from '../collect/collect-service';
import type { ActionTurn } from '../nodes/action-generation/part';
import type { ActionGenerationOutput } from '../nodes/action-generation/prompt';
import { startRun } from '../routines/run';
import { routineStep } from '../routines/step-node';
import type { RoutineTraceEntry } from '../routines/trace';
import type { PageState } from '../page/page-state';
import type { InteractStateType } from '../state';
import { savedRoutine } from './routine-runs';
import { applyUpdate, nodeDeps, pageWith, stateWith } from './state';

const TOKENS = { input: 0, output: 0, saved: 0, calls: 0, costMicroUsd: 0 };
/** The task every first run is: the routine's source, whose items a rerun learns from. */
export const FIRST_TASK = 'task-1';

export async function collectEnv() {
  const store = await createLibsqlStore({ url: ':memory:' });
  const llm = scriptedExtractionLlm();
  const collect = new CollectService(store);
  const deps = nodeDeps({ extraction: new ExtractionService({ llm, store }), collect });
  return { store, llm, deps, collect };
}
export type CollectEnv = Awaited<ReturnType<typeof collectEnv>>;

/** The first run: the model collected `items` on `url` for `goal`; the trace it leaves. */
export async function collectedTrace(
  { deps }: CollectEnv,
  run: {
    goal: string;
    /** The goal's count; null: the goal asks for every item. */
    count: number | null;
    url: string;
    items: { type: string; data: unknown }[];
  },
): Promise<RoutineTraceEntry[]> {
  const state = stateWith({
    tenantId: 't1',
    taskId: FIRST_TASK,
    query: run.goal,
    collectLimit: run.count,
    page: pageWith({ url: run.url }),
  });
  const turn = {
    state,
    page: state.page,
    tokens: state.tokens,
    out: { collect: run.items } as unknown as ActionGenerationOutput,
    carry: {},
    notes: [],
  } as unknown as ActionTurn;
  const answer = await collectPart.answer?.(deps, turn);
  return (answer?.carry as Pick<InteractStateType, 'routineTrace'>).routineTrace;
}

/** The routine the first run saved. */
export const savedCollectRoutine = (goal: string, trace: RoutineTraceEntry[]): Routine => ({
  ...savedRoutine(goal, trace),
  sourceTaskId: FIRST_TASK,
});

/**
 * One rerun of `routine` for `count` items on `url`: the step's ask (the state after it), the
 * state the client's answer with the page's `html` resumes, and the state after the read.
 */
export async function collectRerun(
  env: CollectEnv,
  routine: Routine,
  run: {
    taskId: string;
    goal: string;
    count: number | null;
    url: string;
    html: string;
    /** The routine's step to start from (a later page of a list), and that page's elements. */
    from?: number;
    tree?: PageState['tree'];
  },
) {
  const start = stateWith({
    tenantId: 't1',
    taskId: run.taskId,
    query: run.goal,
    collectLimit: run.count,
    complexity: 'COMPLEX',
    page: pageWith({ url: run.url, ...(run.tree ? { tree: run.tree } : {}) }),
    routineRun: {
      ...startRun(routine, run.count === null ? {} : { count: String(run.count) }, TOKENS),
      next: run.from ?? 0,
    },
  });
  const asked = applyUpdate(start, await routineStep(env.deps)(start));
  // Handed over before asking (not its kind of page): there is no read to answer.
  if (asked.pageRequest === null) return { asked, back: null, after: asked };
  const back: InteractStateType = {
    ...asked,
    pageRequest: null,
    resumedFromPageRead: true,
    page: pageWith({
      url: run.url,
      snapshot: { mode: 'content', text: run.html },
      ...(run.tree ? { tree: run.tree } : {}),
    }),
  };
  const after = applyUpdate(back, await routineStep(env.deps)(back));
  return { asked, back, after };
}
