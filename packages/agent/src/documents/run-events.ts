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
import { EventChannel } from './event-channel';
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
 * The events of the extraction's run from now to its `complete`. Subscribes before it asks
 * whether a run goes on, so nothing published in between is lost; when no run goes on (or the
 * one that did stops holding its lock without a `complete`), it ends with `completion()`.
 */
/** Pushes the writes after the client's last one, from the history; the last seq sent. */
async function replayWrites(
  channel: EventChannel<RunStreamItem>,
  resume: NonNullable<FollowOptions['resume']>,
): Promise<number> {
  let sent = resume.afterSeq;
  for (const write of await resume.history(resume.afterSeq)) {
    channel.push({ event: { tool: write.tool, input: write.input }, id: write.seq });
    sent = Math.max(sent, write.seq);
  }
  return sent;
}

export async function followExtraction(
  options: FollowOptions,
): Promise<AsyncIterable<RunStreamItem>> {
  const channel = new EventChannel<RunStreamItem>();
  let ended = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  /** Live events held while the missed writes are read (they come after them). */
  let held: RunStreamItem[] | null = options.resume ? [] : null;
  /** Writes up to this seq were sent from the history: their live events are not sent again. */
  let sentSeq = 0;
  const deliver = (item: RunStreamItem) => {
    if (item.id !== undefined && item.id <= sentSeq) return;
    if ('complete' in item.event) end(item);
    else channel.push(item);
  };
  const end = (last?: RunStreamItem) => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    unsubscribe();
    if (last) channel.push(last);
    channel.close();
  };
  const unsubscribe = options.bus.subscribe(
    extractionChannel(options.tenantId, options.extractionId),
    (data) => {
      // Another process sent it (maybe another version, mid-deploy): check it.
      const item = readRunBusMessage(data);
      if (!item || ended) return;
      if (held) held.push(item);
      else deliver(item);
    },
  );
  if (options.resume) {
    try {
      sentSeq = await replayWrites(channel, options.resume);
    } catch (error) {
      end();
      throw error;
    }
    const waiting = held ?? [];
    held = null;
    for (const item of waiting) if (!ended) deliver(item);
  }
  /** `grace`: the run was seen going, so its last events may still be on their way. */
  const check = async (grace: boolean) => {
    if (ended || (await options.running())) return;
    // The lock is released right after the run publishes its last event, which takes up to a
    // second to reach another process: wait that long before ending it from the store.
    if (grace) await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (!ended) end({ event: await options.completion() });
  };
  try {
    await check(false);
  } catch (error) {
    end();
    throw error;
  }
  if (!ended) {
    timer = setInterval(() => void check(true).catch(() => end()), options.checkMs ?? 5_000);
    timer.unref();
  }
  return {
    [Symbol.asyncIterator]: () => {
      const inner = channel[Symbol.asyncIterator]();
      return {
        next: () => inner.next(),
        // The follower went away: stop listening (the run goes on).
        return: () => {
          end();
          return inner.return ? inner.return() : Promise.resolve({ value: undefined, done: true });
        },
      };
    },
  };
}
