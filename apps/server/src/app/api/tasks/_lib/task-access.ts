// Task lookups shared by the task routes.
import { HttpError } from '../../../../server/http-error';
import type { Runtime } from '../../../../server/runtime';

/** The tenant's task, or 404 — the same answer for another tenant's task as for none. */
export async function requireTask(runtime: Runtime, tenantId: string, taskId: string) {
  const task = await runtime.store.tasks.get(tenantId, taskId);
  if (!task) throw new HttpError('NOT_FOUND', `Task ${taskId} not found.`);
  return task;
}

/**
 * A CSV download. `name` must need no escaping in a header: callers build it from UUIDs and
 * ids of [A-Za-z0-9_-] only.
 */
export function csvAttachment(name: string, csv: string): Response {
  return new Response(csv, {
    status: 200,
    headers: {
      'cache-control': 'no-store',
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
    },
  });
}
