// The next step of a paused task (docs/specs.md, "High-Level Loop"), or the answer to its question:
// one request at a time (TaskLocks), checked against the task's status and session, within
// MAX_STEPS_PER_TASK, then the graph resumes at dispatch with this request's page.
import type { InteractResponse } from '@tandem/contracts';
import type { Task } from '@tandem/store';
import type { InteractContext, RequestScope } from './context';
import { InteractError, modelRefusal } from './interact-error';
import { continuationRefusal } from './task-gates';
import { conversationFor } from './conversation';
import { ragContextFor } from './rag-context';
import { updateTaskIfUnchanged } from './task-write';
import { answerRun } from './run-answer';

export async function continueTask(
  ctx: InteractContext,
  scope: RequestScope,
  taskId: string,
): Promise<InteractResponse> {
  const { store, locks } = ctx;
  const tenantId = scope.caller.tenantId;
  const answer = scope.request.answer;
  const log = scope.log.child({ taskId });
  // Stop is final: a cancelled task is refused at once, even while a request that started
  // before the Stop still holds the lock (it will not be recorded either).
  const current = await store.tasks.get(tenantId, taskId);
  if (current?.status === 'cancelled') {
    const refused = continuationRefusal(current, taskId, scope.sessionId, answer !== undefined);
    if (refused) throw refused;
  }
  // The task is read under the lock: the version its writes compare against is then the one
  // no other request can move (only a Stop or the zombie sweep can, see task-write.ts).
  return locks.withLock(tenantId, taskId, async () => {
    const task = await store.tasks.get(tenantId, taskId);
    const refused = continuationRefusal(task, taskId, scope.sessionId, answer !== undefined);
    if (refused) throw refused;
    if (!task) throw new Error('unreachable: a missing task is refused');
    await refuseOverStepLimit(ctx, tenantId, task);
    const previousAction = await store.taskActions.getLast(tenantId, taskId);
    const ragContext = await ragContextFor(ctx.rag, {
      tenantId,
      url: scope.request.url,
      query: task.query,
    });
    log.info('continue task', {
      step: task.currentStepIndex,
      lastActionStatus: scope.request.lastActionStatus ?? null,
      answering: answer !== undefined,
    });
    const { approval, secrets } = scope.request;
    if (approval) log.info('approval', { decision: approval.decision });
    const resume = {
      page: scope.page,
      ragContext,
      ...(await answerInput(ctx, scope, answer)),
      ...(approval ? { approval } : {}),
      ...(secrets ? { secrets } : {}),
    };
    const state = await ctx.runner
      .resume(tenantId, taskId, resume, scope.requestHash)
      .catch(async (error) => {
        const refusal = modelRefusal(error);
        if (!refusal) throw error;
        // Failed now, not left executing for the zombie sweep: a resend is refused (TASK_FAILED).
        log.warn('model refused', { error });
        await updateTaskIfUnchanged(store, tenantId, task, {
          status: 'failed',
          result: refusal.message,
        });
        throw refusal;
      });
    return answerRun(ctx, { ...scope, log }, state, {
      existing: task,
      verifiedActionId: previousAction?.status === 'pending' ? previousAction.id : null,
    });
  });
}

/** MAX_STEPS_PER_TASK: the task fails with a 400 once it has sent this many steps. */
async function refuseOverStepLimit(ctx: InteractContext, tenantId: string, task: Task) {
  const maxSteps = ctx.deps.limits.maxStepsPerTask;
  if (task.metrics.totalSteps < maxSteps) return;
  await updateTaskIfUnchanged(ctx.store, tenantId, task, {
    status: 'failed',
    result: `Maximum of ${maxSteps} steps exceeded.`,
  });
  throw new InteractError(
    'MAX_STEPS_EXCEEDED',
    `This task reached the maximum of ${maxSteps} steps.`,
  );
}

/**
 * The user's answer becomes the session's message, and the conversation the resumed node
 * reads is reloaded with it (docs/specs.md, "session": messages are the conversation's record).
 */
async function answerInput(ctx: InteractContext, scope: RequestScope, answer: string | undefined) {
  if (answer === undefined) return {};
  const { tenantId } = scope.caller;
  await ctx.store.messages.append(tenantId, {
    sessionId: scope.sessionId,
    role: 'user',
    content: answer,
  });
  return { answer, conversation: await conversationFor(ctx.store, tenantId, scope.sessionId) };
}
