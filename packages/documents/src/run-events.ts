// A document run's events on the event bus (@tandem/jobs' port, passed in as a small interface
// so this package needs no queue): published where the run goes on, heard by every process, so
// GET /api/extractions/{id}/events follows a run from any server, not only from the request
// that started it. The bus is a doorbell: a follower that joins mid-run hears what comes next
// and reads what was written before from the extraction itself.
//
// A write's event carries the seq of the history entry it made, sent as the SSE id: a client
// that reconnects with Last-Event-ID gets the writes it missed from the store's history, then
// the live events (the model's words and read-only calls in the gap are not kept).
import { ExtractionStreamEvent } from '@tandem/contracts';
import type { ExtractionWrite, IdempotencyRepository } from '@tandem/store';
import { z } from 'zod';
import { followRun } from './follow-run';
import { RUN_LOCK_SCOPE } from './run-lock';

export interface RunEventBus {
  publish(channel: string, data: unknown): Promise<void>;
  subscribe(channel: string, listener: (data: unknown) => void): () => void;
}

export const extractionChannel = (tenantId: string, extractionId: string): string =>
  `extraction:${tenantId}:${extractionId}`;

/** One event of a run as followers get it: `id` is a write's history seq (the SSE id). */
export interface RunStreamItem {
  event: ExtractionStreamEvent;
  id?: number;
}

/** What a run publishes on the bus: the event, and a write's seq. */
const RunBusMessage = z.strictObject({
  event: ExtractionStreamEvent,
  id: z.number().int().positive().optional(),
});

export function runBusMessage(event: ExtractionStreamEvent, id?: number): RunStreamItem {
  return id === undefined ? { event } : { event, id };
}

/** A bus message read back: null when it is not a run event (another version's, or garbage). */
export function readRunBusMessage(data: unknown): RunStreamItem | null {
  const parsed = RunBusMessage.safeParse(data);
  if (parsed.success) return runBusMessage(parsed.data.event, parsed.data.id);
  // A process of the version before published bare events.
  const bare = ExtractionStreamEvent.safeParse(data);
  return bare.success ? { event: bare.data } : null;
}

/** Whether a run holds the extraction's lock now (the lock lapses a lease after its run dies). */
export async function runInProgress(
  idempotency: Pick<IdempotencyRepository, 'get'>,
  tenantId: string,
  subject: string,
  now = new Date(),
): Promise<boolean> {
  const lock = await idempotency.get(tenantId, `${RUN_LOCK_SCOPE}:${subject}`);
  return (
    lock !== null && lock.status === 'in_progress' && Date.parse(lock.expiresAt) > now.getTime()
  );
}

export interface FollowOptions {
  bus: RunEventBus;
  tenantId: string;
  extractionId: string;
  /** Whether the run still goes on (asked at the start and every `checkMs`). */
  running: () => Promise<boolean>;
  /** The `complete` event of a run that ended without one reaching us (it died, or ended first). */
  completion: () => Promise<ExtractionStreamEvent>;
  checkMs?: number;
  /**
   * A reconnect: the seq of the last write the client got (its Last-Event-ID). The writes
   * after it are read from `history` and sent first.
   */
  resume?: { afterSeq: number; history: (afterSeq: number) => Promise<ExtractionWrite[]> };
}

/**
 * The events of the extraction's run from now to its `complete` (followRun); a reconnect gets
 * the writes it missed from the history first.
 */
export function followExtraction(options: FollowOptions): Promise<AsyncIterable<RunStreamItem>> {
  const { resume } = options;
  return followRun<RunStreamItem>({
    bus: options.bus,
    channel: extractionChannel(options.tenantId, options.extractionId),
    read: readRunBusMessage,
    isComplete: (item) => 'complete' in item.event,
    running: options.running,
    completion: async () => ({ event: await options.completion() }),
    ...(options.checkMs === undefined ? {} : { checkMs: options.checkMs }),
    ...(resume
      ? {
          resume: {
            afterSeq: resume.afterSeq,
            seq: (item) => item.id,
            history: async () =>
              (await resume.history(resume.afterSeq)).map((write) => ({
                event: { tool: write.tool, input: write.input },
                id: write.seq,
              })),
          },
        }
      : {}),
  });
}
