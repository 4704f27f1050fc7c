// Following a run on the event bus, for every kind of run (document extractions, stacks): the
// worker running the run's job publishes its events on the run's channel, and any process can
// follow it to its `complete`. One follower for every kind, so each kind says only what its
// events are, how its run is seen going, and what its `complete` says when none came.
import { EventChannel } from './event-channel';
import type { RunEventBus } from './run-events';

export interface FollowRunOptions<Item> {
  bus: RunEventBus;
  /** The run's channel on the bus (the tenant is in it). */
  channel: string;
  /** A bus message read back: null when it is not this kind's event (another version's, garbage). */
  read: (data: unknown) => Item | null;
  /** Whether the item is the run's last (`complete`). */
  isComplete: (item: Item) => boolean;
  /** Whether the run still goes on (asked at the start and every `checkMs`). */
  running: () => Promise<boolean>;
  /** The `complete` of a run that ended without one reaching us (it died, or ended first). */
  completion: () => Promise<Item>;
  checkMs?: number;
  /**
   * A reconnect: the items after the client's last (its Last-Event-ID), read from the run's
   * history and sent first. Live items whose `seq` is one of those sent are not sent again.
   */
  resume?: {
    afterSeq: number;
    history: () => Promise<Item[]>;
    seq: (item: Item) => number | undefined;
  };
}

/**
 * The run's events from now to its `complete`. Subscribes before it asks whether a run goes
 * on, so nothing published in between is lost; when no run goes on (or the one that did stops
 * holding its lock without a `complete`), it ends with `completion()`.
 */
export async function followRun<Item>(
  options: FollowRunOptions<Item>,
): Promise<AsyncIterable<Item>> {
  const { resume } = options;
  const channel = new EventChannel<Item>();
  let ended = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  /** Live items held while the missed ones are read (they come after them). */
  let held: Item[] | null = resume ? [] : null;
  /** Items up to this seq were sent from the history. */
  let sentSeq = resume?.afterSeq ?? 0;
  const end = (last?: Item) => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    unsubscribe();
    if (last !== undefined) channel.push(last);
    channel.close();
  };
  const deliver = (item: Item) => {
    const seq = resume?.seq(item);
    if (seq !== undefined && seq <= sentSeq) return;
    if (options.isComplete(item)) end(item);
    else channel.push(item);
  };
  const unsubscribe = options.bus.subscribe(options.channel, (data) => {
    // Another process sent it (maybe another version, mid-deploy): check it.
    const item = options.read(data);
    if (item === null || ended) return;
    if (held) held.push(item);
    else deliver(item);
  });
  if (resume) {
    try {
      for (const item of await resume.history()) {
        channel.push(item);
        sentSeq = Math.max(sentSeq, resume.seq(item) ?? sentSeq);
      }
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
    // A run frees its lock around the time it publishes its `complete`, which takes up to a
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
