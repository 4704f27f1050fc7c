// The `collect` action (docs/specs.md, "streaming extraction"): validate what the model extracted,
// infer its unique key, store it (the store drops duplicates per task and type), and answer with
// the short line the model sees instead of the data. Every stored item is announced on the event
// hub.
import { randomUUID } from 'node:crypto';
import {
  CollectData,
  CollectType,
  DEFAULT_COLLECT_TYPE,
  type CollectedCounts,
  type CollectedItemEntry,
} from '@tandem/contracts';
import type { CollectedItem, Store, Task } from '@tandem/store';
import type { z } from 'zod';
import { toCollectedItemEntry, UNKEYED_PREFIX } from './collected-entry';
import type { TaskEventHub } from './event-hub';
import { collectedTotal, limitReached } from './summary';
import { inferUniqueKey, namesAnotherItem } from './unique-key';

export type CollectErrorCode = 'INVALID_COLLECT' | 'TASK_NOT_FOUND';

export class CollectError extends Error {
  override readonly name = 'CollectError';
  constructor(
    readonly code: CollectErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const isCollectError = (error: unknown): error is CollectError =>
  error instanceof Error && error.name === 'CollectError';

export interface CollectInput {
  tenantId: string;
  taskId: string;
  /** Absent or undefined: "default" (docs/specs.md, "streaming extraction"). */
  type?: unknown;
  data: unknown;
  /** The page the item was read on. */
  sourceUrl?: string | null;
}

/** `conflict`: the key is already another item's (by its name); nothing stored, the model told. */
export type CollectStatus = 'collected' | 'duplicate' | 'conflict' | 'limit_reached' | 'invalid';

export interface CollectOutcome {
  status: CollectStatus;
  /** True only for `collected`. */
  inserted: boolean;
  /** Normalized type; null when the input was invalid before a type could be read. */
  type: string | null;
  /** The inferred unique key; null when none could be inferred (or the input was invalid). */
  key: string | null;
  /** For the model (and the step log): what happened, never the data. */
  message: string;
  /** The stored item (the earlier one for a duplicate); null when nothing was stored. */
  item: CollectedItem | null;
}

export interface CollectManyResult {
  outcomes: CollectOutcome[];
  /** All items of the task per type after this batch. */
  counts: CollectedCounts;
  limitReached: boolean;
  /** One line per batch for the step log, e.g. "collect: 3 stored, 1 duplicate". */
  message: string;
}

const Type = CollectType.optional().transform((type) => type ?? DEFAULT_COLLECT_TYPE);

/** First issue of a zod error as one sentence (the model reads it). */
const firstIssue = (error: z.ZodError): string => {
  const issue = error.issues[0];
  return issue ? issue.message : 'invalid value';
};

function parseInput(input: Pick<CollectInput, 'type' | 'data'>): {
  type: string;
  data: Record<string, unknown>;
} {
  // `null` is how structured output says "no type"; treat it like an absent one.
  const type = Type.safeParse(input.type ?? undefined);
  if (!type.success) throw new CollectError('INVALID_COLLECT', firstIssue(type.error));
  const data = CollectData.safeParse(input.data);
  if (!data.success) throw new CollectError('INVALID_COLLECT', firstIssue(data.error));
  return { type: type.data, data: data.data };
}

function sourceUrlOf(input: CollectInput): string | null {
  const url = typeof input.sourceUrl === 'string' ? input.sourceUrl.trim() : '';
  return url === '' ? null : url.slice(0, 8_192);
}

export interface CollectServiceOptions {
  /** Where stored items are announced (the SSE route listens); absent: no live events. */
  events?: TaskEventHub;
}

export class CollectService {
  constructor(
    private readonly store: Store,
    private readonly options: CollectServiceOptions = {},
  ) {}

  /**
   * Collects one item into a task of the tenant. Throws CollectError: INVALID_COLLECT with a
   * message that says what to fix, TASK_NOT_FOUND for a task that is not the tenant's.
   */
  async collect(input: CollectInput): Promise<CollectOutcome> {
    const { type, data } = parseInput(input);
    const task = await this.task(input.tenantId, input.taskId);
    const counts = await this.counts(input.tenantId, input.taskId);
    return this.storeOne(task, counts, { type, data, sourceUrl: sourceUrlOf(input) });
  }

  /**
   * Collects the items of one model answer in order: one task lookup and one count for the
   * batch. An invalid item becomes an `invalid` outcome (the others are still stored), so one
   * sloppy field does not cost the whole screenful.
   */
  async collectMany(input: {
    tenantId: string;
    taskId: string;
    items: readonly { type?: unknown; data: unknown }[];
    sourceUrl?: string | null;
    /**
     * The graph passes the limit it carries: the task row may not exist yet on a task's first
     * request (tasks are persisted once an action exists), and it saves a lookup per step.
     */
    collectLimit?: number | null;
  }): Promise<CollectManyResult> {
    const task: Pick<Task, 'id' | 'tenantId' | 'collectLimit'> =
      input.collectLimit === undefined
        ? await this.task(input.tenantId, input.taskId)
        : { id: input.taskId, tenantId: input.tenantId, collectLimit: input.collectLimit };
    const counts = await this.counts(input.tenantId, input.taskId);
    const sourceUrl = sourceUrlOf({ ...input, data: null });
    const outcomes: CollectOutcome[] = [];
    for (const [index, raw] of input.items.entries()) {
      let parsed: { type: string; data: Record<string, unknown> };
      try {
        parsed = parseInput(raw);
      } catch (error) {
        if (!isCollectError(error)) throw error;
        outcomes.push({
          status: 'invalid',
          inserted: false,
          type: null,
          key: null,
          message: `Collect #${index + 1} refused: ${error.message}`,
          item: null,
        });
        continue;
      }
      outcomes.push(await this.storeOne(task, counts, { ...parsed, sourceUrl }));
    }
    const tally = (status: CollectStatus) => outcomes.filter((o) => o.status === status).length;
    const parts = [
      `${tally('collected')} stored`,
      tally('duplicate') ? `${tally('duplicate')} duplicate` : '',
      tally('conflict') ? `${tally('conflict')} refused (key of another item)` : '',
      tally('limit_reached') ? `${tally('limit_reached')} over the limit` : '',
      tally('invalid') ? `${tally('invalid')} invalid` : '',
    ].filter(Boolean);
    return {
      outcomes,
      counts,
      limitReached: limitReached(counts, task.collectLimit),
      message: `collect: ${parts.join(', ')} (${collectedTotal(counts)}${task.collectLimit ? `/${task.collectLimit}` : ''} in total)`,
    };
  }

  /** A task's items of `type`, oldest first (the tenant's only), at most `limit`. */
  items(tenantId: string, taskId: string, type: string, limit = 1_000): Promise<CollectedItem[]> {
    return this.store.collectedItems.list(tenantId, taskId, { type, limit });
  }

  /** Items per type of a task (the tenant's only: another tenant's task reads as empty). */
  counts(tenantId: string, taskId: string): Promise<CollectedCounts> {
    return this.store.collectedItems.countByType(tenantId, taskId);
  }

  private async task(tenantId: string, taskId: string): Promise<Task> {
    const task = await this.store.tasks.get(tenantId, taskId);
    if (!task) throw new CollectError('TASK_NOT_FOUND', `Task ${taskId} does not exist.`);
    return task;
  }

  /** Stores one parsed item and updates `counts` in place. */
  private async storeOne(
    task: Pick<Task, 'id' | 'tenantId' | 'collectLimit'>,
    counts: CollectedCounts,
    input: { type: string; data: Record<string, unknown>; sourceUrl: string | null },
  ): Promise<CollectOutcome> {
    const { type, data, sourceUrl } = input;
    const key = inferUniqueKey(type, data);
    const limit = task.collectLimit;
    // Checked before the insert: the limit is the user's "stop at 25", so item 26 is not
    // stored. Two processes racing at 24 may both store one; the limit is a target, not a quota.
    if (limitReached(counts, limit)) {
      return {
        status: 'limit_reached',
        inserted: false,
        type,
        key,
        message: `Collect limit reached (${collectedTotal(counts)}/${limit}): ${type} not stored. Finish the task.`,
        item: null,
      };
    }
    const { inserted, item } = await this.store.collectedItems.insert(task.tenantId, {
      taskId: task.id,
      type,
      uniqueKey: key ?? `${UNKEYED_PREFIX}${randomUUID()}`,
      data,
      sourceUrl,
    });
    if (!inserted && key !== null && namesAnotherItem(item.data, data)) {
      return {
        status: 'conflict',
        inserted: false,
        type,
        key,
        message: `${type} not stored: its key ${key} is already another ${type}'s (the names differ). Give each item the id or url the page shows for it, or leave those fields out.`,
        item: null,
      };
    }
    if (!inserted) {
      return {
        status: 'duplicate',
        inserted: false,
        type,
        key,
        message: `Duplicate ${type} skipped (already collected: ${key ?? item.uniqueKey})`,
        item,
      };
    }
    counts[type] = (counts[type] ?? 0) + 1;
    const ofType = counts[type];
    const progress = limit ? ` (${collectedTotal(counts)}/${limit})` : '';
    this.announce(task, ofType, toCollectedItemEntry(item));
    return {
      status: 'collected',
      inserted: true,
      type,
      key,
      message: `Collected ${type} #${ofType}${progress}`,
      item,
    };
  }

  private announce(
    task: Pick<Task, 'id' | 'tenantId'>,
    count: number,
    item: CollectedItemEntry,
  ): void {
    this.options.events?.publish(task.tenantId, task.id, {
      event: 'collected',
      taskId: task.id,
      type: item.type,
      count,
      item,
    });
  }
}
