// Query documents of task actions (a task's step history).
import type { Filter, FindSpec, UpdateSpec } from './spec';

// _id (an ObjectId, increasing in creation order) is the last tie-breaker: actions of one step
// written in one batch keep their order.
const ORDER = { stepIndex: 1, createdAt: 1, _id: 1 } as const;
const ORDER_DESC = { stepIndex: -1, createdAt: -1, _id: -1 } as const;

export const actionFilter = (tenantId: string, id: string): Filter => ({ tenantId, id });

export const actionsByTaskQuery = (tenantId: string, taskId: string): FindSpec => ({
  filter: { tenantId, taskId },
  sort: ORDER,
});

export const lastActionQuery = (tenantId: string, taskId: string): FindSpec => ({
  filter: { tenantId, taskId },
  sort: ORDER_DESC,
  limit: 1,
});

export const actionsByTasksQuery = (tenantId: string, taskIds: readonly string[]): FindSpec => ({
  filter: { tenantId, taskId: { $in: [...new Set(taskIds)] } },
  sort: { taskId: 1, ...ORDER },
});

export const actionUpdate = (
  tenantId: string,
  id: string,
  set: Record<string, unknown>,
): UpdateSpec => ({ filter: actionFilter(tenantId, id), update: { $set: set } });
