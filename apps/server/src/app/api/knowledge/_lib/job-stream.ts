// GET /api/knowledge/jobs/{id}/events: the job's state after each page, then `done`. Updates
// come on the event bus from whichever process runs the crawl, within a second; a slow poll of
// the store is the backstop (an event lost with a dying process), and ends the stream if the
// job is gone.
import type { KnowledgeJobEvent, KnowledgeJobView } from '@tandem/contracts';
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
  let lastAt = '';
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
  const send = (job: KnowledgeJobView) => {
    // Same state twice (bus and poll) is one event; an older one arriving late is none.
    const key = `${job.updatedAt}|${job.status}|${JSON.stringify(job.progress)}`;
    if (key === lastUpdate || job.updatedAt < lastAt) return;
    lastUpdate = key;
    lastAt = job.updatedAt;
    const done = isFinished(job);
    write(jobFrame({ type: done ? 'done' : 'progress', job }));
    if (done) close();
  };

  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      write('retry: 2000\n\n');
      send(jobView(options.job));
      if (closed) return;
      unsubscribe = options.runner.subscribe(options.job.tenantId, options.job.id, send);
      timers.push(
        setInterval(() => {
          void options.reload().then((job) => (job ? send(jobView(job)) : close()), close);
        }, options.pollMs ?? 5_000),
        setInterval(() => write(': heartbeat\n\n'), options.heartbeatMs ?? 15_000),
      );
      options.signal.addEventListener('abort', close);
    },
    cancel: close,
  });
}
