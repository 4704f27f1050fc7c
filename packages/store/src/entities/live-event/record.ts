// Live events: the store-wide, ordered log the embedded event bus relays between processes.

/**
 * One live event (a task step, a crawl's progress…) as the embedded event bus (@tandem/jobs)
 * relays it between processes on one store: each process appends what it publishes and reads
 * what the others appended after the last seq it saw.
 */
export interface LiveEventRecord {
  /** Increasing over the whole store, in append order. */
  seq: number;
  /** Names its subject, tenant included: `task:<tenantId>:<taskId>`. */
  channel: string;
  /** The process that published it (it has delivered it to its own listeners already). */
  origin: string;
  /** JSON, as given. */
  data: unknown;
  createdAt: string;
}

/**
 * The embedded event bus's relay. System-level like the job queue's claims: channels carry the
 * tenant, and only the bus reads it (a route reads its own tenant's channel through the bus).
 */
export interface LiveEventRepository {
  /** Appends the event; its seq is greater than every seq appended before it. */
  append(
    input: { channel: string; origin: string; data: unknown },
    now?: string,
  ): Promise<LiveEventRecord>;
  /**
   * Events with seq > `afterSeq` on any of `channels`, oldest first, at most `limit` (default
   * 500). An empty `channels` list answers nothing.
   */
  listAfter(
    afterSeq: number,
    options: { channels: readonly string[]; limit?: number },
  ): Promise<LiveEventRecord[]>;
  /** The greatest seq appended so far (0 when none): where a new reader starts. */
  lastSeq(): Promise<number>;
  /** Deletes the events created before `before`; returns how many. */
  prune(before: string): Promise<number>;
}
