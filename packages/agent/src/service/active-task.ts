// Task recovery (docs/specs.md, "taskId persistence and task recovery") with lazy expiration
// ("Logical improvements"): tasks untouched for more than 30 minutes become `interrupted` when
// someone looks for them.
import type { ActiveTaskResponse } from '@tandem/contracts';
import type { Store } from '@tandem/store';

export const ZOMBIE_AFTER_MS = 30 * 60 * 1000;

export async function findActiveTask(
  store: Store,
  input: { tenantId: string; sessionId: string; url?: string; now?: Date },
): Promise<ActiveTaskResponse | null> {
  const now = input.now ?? new Date();
  await store.tasks.expireStale(input.tenantId, {
    olderThan: new Date(now.getTime() - ZOMBIE_AFTER_MS).toISOString(),
    sessionId: input.sessionId,
  });
  // The URL narrows the match, but a task's URL is where it started and the tab has usually
  // moved on since (that is why the client lost track): fall back to the session's task.
  const task =
    (input.url
      ? await store.tasks.findActive(input.tenantId, { sessionId: input.sessionId, url: input.url })
      : null) ?? (await store.tasks.findActive(input.tenantId, { sessionId: input.sessionId }));
  if (!task) return null;
  return {
    taskId: task.id,
    query: task.query,
    status: task.status,
    currentStepIndex: task.currentStepIndex,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    url: task.url,
  };
}
