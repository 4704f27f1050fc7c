// The routine a completed task leaves behind: compiled from its verified steps and
// stored as version 1, or as the next version when the steps differ from the latest one. Like
// the skills library (skills/lessons.ts), it never fails a task: a routine is worth keeping,
// not worth losing a finished task's answer for, so errors are logged and the task goes on.
import type { Logger } from '@tandem/observability';
import type { Routine, Store } from '@tandem/store';
import type { RoutineStep } from '@tandem/contracts';
import type { InteractStateType } from '../state';
import { compileRoutine } from './compile';
import { typedGoal } from './lookup';

/**
 * What makes two versions the same routine: the actions, their targets (and how they are
 * found), values, chaining, safety and the parameters. The outcome's facts are left out: a URL after Save holds the new
 * record's id, which differs on every run, and would make each run a new version.
 */
export function routineShape(routine: Pick<Routine, 'steps' | 'parameters'>): string {
  const step = (s: RoutineStep) => [
    s.action,
    s.target?.fingerprint ?? null,
    // A renamed neighbour or a moved field changes how the step is found: a version's worth.
    s.target?.locators ?? null,
    s.target?.name ?? null,
    s.value,
    s.chained,
    s.safety,
    s.optional,
  ];
  return JSON.stringify({
    steps: routine.steps.map(step),
    parameters: routine.parameters.map((p) => [p.name, p.source, p.steps]),
  });
}

export type SavedRoutine =
  { saved: Routine } | { skipped: 'not_compiled' | 'unchanged' | 'disabled'; reason: string };

/** Compiles the task into a routine and stores it when it is new or changed; never throws. */
export async function saveRoutine(
  store: Store,
  state: InteractStateType,
  log: Logger,
): Promise<SavedRoutine | null> {
  try {
    const compiled = compileRoutine({
      query: typedGoal(state),
      status: state.status,
      // Extractions and collected items are in it as `extract` and `collect` steps.
      trace: state.routineTrace,
    });
    if (!compiled.ok) {
      log.info('no routine from the task', { reason: compiled.reason });
      return { skipped: 'not_compiled', reason: compiled.reason };
    }
    const { draft } = compiled;
    const latest = await store.routines.findLatest(state.tenantId, draft, {
      includeDisabled: true,
    });
    // An admin turned it off: a new version would turn it back on behind their back.
    if (latest && !latest.enabled)
      return { skipped: 'disabled', reason: `routine ${latest.id} is disabled` };
    if (latest && routineShape(latest) === routineShape(draft))
      return { skipped: 'unchanged', reason: `routine ${latest.id} has the same steps` };
    const saved = await store.routines.create(state.tenantId, {
      ...draft,
      ...(latest ? { name: latest.name } : {}),
      sourceTaskId: state.taskId,
    });
    log.info('routine saved', {
      routineId: saved.id,
      version: saved.version,
      steps: saved.steps.length,
      parameters: saved.parameters.length,
    });
    return { saved };
  } catch (error) {
    log.warn('routine not saved', { error });
    return null;
  }
}

/**
 * A rerun's counts on the version it ran: one run, the steps it healed, and the tokens it saved
 * against the run the routine was made from. Never throws, like saveRoutine.
 */
export async function countRoutineRun(
  store: Store,
  state: InteractStateType,
  log: Logger,
): Promise<void> {
  const run = state.routineRun;
  if (!run) return;
  try {
    const spent = state.tokens.input + state.tokens.output - run.tokensAtStart;
    const source = run.routine.sourceTaskId
      ? await store.tasks.get(state.tenantId, run.routine.sourceTaskId)
      : null;
    const tokensSaved = source ? Math.max(0, source.metrics.totalTokens - spent) : 0;
    await store.routines.addCounts(state.tenantId, run.routine.id, {
      runs: 1,
      heals: run.healed.length,
      tokensSaved,
    });
  } catch (error) {
    log.warn('routine run not counted', { error });
  }
}

/**
 * What a completed task leaves: a rerun that replayed every step as saved changes nothing but
 * the counts (a skipped optional step must not make a version); one the model healed or took
 * over may leave a new version, as any verified run may.
 */
export async function afterCompletedTask(
  store: Store,
  state: InteractStateType,
  log: Logger,
): Promise<void> {
  const run = state.routineRun;
  if (!run || run.healed.length > 0 || (run.stale ?? []).length > 0 || run.fellBack !== null)
    await saveRoutine(store, state, log);
  if (run) await countRoutineRun(store, state, log);
}
