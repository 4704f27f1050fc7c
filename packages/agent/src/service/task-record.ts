// What a step writes to the store, as pure functions of the state a run ended with: the task
// row (the one place the checkpoint's progress is copied onto it, for admin pages, recovery and
// metrics), the step's task action, the verdict on the previous one, and the live events.
import {
  emptyTaskMetrics,
  requestsPageState,
  type NextActionResponse,
  type TaskEvent,
  type TaskMetrics,
} from '@tandem/contracts';
import type { NewTask, NewTaskAction, Task, TaskAction, TaskPatch } from '@tandem/store';
import { sentText } from '../nodes/pending-action';
import type { InteractStateType } from '../state';

/** What the task row does not hold about the request: its duration and whether it verified. */
export interface StepFacts {
  durationMs: number;
  /** The previous step's task action was pending and this run verified it. */
  verifiedPrevious: boolean;
}

const isEnded = (state: Pick<InteractStateType, 'status'>) =>
  state.status === 'completed' || state.status === 'failed';

/** The task's metrics after this step: counts from the state, sums over the requests. */
export function metricsAfter(
  state: InteractStateType,
  previous: TaskMetrics | null,
  facts: StepFacts,
): TaskMetrics {
  const base = previous ?? emptyTaskMetrics();
  const verdict = facts.verifiedPrevious ? state.lastVerification : null;
  return {
    ...base,
    totalSteps: state.stepCount,
    totalRequests: state.requestCount,
    totalDurationMs: (previous?.totalDurationMs ?? 0) + facts.durationMs,
    inputTokens: state.tokens.input,
    outputTokens: state.tokens.output,
    totalTokens: state.tokens.input + state.tokens.output,
    verificationsPassed: (previous?.verificationsPassed ?? 0) + (verdict?.success ? 1 : 0),
    verificationsFailed:
      (previous?.verificationsFailed ?? 0) + (verdict && !verdict.success ? 1 : 0),
    corrections: state.corrections.length,
    ...(state.replanCount > 0 ? { replans: state.replanCount } : {}),
    // The counters are the task's totals in the checkpoint, so they replace the previous ones.
    ...state.kpiCounts,
  };
}

/** The task row's fields after this step. */
export function taskPatchFrom(
  state: InteractStateType,
  existing: Task | null,
  facts: StepFacts,
): TaskPatch {
  const pending = state.pending;
  return {
    status: state.status === 'active' ? 'executing' : state.status,
    complexity: state.complexity,
    plan: state.plan,
    hierarchicalPlan: state.hierarchicalPlan,
    currentStepIndex: state.currentStepIndex,
    corrections: state.corrections,
    metrics: metricsAfter(state, existing?.metrics ?? null, facts),
    lastChain: pending?.chain
      ? {
          actions: pending.chain.actions,
          metadata: pending.chain.metadata,
          stepIndex: pending.stepIndex,
        }
      : null,
    result: state.result,
    consecutiveFailures: state.consecutiveFailures,
    consecutiveSuccessWithoutTaskComplete: state.consecutiveSuccessWithoutTaskComplete,
    webSearchResult: state.webSearchSummary,
  };
}

/** A task's first write: who asked what, where, and the first step's fields. */
export function newTaskFrom(
  state: InteractStateType,
  caller: { userId: string },
  patch: TaskPatch,
): NewTask {
  return {
    ...patch,
    id: state.taskId,
    userId: caller.userId,
    sessionId: state.sessionId,
    url: state.page?.url ?? '',
    query: state.query,
    collectLimit: state.collectLimit,
  };
}

/** The verdict on the previous step's action, written onto its record. */
export function verdictPatchFrom(
  state: InteractStateType,
): Pick<TaskAction, 'verification' | 'status'> | null {
  const verdict = state.lastVerification;
  return verdict
    ? { verification: verdict, status: verdict.success ? 'success' : 'failure' }
    : null;
}

/**
 * The record of the action this step sends, or null: corrections retry the step they correct
 * and get no record of their own (docs/specs.md, "self-correction"), and a page read sends no
 * action.
 */
export function taskActionFrom(
  state: InteractStateType,
  response: NextActionResponse,
  durationMs: number,
): NewTaskAction | null {
  const pending = state.pending;
  if (!pending || pending.source === 'correction' || requestsPageState(response)) return null;
  return {
    taskId: state.taskId,
    stepIndex: pending.stepIndex,
    thought: pending.thought,
    action: sentText(pending),
    expectedOutcome: pending.expectedOutcome,
    beforeState: pending.beforeState,
    verification: null,
    status:
      state.status === 'completed' ? 'success' : state.status === 'failed' ? 'failure' : 'pending',
    metrics: { durationMs, inputTokens: state.tokens.input, outputTokens: state.tokens.output },
  };
}

/** A page read's label in step events: readPage(outline), readPage(full), readPage(hybrid). */
function pageReadLabel(response: NextActionResponse): string | null {
  if (response.needs_snapshot) return `readPage(${response.needs_snapshot.mode})`;
  if (response.needs_full_dom) return 'readPage(full)';
  if (response.needs_screenshot) return 'readPage(hybrid)';
  return null;
}

/** What live viewers (SSE) learn of this step: the step, and `done` when the task ended. */
export function stepEventsFrom(
  state: InteractStateType,
  response: NextActionResponse,
  at: string,
): TaskEvent[] {
  const done = isEnded(state);
  const step: TaskEvent = {
    event: 'step',
    taskId: state.taskId,
    stepIndex: response.stepIndex,
    action: pageReadLabel(response) ?? response.action ?? '',
    status: done ? (state.status === 'completed' ? 'success' : 'failure') : 'pending',
    thought: response.thought,
    ...(response.actionSummary ? { summary: response.actionSummary } : {}),
    at,
  };
  if (!done) return [step];
  return [
    step,
    {
      event: 'done',
      taskId: state.taskId,
      status: state.status,
      result: state.result,
      counts: state.collectedCounts,
    },
  ];
}
