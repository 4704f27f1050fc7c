// How a routine run leaves its plain path, and what it says when it ends: a heal (the model
// does one step alone), a hand-over (the full agent takes the rest of the task), and the final
// answer. The step node and the verdict on a replayed step both end these ways, so they live
// apart from either.
import type { AgentDeps } from '../deps';
import { logFor } from '../nodes/node-context';
import { FAILED_EXTRACTION } from '../nodes/extraction/state';
import type { ExtractionNote, InteractStateType, InteractStateUpdate } from '../state';
import { collectedTotal } from '../collect/summary';
import { fallBack, MAX_HEALS_IN_ROW, type RoutineRun } from './run';

/** The update that hands the rest of the task to the full agent. */
export function fallBackUpdate(
  deps: AgentDeps,
  state: InteractStateType,
  run: RoutineRun,
  reason: string,
): InteractStateUpdate {
  logFor(deps, state, 'routine_step').info('routine handed over to the agent', {
    routineId: run.routine.id,
    step: run.next,
    reason,
  });
  return { routineRun: fallBack(run, reason), pending: null };
}

/** The model does `step` alone next; a second heal in a row hands over instead. */
export function healUpdate(
  deps: AgentDeps,
  state: InteractStateType,
  run: RoutineRun,
  heal: { step: number; sent: boolean; reason: string },
): InteractStateUpdate {
  if (run.healsInRow + 1 >= MAX_HEALS_IN_ROW)
    return fallBackUpdate(
      deps,
      state,
      run,
      `step ${heal.step + 1} needs the model too (${heal.reason}), right after a healed step`,
    );
  logFor(deps, state, 'routine_step').info('routine step heals', {
    routineId: run.routine.id,
    step: heal.step,
    reason: heal.reason,
  });
  return {
    routineRun: {
      ...run,
      unit: null,
      healing: heal,
      healsInRow: run.healsInRow + 1,
    },
    pending: null,
  };
}

/** What the routine's extractions stored, said once each ("Extracted 40 items from 4 pages"). */
function extractedLine(notes: readonly ExtractionNote[]): string {
  const read = notes.filter((n) => n.extractionId !== FAILED_EXTRACTION && n.pages > 0);
  return read
    .map(
      (n) =>
        ` Extracted ${n.items ?? 'some'} ${n.items === 1 ? 'item' : 'items'} from ${n.pages} ${n.pages === 1 ? 'page' : 'pages'}${n.isPartial ? ' (partly)' : ''}, stored with the task.`,
    )
    .join('');
}

/** The final answer of a routine that ran to its end. */
export function routineAnswer(
  run: RoutineRun,
  read: Partial<Pick<InteractStateType, 'extractionNotes' | 'collectedCounts'>> = {},
): string {
  // In the routine's own order (the goal's), not the matcher's.
  const values = run.routine.parameters.flatMap((p) =>
    Object.hasOwn(run.values, p.name) ? [`${p.name} “${run.values[p.name]}”`] : [],
  );
  const healed =
    run.healed.length > 0
      ? ` The page had changed at step ${run.healed.map((s) => s + 1).join(', ')}; the routine was updated.`
      : '';
  return (
    `Done with the saved routine “${run.routine.name}”` +
    (values.length > 0 ? ` for ${values.join(', ')}` : '') +
    ` (${run.routine.steps.length} steps).${extractedLine(read.extractionNotes ?? [])}${collectedLine(read.collectedCounts ?? {})}${healed}`
  );
}

/** What the routine's collect steps stored, said once ("Collected 15 items"). */
function collectedLine(counts: InteractStateType['collectedCounts']): string {
  const total = collectedTotal(counts);
  return total > 0
    ? ` Collected ${total} ${total === 1 ? 'item' : 'items'}, stored with the task.`
    : '';
}
