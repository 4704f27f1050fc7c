// Writes to a task that may have been cancelled (or expired) while its request ran. A request
// holds the task lock, so only a Stop (POST /cancel) or the zombie sweep can change the task
// under it; every write of a running request is therefore a compare-and-set on the version
// it read, and losing it answers with what happened instead of overwriting it.
import { isVersionConflictError, type Store, type Task, type TaskPatch } from '@tandem/store';
import { continuationRefusal } from './task-gates';

export async function updateTaskIfUnchanged(
  store: Store,
  tenantId: string,
  task: Task,
  patch: TaskPatch,
): Promise<void> {
  try {
    await store.tasks.update(tenantId, task.id, patch, { ifVersion: task.version });
  } catch (error) {
    if (!isVersionConflictError(error)) throw error;
    const now = await store.tasks.get(tenantId, task.id);
    // Cancelled → TASK_CANCELLED, interrupted or gone → their answers; otherwise a plain
    // conflict (TASK_BUSY), which a lock-holding request should never see.
    throw continuationRefusal(now, task.id, now?.sessionId ?? '', false) ?? error;
  }
}
