// The one mapping from how a run ended (state.ts `RunOutcome`) to the request's answer, shared
// by a new task's first step and every continuation: a refusal becomes an InteractError (and
// fails the task when it says so), a question is answered as such, a step is recorded.
import type { InteractResponse } from '@tandem/contracts';
import type { Task } from '@tandem/store';
import { pendingViolation } from '../nodes/action-policy';
import { afterCompletedTask } from '../routines/save';
import type { InteractStateType, RunOutcome } from '../state';
import type { InteractContext, RequestScope } from './context';
import { InteractError } from './interact-error';
import { recordQuestion } from './record-question';
import { recordStep } from './record-step';
import { updateTaskIfUnchanged } from './task-write';

export interface RunTask {
  /** The task row before this run; null for a new task. */
  existing: Task | null;
  /** The previous step's task action when it waits for this run's verdict. */
  verifiedActionId: string | null;
}

export async function answerRun(
  ctx: InteractContext,
  scope: RequestScope,
  state: InteractStateType,
  task: RunTask,
): Promise<InteractResponse> {
  const { store } = ctx;
  const tenantId = scope.caller.tenantId;
  const decided = state.outcome;
  if (!decided) throw new Error('graph finished without an outcome');
  const outcome = decided.kind === 'action' ? (backstop(state) ?? decided) : decided;
  switch (outcome.kind) {
    case 'refused': {
      const { code, message, failTask } = outcome;
      if (failTask && task.existing) {
        const existing = task.existing;
        const patch = { status: 'failed' as const, result: message };
        await store.transaction(async () => {
          await updateTaskIfUnchanged(store, tenantId, existing, patch);
          await store.sessions.update(tenantId, existing.sessionId ?? scope.sessionId, {
            status: 'failed',
          });
        });
      }
      scope.log[failTask ? 'warn' : 'info']('task refused', { code, failTask });
      throw new InteractError(code, message);
    }
    case 'ask_user':
      return recordQuestion(
        store,
        {
          caller: scope.caller,
          state,
          existing: task.existing,
          verifiedActionId: task.verifiedActionId,
          started: scope.started,
        },
        outcome,
      );
    case 'action':
    case 'read_page': {
      const response = await recordStep(store, ctx.events, {
        caller: scope.caller,
        state,
        existing: task.existing,
        verifiedActionId: task.verifiedActionId,
        started: scope.started,
      });
      // Once the completed task is stored: its verified steps may become a routine (or a
      // rerun's counts go on the routine it ran).
      if (state.status === 'completed' && task.existing?.status !== 'completed')
        await afterCompletedTask(store, state, scope.log);
      return response;
    }
  }
}

/**
 * The last check before anything reaches the client: every node validates what it decides, but
 * an action that breaks the task's policy here (a path that forgot to check) fails the task
 * instead of being sent.
 */
function backstop(state: InteractStateType): RunOutcome | null {
  const violation = pendingViolation(state);
  return violation
    ? {
        kind: 'refused',
        code: 'INVALID_ACTION',
        message: `Refused to send ${violation}.`,
        failTask: true,
      }
    : null;
}
