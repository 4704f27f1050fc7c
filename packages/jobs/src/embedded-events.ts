// The embedded event bus: this process's listeners get an event at once; other processes on
// the same store read it from the store's relay (LiveEventRepository), polling every 250 ms
// for the channels their listeners follow. What `npm start` runs; the scale path is Redis
// pub/sub (redis-events.ts).
import type { LiveEventRepository } from '@tandem/store';
import { LocalListeners, type EventBus } from './events';
import { processTag, type PortLog } from './port';

export interface EmbeddedEventBusOptions {
  store: { liveEvents: LiveEventRepository };
  /** This process in the relay; default host, pid and a random suffix. */
  origin?: string;
  /** How often other processes' events are read while someone listens. Default 250 ms. */
  pollMs?: number;
  /** Relayed events are kept this long (a doorbell needs no history). Default 10 minutes. */
  retentionMs?: number;
  log?: PortLog;
}

const PRUNE_EVERY_MS = 60_000;
// Each poll reads again the last LOOKBACK seqs it passed and skips those it delivered: on
// MongoDB an append takes its seq and inserts in two writes, so seq N can appear after N+1 was
// read; on libSQL (one write under the lock) the look back finds nothing new.
const LOOKBACK = 64;
const SEEN_KEPT = 1_024;

/**
 * Where this process reads the relay from, and what it must not deliver: events of before it
 * listened (of a channel, or at all), and those it delivered already (the look back).
 */
class RelayCursor {
  /** Where reading goes on from; set again whenever listening starts. */
  private lastSeq: Promise<number> | number = 0;
  /** The last seq before listening started: nothing at or below it is delivered. */
  private floor: Promise<number> | number = 0;
  /** The same for a channel first followed while others were. */
  private readonly channelFloor = new Map<string, number>();
  private readonly seen = new Set<number>();

  constructor(private readonly relay: LiveEventRepository) {}

  /** Listening starts (no channel was followed): from the relay's newest event on. */
  restart(): void {
    this.lastSeq = this.relay.lastSeq().catch(() => 0);
    this.floor = this.lastSeq;
  }

  follow(channel: string): void {
    if (typeof this.lastSeq === 'number') this.channelFloor.set(channel, this.lastSeq);
  }

  unfollow(channel: string): void {
    this.channelFloor.delete(channel);
  }

  /** Reads what was appended since the last read on `channels`; hands on what is new. */
  async read(
    channels: string[],
    deliver: (event: { channel: string; origin: string; data: unknown }) => void,
  ): Promise<void> {
    const min = await this.floor;
    let after = await this.lastSeq;
    let from = Math.max(0, after - LOOKBACK);
    for (;;) {
      const events = await this.relay.listAfter(from, { channels });
      for (const event of events) {
        from = event.seq;
        after = Math.max(after, event.seq);
        const past = event.seq <= min || event.seq <= (this.channelFloor.get(event.channel) ?? 0);
        if (past || this.seen.has(event.seq)) continue;
        this.seen.add(event.seq);
        if (this.seen.size > SEEN_KEPT) this.seen.delete(this.seen.values().next().value as number);
        deliver(event);
      }
      this.lastSeq = after;
      if (events.length < 500) return;
    }
  }
}

export function createEmbeddedEventBus(options: EmbeddedEventBusOptions): EventBus {
  const { store, log } = options;
  const origin = options.origin ?? processTag();
  const pollMs = options.pollMs ?? 250;
  const retentionMs = options.retentionMs ?? 10 * 60_000;
  const listeners = new LocalListeners();
  const cursor = new RelayCursor(store.liveEvents);
  let timer: ReturnType<typeof setInterval> | undefined;
  let polling = false;
  let closed = false;

  async function poll(): Promise<void> {
    if (polling || closed || listeners.size === 0) return;
    polling = true;
    try {
      await cursor.read(listeners.names(), (event) => {
        if (event.origin !== origin) listeners.deliver(event.channel, event.data);
      });
    } catch (error) {
      log?.warn('event bus: reading other processes’ events failed', { error });
    } finally {
      polling = false;
    }
  }

  const pruner = setInterval(() => {
    const before = new Date(Date.now() - retentionMs).toISOString();
    store.liveEvents.prune(before).catch(() => undefined);
  }, PRUNE_EVERY_MS);
  pruner.unref();

  return {
    kind: 'embedded',
    async publish(channel, data) {
      listeners.deliver(channel, data);
      if (closed) return;
      await store.liveEvents.append({ channel, origin, data });
    },
    subscribe(channel, listener) {
      const entry = listeners.add(channel, listener);
      if (entry.first) cursor.follow(channel);
      if (!timer && !closed) {
        cursor.restart();
        timer = setInterval(() => void poll(), pollMs);
        timer.unref();
      }
      return () => {
        if (entry.remove()) cursor.unfollow(channel);
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    async close() {
      closed = true;
      clearInterval(timer);
      clearInterval(pruner);
    },
  };
}
