// A document run's events on the event bus (@tandem/jobs' port, passed in as a small interface
// so this package needs no queue): published where the run goes on, heard by every process, so
// GET /api/extractions/{id}/events follows a run from any server, not only from the request
// that started it. The bus is a doorbell: a follower that joins mid-run hears what comes next
// and reads what was written before from the extraction itself.
import { ExtractionStreamEvent } from '@tandem/contracts';
import type { IdempotencyRepository } from '@tandem/store';
import { EventChannel } from './event-channel';
import { RUN_LOCK_SCOPE } from './run-lock';

export interface RunEventBus {
  publish(channel: string, data: unknown): Promise<void>;
  subscribe(channel: string, listener: (data: unknown) => void): () => void;
}

export const extractionChannel = (tenantId: string, extractionId: string): string =>
  `extraction:${tenantId}:${extractionId}`;

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
}

/**
 * The events of the extraction's run from now to its `complete`. Subscribes before it asks
 * whether a run goes on, so nothing published in between is lost; when no run goes on (or the
 * one that did stops holding its lock without a `complete`), it ends with `completion()`.
 */
export async function followExtraction(
  options: FollowOptions,
): Promise<AsyncIterable<ExtractionStreamEvent>> {
  const channel = new EventChannel<ExtractionStreamEvent>();
  let ended = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const end = (last?: ExtractionStreamEvent) => {
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
      const event = ExtractionStreamEvent.safeParse(data);
      if (!event.success || ended) return;
      if ('complete' in event.data) end(event.data);
      else channel.push(event.data);
    },
  );
  /** `grace`: the run was seen going, so its last events may still be on their way. */
  const check = async (grace: boolean) => {
    if (ended || (await options.running())) return;
    // The lock is released right after the run publishes its last event, which takes up to a
    // second to reach another process: wait that long before ending it from the store.
    if (grace) await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (!ended) end(await options.completion());
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
