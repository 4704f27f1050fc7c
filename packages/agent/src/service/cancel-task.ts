// Stop (the extension's Stop button, POST /api/tasks/{taskId}/cancel): the task is marked
// cancelled, live viewers are told it is done, and every later request for it answers 409
// TASK_CANCELLED. It takes no task lock on purpose: Stop must work while a request runs, and
// that request's compare-and-set write then loses to it (task-write.ts).
import type { CancelTaskResponse } from '@tandem/contracts';
import { isVersionConflictError, type Store } from '@tandem/store';
import type { TaskEventHub } from '../collect/event-hub';
import { InteractError } from './interact-error';
import { endedRefusal } from './task-gates';

export const CANCELLED_RESULT = 'Stopped by the user.';

export async function cancelTask(
  store: Store,
  events: TaskEventHub | undefined,
  input: { tenantId: string; taskId: string },
): Promise<CancelTaskResponse> {
  const { tenantId, taskId } = input;
  // A request finishing the task at the same moment bumps its version: read again and decide
  // on what it became (at most a few times: only that one request can race us).
  for (let attempt = 0; attempt < 3; attempt++) {
    const task = await store.tasks.get(tenantId, taskId);
    if (task?.status === 'cancelled') return { taskId, status: 'cancelled' };
    if (!task) throw new InteractError('NOT_FOUND', `Task ${taskId} not found.`);
    const ended = endedRefusal(task);
    if (ended) throw ended;
    try {
      await store.tasks.update(
        tenantId,
        taskId,
        { status: 'cancelled', result: CANCELLED_RESULT },
        { ifVersion: task.version },
      );
    } catch (error) {
      if (isVersionConflictError(error)) continue;
      throw error;
    }
    events?.publish(tenantId, taskId, {
      event: 'done',
      taskId,
      status: 'cancelled',
      result: CANCELLED_RESULT,
      counts: await store.collectedItems.countByType(tenantId, taskId),
    });
    return { taskId, status: 'cancelled' };
  }
  throw new InteractError('TASK_BUSY', 'The task changed while it was being stopped; retry.');
}
