// The event port: live events (task steps, collected items, crawl progress) published once and
// delivered to every listener of their channel in every process. A channel names its subject,
// tenant included (`task:<tenantId>:<taskId>`). It is a doorbell, not a log: a listener that
// joins late or reconnects catches up from the store (Last-Event-ID), as the SSE routes do.
//
// Both adapters keep the contract in testing/event-bus-contract.ts: the publishing process's
// listeners get an event at once and exactly once; every other process's within a second;
// one publisher's events on a channel arrive in the order published.

export type LiveEventListener = (data: unknown) => void;

export interface EventBus {
  readonly kind: 'embedded' | 'redis';
  /** Delivers `data` (JSON) to this process's listeners at once, then to every other process. */
  publish(channel: string, data: unknown): Promise<void>;
  /** Calls `listener` for every event on `channel` until the returned function is called. */
  subscribe(channel: string, listener: LiveEventListener): () => void;
  close(): Promise<void>;
}

/** This process's listeners by channel: delivery, and which channels to follow elsewhere. */
export class LocalListeners {
  private readonly channels = new Map<string, Set<LiveEventListener>>();

  /** Adds a listener; `first` says the channel had none (start following it elsewhere). */
  add(channel: string, listener: LiveEventListener): { first: boolean; remove: () => boolean } {
    const set = this.channels.get(channel) ?? new Set<LiveEventListener>();
    const first = set.size === 0;
    // A listener registered twice would be removed by one unsubscribe: wrap to keep it distinct.
    const entry: LiveEventListener = (data) => listener(data);
    set.add(entry);
    this.channels.set(channel, set);
    let active = true;
    return {
      first,
      /** True when the channel has no listener left (stop following it). */
      remove: () => {
        if (!active) return false;
        active = false;
        set.delete(entry);
        if (set.size > 0) return false;
        this.channels.delete(channel);
        return true;
      },
    };
  }

  deliver(channel: string, data: unknown): void {
    // A copy: a listener that (un)subscribes while called must not change who gets this event.
    for (const listener of [...(this.channels.get(channel) ?? [])]) {
      try {
        listener(data);
      } catch {
        // One broken listener (a closed stream) must not starve the others.
      }
    }
  }

  names(): string[] {
    return [...this.channels.keys()];
  }

  get size(): number {
    return this.channels.size;
  }
}
