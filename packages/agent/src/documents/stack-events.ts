// A stack run's events on the event bus, as run-events.ts has them for extraction runs: the
// worker running the stack's job publishes them, and every process hears them, so the request
// that started the run and GET /api/stacks/{id}/events follow it from any server. Stack events
// carry no ids: a stack keeps no write history to resume from, only its rows.
import { StackStreamEvent } from '@tandem/contracts';
import type { IdempotencyRepository } from '@tandem/store';
import { z } from 'zod';
import { EventChannel } from './event-channel';
import { runInProgress, type RunEventBus } from './run-events';

export const stackChannel = (tenantId: string, stackId: string): string =>
  `stack:${tenantId}:${stackId}`;

/** The subject of a stack's run lock (extractions' locks are named by their bare id). */
export const stackLockSubject = (stackId: string): string => `stack:${stackId}`;

const StackBusMessage = z.strictObject({ event: StackStreamEvent });

export function stackBusMessage(event: StackStreamEvent): { event: StackStreamEvent } {
  return { event };
}

/** A bus message read back: null when it is not a stack event (another version's, or garbage). */
export function readStackBusMessage(data: unknown): StackStreamEvent | null {
  const parsed = StackBusMessage.safeParse(data);
  return parsed.success ? parsed.data.event : null;
}

/** Whether a run holds the stack's lock now (the lock lapses a lease after its run dies). */
export function stackRunInProgress(
  idempotency: Pick<IdempotencyRepository, 'get'>,
  tenantId: string,
  stackId: string,
): Promise<boolean> {
  return runInProgress(idempotency, tenantId, stackLockSubject(stackId));
}

export interface FollowStackOptions {
  bus: RunEventBus;
  tenantId: string;
  stackId: string;
  /** Whether the run still goes on (asked at the start and every `checkMs`). */
  running: () => Promise<boolean>;
  /** The `complete` event of a run that ended without one reaching us (it died, or ended first). */
  completion: () => Promise<StackStreamEvent>;
  checkMs?: number;
}

/**
 * The events of the stack's run from now to its `complete`. Subscribes before it asks whether a
 * run goes on, so nothing published in between is lost; when no run goes on (or the one that
 * did stops holding its lock without a `complete`), it ends with `completion()`.
 */
export async function followStack(
  options: FollowStackOptions,
): Promise<AsyncIterable<StackStreamEvent>> {
  const channel = new EventChannel<StackStreamEvent>();
  let ended = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const end = (last?: StackStreamEvent) => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    unsubscribe();
    if (last) channel.push(last);
    channel.close();
  };
  const unsubscribe = options.bus.subscribe(
    stackChannel(options.tenantId, options.stackId),
    (data) => {
      // Another process sent it (maybe another version, mid-deploy): check it.
      const event = readStackBusMessage(data);
      if (!event || ended) return;
      if ('complete' in event) end(event);
      else channel.push(event);
    },
  );
  /** `grace`: the run was seen going, so its last events may still be on their way. */
  const check = async (grace: boolean) => {
    if (ended || (await options.running())) return;
    // The lock is freed right before the run publishes its `complete`, which takes up to a
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
