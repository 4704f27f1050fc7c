// Collect in action generation (docs/specs.md, "streaming extraction"): a task that collects
// gets the rules and its counts in the prompt, and the items of every answer are stored here,
// inside the request, before anything else; only the counts come back into the state.
import type { AgentDeps } from '../deps';
import type { ActionPart, PartAnswer } from '../nodes/action-generation/part';
import { pendingUpdate } from '../nodes/action-generation/part';
import type { InteractStateType } from '../state';
import { isExtractionGoal } from './extraction-goal';
import { COLLECT_PROMPT_RULES } from './model-output';
import { collectedSummaryLine, collectedTotal } from './summary';
import type { CollectManyResult } from './collect-service';
import { traceCollect } from '../routines/trace';

/** Whether this task collects: the prompt then explains collect and shows the counts. */
function isCollecting(deps: AgentDeps, state: InteractStateType): boolean {
  return (
    deps.collect !== undefined &&
    (state.collectLimit !== null ||
      collectedTotal(state.collectedCounts) > 0 ||
      isExtractionGoal(state.query))
  );
}

export const collectPart: ActionPart = {
  name: 'collect',
  prepare(deps, state) {
    if (!isCollecting(deps, state)) return {};
    return {
      system: COLLECT_PROMPT_RULES,
      sections: (now) => ({
        collected: collectedSummaryLine(now.collectedCounts, now.collectLimit),
      }),
    };
  },
  // A model slip in one item never fails the step: the bad item is reported back to the model.
  async answer(deps, turn): Promise<PartAnswer> {
    const { state, out } = turn;
    const items = out.collect ?? [];
    if (items.length === 0 || !deps.collect) {
      return {
        carry: {
          collectedCounts: state.collectedCounts,
          duplicatesSkipped: state.duplicatesSkipped,
        },
      };
    }
    const result = await deps.collect.collectMany({
      tenantId: state.tenantId,
      taskId: state.taskId,
      items,
      sourceUrl: turn.page.url,
      collectLimit: state.collectLimit,
    });
    // Counts, and why an item was refused; duplicates only as a count (people scan the live
    // view, and a long extraction repeats items on every page).
    const refused = result.outcomes
      .filter((o) => o.status === 'invalid' || o.status === 'conflict')
      .map((o) => o.message);
    const duplicates = result.outcomes.filter((o) => o.status === 'duplicate').length;
    const carry = {
      collectedCounts: result.counts,
      duplicatesSkipped: state.duplicatesSkipped + duplicates,
      ...traceCollected(state, turn.page.url, result),
    };
    const note = [result.message, ...refused.slice(0, 5)].join('\n');
    if (!result.limitReached) return { carry, note };
    // The target is reached: finish, whatever else the answer asked for. The server decided it
    // from the stored count, not the model, so the critic has no claim of the model's to review
    // (it never sees the items either).
    const message = `Collected ${collectedTotal(result.counts)} items.`;
    return {
      carry,
      note,
      decide: (collected) => {
        const update = pendingUpdate(collected, { name: 'finish', args: { message } });
        return update.pending
          ? { ...update, pending: { ...update.pending, deterministic: true } }
          : update;
      },
    };
  },
};

/**
 * The items stored from this page, one trace entry per type: a routine reads them again there
 * (a `collect` step). Items already stored from an earlier page add no step.
 */
function traceCollected(
  state: InteractStateType,
  url: string,
  result: CollectManyResult,
): Pick<InteractStateType, 'routineTrace'> {
  const stored = new Map<string, number>();
  for (const o of result.outcomes)
    if (o.status === 'collected' && o.type !== null)
      stored.set(o.type, (stored.get(o.type) ?? 0) + 1);
  let routineTrace = state.routineTrace;
  for (const [type, count] of stored) {
    const traced = traceCollect({ ...state, routineTrace }, url, {
      type,
      stored: count,
    }).routineTrace;
    if (Array.isArray(traced)) routineTrace = traced;
  }
  return { routineTrace };
}
