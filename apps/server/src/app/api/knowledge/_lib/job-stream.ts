// GET /api/knowledge/jobs/{id}/events: the job's state after each page, then `done`. Updates
// come on the event bus from whichever process runs the crawl, within a second; a slow poll of
// the store is the backstop (an event lost with a dying process), and ends the stream if the
// job is gone.
import type { KnowledgeJobEvent, KnowledgeJobView } from '@tandem/contracts';
import type { KnowledgeJob } from '@tandem/store';
import { isFinished, jobView, type KnowledgeJobRunner } from '../../../../server/knowledge-jobs';
import { sseStream } from '../../../../server/sse';

export interface JobStreamOptions {
  job: KnowledgeJob;
  runner: Pick<KnowledgeJobRunner, 'subscribe'>;
  reload: () => Promise<KnowledgeJob | null>;
  signal: AbortSignal;
  pollMs?: number;
  heartbeatMs?: number;
}

export function jobEventStream(options: JobStreamOptions): ReadableStream<Uint8Array> {
  let lastUpdate = '';
  let lastAt = '';
  return sseStream({
    signal: options.signal,
    retryMs: 2_000,
    ...(options.heartbeatMs !== undefined ? { heartbeatMs: options.heartbeatMs } : {}),
    start(channel) {
      const send = (job: KnowledgeJobView) => {
        // Same state twice (bus and poll) is one event; an older one arriving late is none.
        const key = `${job.updatedAt}|${job.status}|${JSON.stringify(job.progress)}`;
        if (channel.closed || key === lastUpdate || job.updatedAt < lastAt) return;
        lastUpdate = key;
        lastAt = job.updatedAt;
        const done = isFinished(job);
        const event: KnowledgeJobEvent = { type: done ? 'done' : 'progress', job };
        channel.send({ event: event.type, data: event });
        if (done) channel.close();
      };
      send(jobView(options.job));
      if (channel.closed) return;
      channel.onClose(options.runner.subscribe(options.job.tenantId, options.job.id, send));
      const poll = setInterval(() => {
        void options.reload().then(
          (job) => (job ? send(jobView(job)) : channel.close()),
          () => channel.close(),
        );
      }, options.pollMs ?? 5_000);
      channel.onClose(() => clearInterval(poll));
    },
  });
}
