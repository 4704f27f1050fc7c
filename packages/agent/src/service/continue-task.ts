// The next step of a paused task (spec 003 Phase 3): checked against the task's status and
// session, one request at a time (TaskLocks), within MAX_STEPS_PER_TASK, then the graph
// resumes at dispatch with this request's page.
import type { InteractResponse } from '@tandem/contracts';
import type { Task } from '@tandem/store';
import type { InteractContext, RequestScope } from './context';
import { InteractError } from './interact-error';
import { ragContextFor } from './rag-context';
import { answerRun } from './run-answer';

/** Why this request may not continue the task, or null when it may. */
export function continuationRefusal(
  task: Task | null,
  taskId: string,
  sessionId: string,
): InteractError | null {
  if (!task) return new InteractError('NOT_FOUND', `Task ${taskId} not found.`);
  switch (task.status) {
    case 'completed':
      return new InteractError(
        'TASK_COMPLETED',
        'This task is already completed; start a new task.',
      );
    case 'failed':
      return new InteractError(
        'TASK_FAILED',
        `This task has failed${task.result ? `: ${task.result}` : ''}; start a new task.`,
      );
    case 'interrupted':
      return new InteractError(
        'CONFLICT',
        'This task was interrupted after 30 minutes without activity; start a new task.',
      );
    default:
      break;
  }
  if (task.sessionId && task.sessionId !== sessionId)
    return new InteractError('CONFLICT', 'This task belongs to another session.');
  return null;
}

export async function continueTask(
  ctx: InteractContext,
  scope: RequestScope,
  taskId: string,
): Promise<InteractResponse> {
  const { store, deps, locks } = ctx;
  const tenantId = scope.caller.tenantId;
  const task = await store.tasks.get(tenantId, taskId);
  const refused = continuationRefusal(task, taskId, scope.sessionId);
  if (refused) throw refused;
  if (!task) throw new Error('unreachable: a missing task is refused');
  const log = scope.log.child({ taskId });
  return locks.withLock(tenantId, taskId, async () => {
    const maxSteps = deps.limits.maxStepsPerTask;
    if (task.metrics.totalSteps >= maxSteps) {
      await store.tasks.update(tenantId, taskId, {
        status: 'failed',
        result: `Maximum of ${maxSteps} steps exceeded.`,
      });
      throw new InteractError(
        'MAX_STEPS_EXCEEDED',
        `This task reached the maximum of ${maxSteps} steps.`,
      );
    }
    const previousAction = await store.taskActions.getLast(tenantId, taskId);
    const ragContext = await ragContextFor(ctx.rag, {
      tenantId,
      url: scope.request.url,
      query: task.query,
    });
    log.info('continue task', {
      step: task.currentStepIndex,
      lastActionStatus: scope.request.lastActionStatus ?? null,
    });
    const state = await ctx.runner.resume(tenantId, taskId, { page: scope.page, ragContext });
    return answerRun(ctx, { ...scope, log }, state, {
      existing: task,
      verifiedActionId: previousAction?.status === 'pending' ? previousAction.id : null,
    });
  });
}
