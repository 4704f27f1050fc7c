// GET /api/tasks/{taskId}/events as server-sent events. Collected items always come from the
// store, in seq order: the hub only rings the bell (so a fresh item shows up at once), and a
// poll every second catches what another server process stored. Step events come from the hub,
// which the runtime's event bus feeds with every process's steps; done comes from the task's
// status in the store.
import { isTaskEventHubFullError, toCollectedItemEntry, type TaskEventHub } from '@tandem/agent';
import { TERMINAL_TASK_STATUSES, type TaskEvent } from '@tandem/contracts';
import type { Store } from '@tandem/store';
import { HttpError } from '../../../../server/http-error';
import type { Logger } from '../../../../server/logger';

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

/** Frames one event: `event:` names it, `id:` (items only) is what Last-Event-ID resumes from. */
export function sseFrame(event: TaskEvent, id?: number): string {
  const idLine = id === undefined ? '' : `id: ${id}\n`;
  return `event: ${event.event}\n${idLine}data: ${JSON.stringify(event)}\n\n`;
}

/** The resume point of a reconnect: `Last-Event-ID` when it is a seq, else undefined. */
export function lastEventSeq(request: Request): number | undefined {
  const value = request.headers.get('last-event-id')?.trim();
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

export function taskEventStream(options: TaskEventStreamOptions): ReadableStream<Uint8Array> {
  const { store, hub, tenantId, taskId, signal, log } = options;
  const pollMs = options.pollMs ?? 1_000;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const encoder = new TextEncoder();
  let lastSeq = options.afterSeq;
  let closed = false;
  let failedPolls = 0;
  let running: Promise<void> | null = null;
  let rerun = false;
  const timers: ReturnType<typeof setInterval>[] = [];
  let deadline: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe = () => {};
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };

  function close() {
    if (closed) return;
    closed = true;
    for (const timer of timers) clearInterval(timer);
    clearTimeout(deadline);
    unsubscribe();
    signal.removeEventListener('abort', close);
    try {
      controller.close();
    } catch {
      // Already closed or errored by the consumer.
    }
  }

  // Status first, items second: an item stored before the task finished is then always
  // sent before `done`.
  async function drain() {
    const task = await store.tasks.get(tenantId, taskId);
    for (;;) {
      const items = await store.collectedItems.list(tenantId, taskId, {
        afterSeq: lastSeq,
        limit: REPLAY_PAGE,
      });
      if (items.length === 0 || closed) break;
      const counts = await store.collectedItems.countByType(tenantId, taskId);
      for (const item of items) {
        const entry = toCollectedItemEntry(item);
        write(
          sseFrame(
            {
              event: 'collected',
              taskId,
              type: item.type,
              count: counts[item.type] ?? 1,
              item: entry,
            },
            item.seq,
          ),
        );
        lastSeq = item.seq;
      }
      if (items.length < REPLAY_PAGE) break;
    }
    if (!task) {
      close();
      return;
    }
    if (TERMINAL_TASK_STATUSES.includes(task.status)) {
      const counts = await store.collectedItems.countByType(tenantId, taskId);
      write(sseFrame({ event: 'done', taskId, status: task.status, result: task.result, counts }));
      close();
    }
  }

  // One drain at a time; a bell that rings meanwhile runs one more, so nothing is missed.
  function pump(): void {
    if (closed) return;
    if (running) {
      rerun = true;
      return;
    }
    running = (async () => {
      do {
        rerun = false;
        try {
          await drain();
          failedPolls = 0;
        } catch (error) {
          failedPolls += 1;
          log.warn('task event poll failed', { error, failedPolls });
          if (failedPolls >= MAX_FAILED_POLLS) close();
        }
      } while (rerun && !closed);
    })().finally(() => {
      running = null;
    });
  }

  const onEvent = (event: TaskEvent) => {
    if (event.event === 'step') write(sseFrame(event));
    else pump();
  };
  // Subscribed before the stream exists, so a full hub answers 429 instead of an empty stream.
  // No event can arrive before start() below: the constructor calls it synchronously.
  try {
    unsubscribe = hub.subscribe(tenantId, taskId, onEvent, { signal });
  } catch (error) {
    if (isTaskEventHubFullError(error)) throw new HttpError('RATE_LIMITED', error.message);
    throw error;
  }

  return new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      write(`retry: ${options.retryMs ?? 2_000}\n\n`);
      if (options.replaySteps) {
        for (const event of hub.recent(tenantId, taskId)) {
          if (event.event === 'step') write(sseFrame(event));
        }
      }
      if (signal.aborted) {
        close();
        return;
      }
      signal.addEventListener('abort', close, { once: true });
      timers.push(setInterval(pump, pollMs));
      timers.push(setInterval(() => write(': heartbeat\n\n'), heartbeatMs));
      deadline = setTimeout(close, options.maxDurationMs ?? 30 * 60_000);
      pump();
    },
    cancel() {
      close();
    },
  });
}
