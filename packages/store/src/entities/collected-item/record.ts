// Items a collecting task gathered, deduplicated per (task, type, unique key).
import { newId } from '../../shared';

export interface CollectedItem {
  id: string;
  tenantId: string;
  taskId: string;
  type: string;
  /** The inferred unique id ("jobId:123", "title@company"…); unique per (task, type). */
  uniqueKey: string;
  data: Record<string, unknown>;
  sourceUrl: string | null;
  /** Monotonic per task: readers page with `afterSeq`. */
  seq: number;
  createdAt: string;
}

export type NewCollectedItem = Pick<CollectedItem, 'taskId' | 'type' | 'uniqueKey' | 'data'> &
  Partial<Pick<CollectedItem, 'id' | 'sourceUrl'>>;

export interface CollectedItemRepository {
  /** Inserts unless (task, type, uniqueKey) exists; `inserted: false` returns the existing item. */
  insert(
    tenantId: string,
    input: NewCollectedItem,
  ): Promise<{ inserted: boolean; item: CollectedItem }>;
  /** Ordered by seq. */
  list(
    tenantId: string,
    taskId: string,
    options?: { type?: string; afterSeq?: number; limit?: number },
  ): Promise<CollectedItem[]>;
  countByType(tenantId: string, taskId: string): Promise<Record<string, number>>;
}

export function newCollectedItemRecord(
  tenantId: string,
  input: NewCollectedItem,
  now: string,
): Omit<CollectedItem, 'seq'> {
  return {
    id: input.id ?? newId(),
    tenantId,
    taskId: input.taskId,
    type: input.type,
    uniqueKey: input.uniqueKey,
    data: input.data,
    sourceUrl: input.sourceUrl ?? null,
    createdAt: now,
  };
}
