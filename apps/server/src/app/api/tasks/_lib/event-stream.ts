// GET /api/tasks/{taskId}/events as server-sent events. Collected items always come from the
// store, in seq order: the hub only rings the bell (so a fresh item shows up at once), and a
// poll every second catches what another server process stored. Step events come from the hub,
// which the runtime's event bus feeds with every process's steps; done comes from the task's
// status in the store.
import { isTaskEventHubFullError, toCollectedItemEntry, type TaskEventHub } from '@tandem/agent';
import { TERMINAL_TASK_STATUSES, type TaskEvent } from '@tandem/contracts';
import type { Store } from '@tandem/store';
import { HttpError } from '../../../../server/http-error';
import type { Logger } from '@tandem/observability';
import { sseStream, type SseChannel } from '../../../../server/sse';

export interface TaskEventStreamOptions {
  store: Store;
  hub: TaskEventHub;
  tenantId: string;
  taskId: string;
  /** Replay collected items after this seq. */
  afterSeq: number;
  /** Also replay the hub's recent step events (a fresh connection, not a resume). */
  replaySteps: boolean;
  /** Client gone (request aborted). */
  signal: AbortSignal;
  log: Logger;
  /** Store poll period; default 1 s. */
  pollMs?: number;
  /** Idle comment period, under the 30–60 s proxies allow an idle response; default 15 s. */
  heartbeatMs?: number;
  /** Reconnect delay the browser's EventSource uses; default 2 s. */
  retryMs?: number;
  /** Longest life of one stream (the client resumes with Last-Event-ID); default 30 min. */
  maxDurationMs?: number;
}

// A store outage should end the stream (the client reconnects) rather than spin forever.
const MAX_FAILED_POLLS = 5;
const REPLAY_PAGE = 500;

export function taskEventStream(options: TaskEventStreamOptions): ReadableStream<Uint8Array> {
  const { store, hub, tenantId, taskId, signal, log } = options;
  let lastSeq = options.afterSeq;
  let failedPolls = 0;
  let running: Promise<void> | null = null;
  let rerun = false;
  let sse: SseChannel | undefined;
  // Step events have no id (they are not stored); collected items are resumed by their seq.
  const send = (event: TaskEvent, id?: number) =>
    sse?.send({ event: event.event, id, data: event });

  // Status first, items second: an item stored before the task finished is then always
  // sent before `done`.
  async function drain(channel: SseChannel) {
    const task = await store.tasks.get(tenantId, taskId);
    for (;;) {
      const items = await store.collectedItems.list(tenantId, taskId, {
        afterSeq: lastSeq,
        limit: REPLAY_PAGE,
      });
      if (items.length === 0 || channel.closed) break;
      const counts = await store.collectedItems.countByType(tenantId, taskId);
      for (const item of items) {
        const entry = toCollectedItemEntry(item);
        send(
          {
            event: 'collected',
            taskId,
            type: item.type,
            count: counts[item.type] ?? 1,
            item: entry,
          },
          item.seq,
        );
        lastSeq = item.seq;
      }
      if (items.length < REPLAY_PAGE) break;
    }
    if (!task) {
      channel.close();
      return;
    }
    if (TERMINAL_TASK_STATUSES.includes(task.status)) {
      const counts = await store.collectedItems.countByType(tenantId, taskId);
      send({ event: 'done', taskId, status: task.status, result: task.result, counts });
      channel.close();
    }
  }

  // One drain at a time; a bell that rings meanwhile runs one more, so nothing is missed.
  function pump(): void {
    const channel = sse;
    if (!channel || channel.closed) return;
    if (running) {
      rerun = true;
      return;
    }
    running = (async () => {
      do {
        rerun = false;
        try {
          await drain(channel);
          failedPolls = 0;
        } catch (error) {
          failedPolls += 1;
          log.warn('task event poll failed', { error, failedPolls });
          if (failedPolls >= MAX_FAILED_POLLS) channel.close();
        }
      } while (rerun && !channel.closed);
    })().finally(() => {
      running = null;
    });
  }

  const onEvent = (event: TaskEvent) => {
    if (event.event === 'step') send(event);
    else pump();
  };
  // Subscribed before the stream exists, so a full hub answers 429 instead of an empty stream.
  // Events that arrive before start() below (it runs synchronously in sseStream) have no channel
  // yet and are not lost: start replays the hub's recent steps and drains the store.
  let unsubscribe: () => void;
  try {
    unsubscribe = hub.subscribe(tenantId, taskId, onEvent, { signal });
  } catch (error) {
    if (isTaskEventHubFullError(error)) throw new HttpError('RATE_LIMITED', error.message);
    throw error;
  }

  return sseStream({
    signal,
    retryMs: options.retryMs ?? 2_000,
    ...(options.heartbeatMs !== undefined ? { heartbeatMs: options.heartbeatMs } : {}),
    ...(options.maxDurationMs !== undefined ? { maxDurationMs: options.maxDurationMs } : {}),
    start(channel) {
      sse = channel;
      channel.onClose(unsubscribe);
      if (options.replaySteps) {
        for (const event of hub.recent(tenantId, taskId)) {
          if (event.event === 'step') send(event);
        }
      }
      const poll = setInterval(pump, options.pollMs ?? 1_000);
      channel.onClose(() => clearInterval(poll));
      pump();
    },
  });
}
