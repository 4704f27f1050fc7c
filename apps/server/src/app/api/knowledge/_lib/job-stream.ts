// GET /api/knowledge/jobs/{id}/events: the job's state after each page, then `done`. The
// runner's listener makes updates immediate; a slow poll of the store covers a job that
// another server process runs, and ends the stream if the listener is never called.
import type { KnowledgeJobEvent } from '@tandem/contracts';
import type { KnowledgeJob } from '@tandem/store';
import { isFinished, jobView, type KnowledgeJobRunner } from '../../../../server/knowledge-jobs';

export interface JobStreamOptions {
  job: KnowledgeJob;
  runner: Pick<KnowledgeJobRunner, 'subscribe'>;
  reload: () => Promise<KnowledgeJob | null>;
  signal: AbortSignal;
  pollMs?: number;
  heartbeatMs?: number;
}

export const jobFrame = (event: KnowledgeJobEvent): string =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

export function jobEventStream(options: JobStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let closed = false;
  let lastUpdate = '';
  const timers: ReturnType<typeof setInterval>[] = [];
  let unsubscribe = () => {};
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const close = () => {
    if (closed) return;
    closed = true;
    timers.forEach(clearInterval);
    unsubscribe();
    options.signal.removeEventListener('abort', close);
    try {
      controller.close();
    } catch {
      // Already closed by the client.
    }
  };
  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };
  const send = (job: KnowledgeJob) => {
    // Same state twice (listener and poll) is one event.
    const key = `${job.updatedAt}|${job.status}|${JSON.stringify(job.progress)}`;
    if (key === lastUpdate) return;
    lastUpdate = key;
    const done = isFinished(job);
    write(jobFrame({ type: done ? 'done' : 'progress', job: jobView(job) }));
    if (done) close();
  };

  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      write('retry: 2000\n\n');
      send(options.job);
      if (closed) return;
      unsubscribe = options.runner.subscribe(options.job.id, send);
      timers.push(
        setInterval(() => {
          void options.reload().then((job) => (job ? send(job) : close()), close);
        }, options.pollMs ?? 2_000),
        setInterval(() => write(': heartbeat\n\n'), options.heartbeatMs ?? 15_000),
      );
      options.signal.addEventListener('abort', close);
    },
    cancel: close,
  });
}
