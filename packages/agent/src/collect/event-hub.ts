// Fan-out of task events (steps, collected items, done) to live listeners — the SSE route's
// subscribers. With a relay (the runtime's event bus, @tandem/jobs), an event published in one
// server process reaches the listeners of every process; without one, this process's only. It
// is a doorbell, not a log: the store stays the source of truth for collected items, so a
// listener that missed an event catches up by reading the store. Everything here is bounded,
// so a leaky client cannot grow memory.
import type { TaskEvent } from '@tandem/contracts';

export type TaskEventListener = (event: TaskEvent) => void;

export interface TaskEventHubOptions {
  /** Listeners on one task (browser tabs, dashboards) before subscribe refuses. Default 16. */
  maxSubscribersPerTask?: number;
  /** Listeners over all tasks before subscribe refuses. Default 1,000. */
  maxSubscribers?: number;
  /** Recent events kept per task for a listener that joins late. Default 20. */
  recentPerTask?: number;
  /** Tasks whose recent events are kept (least recently published dropped first). Default 500. */
  maxTasks?: number;
  /**
   * Carries events between processes (an EventBus): it delivers a publish to this process's
   * subscribers at once, and other processes' events within a second.
   */
  relay?: TaskEventRelay;
}

export interface TaskEventRelay {
  publish(channel: string, data: unknown): Promise<void>;
  subscribe(channel: string, listener: (data: unknown) => void): () => void;
}

/** subscribe() over a limit: the caller answers "busy" instead of holding one more stream. */
export class TaskEventHubFullError extends Error {
  override readonly name = 'TaskEventHubFullError';
}

export const isTaskEventHubFullError = (error: unknown): error is TaskEventHubFullError =>
  error instanceof Error && error.name === 'TaskEventHubFullError';

interface TaskChannel {
  listeners: Set<TaskEventListener>;
  recent: TaskEvent[];
}

export class TaskEventHub {
  private readonly channels = new Map<string, TaskChannel>();
  private subscribers = 0;
  private readonly maxSubscribersPerTask: number;
  private readonly maxSubscribers: number;
  private readonly recentPerTask: number;
  private readonly maxTasks: number;
  private readonly relay: TaskEventRelay | undefined;
  /** The relay subscriptions of tasks with listeners here, by hub key. */
  private readonly relayed = new Map<string, () => void>();

  constructor(options: TaskEventHubOptions = {}) {
    this.relay = options.relay;
    this.maxSubscribersPerTask = options.maxSubscribersPerTask ?? 16;
    this.maxSubscribers = options.maxSubscribers ?? 1_000;
    this.recentPerTask = options.recentPerTask ?? 20;
    this.maxTasks = options.maxTasks ?? 500;
  }

  // Tenant in the key: a task id guessed or leaked from another tenant reaches nothing.
  private static key(tenantId: string, taskId: string): string {
    return `${tenantId}\u0000${taskId}`;
  }

  /** The task's channel on the relay (tenant included, as in the key). */
  static channel(tenantId: string, taskId: string): string {
    return `task:${tenantId}:${taskId}`;
  }

  /**
   * Calls `listener` for every event published on the task from now on. Returns the
   * unsubscribe function (idempotent); aborting `signal` unsubscribes too. Throws
   * TaskEventHubFullError over a limit.
   */
  subscribe(
    tenantId: string,
    taskId: string,
    listener: TaskEventListener,
    options: { signal?: AbortSignal } = {},
  ): () => void {
    if (options.signal?.aborted) return () => {};
    const key = TaskEventHub.key(tenantId, taskId);
    const channel = this.channels.get(key) ?? { listeners: new Set(), recent: [] };
    if (channel.listeners.size >= this.maxSubscribersPerTask) {
      throw new TaskEventHubFullError(
        `Task ${taskId} already has ${channel.listeners.size} live listeners (at most ${this.maxSubscribersPerTask}).`,
      );
    }
    if (this.subscribers >= this.maxSubscribers) {
      throw new TaskEventHubFullError(
        `The server already holds ${this.subscribers} live task streams (at most ${this.maxSubscribers}).`,
      );
    }
    // A listener registered twice would be removed by one unsubscribe; wrap to keep it distinct.
    const entry: TaskEventListener = (event) => listener(event);
    channel.listeners.add(entry);
    this.channels.set(key, channel);
    this.subscribers += 1;
    if (this.relay && !this.relayed.has(key)) {
      const stop = this.relay.subscribe(TaskEventHub.channel(tenantId, taskId), (data) =>
        this.deliver(key, data as TaskEvent),
      );
      this.relayed.set(key, stop);
    }

    let active = true;
    const unsubscribe = () => {
      if (!active) return;
      active = false;
      options.signal?.removeEventListener('abort', unsubscribe);
      channel.listeners.delete(entry);
      this.subscribers -= 1;
      if (channel.listeners.size === 0) {
        this.relayed.get(key)?.();
        this.relayed.delete(key);
      }
      this.dropIfIdle(key, channel);
    };
    options.signal?.addEventListener('abort', unsubscribe, { once: true });
    return unsubscribe;
  }

  /**
   * Delivers the event to the task's listeners (in every process, with a relay); returns how
   * many here received it.
   */
  publish(tenantId: string, taskId: string, event: TaskEvent): number {
    const key = TaskEventHub.key(tenantId, taskId);
    if (!this.relay) return this.deliver(key, event);
    const here = this.channels.get(key)?.listeners.size ?? 0;
    // With listeners here, the relay delivers it to them through our subscription (deliver
    // remembers it then); without, it is only remembered, for one who joins late.
    if (!this.relayed.has(key)) this.remember(key, event);
    this.relay.publish(TaskEventHub.channel(tenantId, taskId), event).catch(() => {
      // Other processes miss this bell; their listeners catch up from the store.
    });
    return here;
  }

  /** Remembers the event and hands it to this process's listeners of the task. */
  private deliver(key: string, event: TaskEvent): number {
    const channel = this.remember(key, event);
    let delivered = 0;
    // A copy: a listener that unsubscribes (or subscribes) while being called must not
    // change who receives this event.
    for (const listener of [...(channel?.listeners ?? [])]) {
      try {
        listener(event);
        delivered += 1;
      } catch {
        // One broken listener (a closed stream) must not starve the others.
      }
    }
    return delivered;
  }

  /** Keeps the event among the task's recent ones; the task's channel, if it has one. */
  private remember(key: string, event: TaskEvent): TaskChannel | undefined {
    let channel = this.channels.get(key);
    if (!channel) {
      if (this.recentPerTask === 0) return undefined;
      channel = { listeners: new Set(), recent: [] };
    }
    // Re-inserting moves the task to the newest end of the Map: eviction order is LRU.
    this.channels.delete(key);
    this.channels.set(key, channel);
    if (this.recentPerTask > 0) {
      channel.recent.push(event);
      if (channel.recent.length > this.recentPerTask) channel.recent.shift();
    }
    this.evictIdleTasks();
    return channel;
  }

  /** The last events of a task, oldest first (for a listener that joins mid-task). */
  recent(tenantId: string, taskId: string): TaskEvent[] {
    return [...(this.channels.get(TaskEventHub.key(tenantId, taskId))?.recent ?? [])];
  }

  /** Live listeners on one task, or on all tasks. */
  listenerCount(tenantId?: string, taskId?: string): number {
    if (tenantId === undefined || taskId === undefined) return this.subscribers;
    return this.channels.get(TaskEventHub.key(tenantId, taskId))?.listeners.size ?? 0;
  }

  /** Tasks the hub holds state for (bounded by maxTasks plus tasks with live listeners). */
  get taskCount(): number {
    return this.channels.size;
  }

  private dropIfIdle(key: string, channel: TaskChannel): void {
    if (channel.listeners.size === 0 && channel.recent.length === 0) this.channels.delete(key);
  }

  private evictIdleTasks(): void {
    if (this.channels.size <= this.maxTasks) return;
    // Oldest first; tasks someone is listening to are never evicted.
    for (const [key, channel] of this.channels) {
      if (this.channels.size <= this.maxTasks) return;
      if (channel.listeners.size === 0) this.channels.delete(key);
    }
  }
}
