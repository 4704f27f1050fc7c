// Query documents of collected items (docs/specs.md, "streaming extraction").
import type { Filter, FindSpec, Pipeline } from '../../mongo/queries/spec';

/** An item is unique per (task, type, uniqueKey). */
export const itemKeyFilter = (
  tenantId: string,
  input: { taskId: string; type: string; uniqueKey: string },
): Filter => ({ tenantId, taskId: input.taskId, type: input.type, uniqueKey: input.uniqueKey });

/** A task's items by seq, after `afterSeq`, of one type when given. */
export function itemsQuery(
  tenantId: string,
  taskId: string,
  options: { type?: string; afterSeq?: number },
  limit: number,
): FindSpec {
  const filter: Filter = { tenantId, taskId };
  if (options.type !== undefined) filter.type = options.type;
  if (options.afterSeq !== undefined) filter.seq = { $gt: options.afterSeq };
  return { filter, sort: { seq: 1 }, limit };
}

export const countByTypePipeline = (tenantId: string, taskId: string): Pipeline => [
  { $match: { tenantId, taskId } },
  { $group: { _id: '$type', n: { $sum: 1 } } },
  { $sort: { _id: 1 } },
];
