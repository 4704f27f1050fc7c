// Writes a step to the store, in one transaction, and then tells live viewers: the one place a
// request's outcome is persisted. (Two other writers belong to the same request, by design: collect stores items
// inside action_generation, so prompts only ever hold counts; and the LLM port's usage hook
// logs every call, even one whose run later fails.)
import {
  RESULT_ITEMS_MAX,
  type CollectedItemsByType,
  type ExtractionAggregate,
  type NextActionResponse,
} from '@tandem/contracts';
import { aggregateResults } from '@tandem/extraction';
import type { Store, Task, TaskPatch } from '@tandem/store';
import type { TaskEventHub } from '../collect/event-hub';
import type { InteractStateType } from '../state';
import { stepMetrics, stepResponse } from './response';
import {
  newTaskFrom,
  stepEventsFrom,
  taskActionFrom,
  taskPatchFrom,
  verdictPatchFrom,
} from './task-record';
import { updateTaskIfUnchanged } from './task-write';

export interface StepRecordInput {
  caller: { tenantId: string; userId: string };
  state: InteractStateType;
  /** The task row before this step; null on a new task's first step. */
  existing: Task | null;
  /** The previous step's task action, when this run verified it. */
  verifiedActionId: string | null;
  started: number;
}

/** Persists the step the run ended with and answers with it (an action or a page read). */
export async function recordStep(
  store: Store,
  events: TaskEventHub | undefined,
  input: StepRecordInput,
): Promise<NextActionResponse> {
  const { caller, state, existing, verifiedActionId, started } = input;
  const tenantId = caller.tenantId;
  const outcome = state.outcome;
  if (outcome?.kind !== 'action' && outcome?.kind !== 'read_page')
    throw new Error('recordStep needs an action or a page read');
  const facts = { durationMs: Date.now() - started, verifiedPrevious: verifiedActionId !== null };
  const patch = taskPatchFrom(state, existing, facts);
  const verdict = verdictPatchFrom(state);
  const ended = state.status === 'completed' || state.status === 'failed' ? state.status : null;
  const collectedItems =
    ended && Object.keys(state.collectedCounts).length > 0
      ? await resultItems(store, tenantId, state.taskId)
      : undefined;
  const extractedData =
    ended && state.extractionNotes.some((note) => note.pages > 0)
      ? await extractedAggregates(store, tenantId, state.taskId)
      : undefined;
  const response = stepResponse(state, outcome, {
    metrics: stepMetrics(state, Date.now() - started),
    ...(collectedItems ? { collectedItems } : {}),
    ...(extractedData ? { extractedData } : {}),
  });
  const action = taskActionFrom(state, response, Date.now() - started);
  // One unit of work: a step is stored whole or not at all (a Stop that won the task's
  // compare-and-set leaves no verdict, action or message of the step behind), in one commit.
  await store.transaction(async () => {
    await writeTask(store, input, patch);
    if (verifiedActionId && verdict)
      await store.taskActions.update(tenantId, verifiedActionId, verdict);
    if (action) await store.taskActions.insert(tenantId, action);
    await store.messages.append(tenantId, {
      sessionId: state.sessionId,
      role: 'assistant',
      content: response.thought,
      actionString: response.action ?? null,
      taskId: state.taskId,
    });
    if (ended) await store.sessions.update(tenantId, state.sessionId, { status: ended });
  });
  // The store stays the source of truth; the events only announce the step.
  for (const event of stepEventsFrom(state, response, new Date().toISOString()))
    events?.publish(tenantId, state.taskId, event);
  return response;
}

/** The task row after this step: created on a task's first step, else compare-and-set. */
export async function writeTask(
  store: Store,
  input: Pick<StepRecordInput, 'caller' | 'state' | 'existing'>,
  patch: TaskPatch,
): Promise<void> {
  const { caller, state, existing } = input;
  if (existing) await updateTaskIfUnchanged(store, caller.tenantId, existing, patch);
  else await store.tasks.create(caller.tenantId, newTaskFrom(state, caller, patch));
}

/**
 * What a finished task collected, grouped by type (docs/specs.md, "TaskResult.collected"): read
 * from the store once, at the end, so graph state and prompts never hold the items.
 */
async function resultItems(
  store: Store,
  tenantId: string,
  taskId: string,
): Promise<CollectedItemsByType> {
  const grouped: CollectedItemsByType = {};
  for (const item of await store.collectedItems.list(tenantId, taskId, { limit: RESULT_ITEMS_MAX }))
    (grouped[item.type] ??= []).push(item.data);
  return grouped;
}

/**
 * What a finished task extracted (docs/specs.md, "extraction overhaul"), merged per extractionId
 * from the stored results.
 */
async function extractedAggregates(
  store: Store,
  tenantId: string,
  taskId: string,
): Promise<ExtractionAggregate[]> {
  const results = await store.extractionResults.listByTask(tenantId, taskId);
  return aggregateResults(results).map((aggregator) => aggregator.aggregate());
}
