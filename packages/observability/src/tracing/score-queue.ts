// Scores go to LangFuse's ingestion API in batches through the official client's API. We keep
// the queue ourselves instead of `langfuse.score.create` because its failures only reach
// console.error (once per batch, forever, while LangFuse is down) and it retries twice per
// batch; here a failure is one rate-limited line in our log, no retries, and a bounded queue.
import { randomUUID } from 'node:crypto';
import type { LangfuseClient } from '@langfuse/client';
import { describeError, type RateLimitedLog } from '../log';

type IngestionBatch = Parameters<LangfuseClient['api']['ingestion']['batch']>[0]['batch'];
type IngestionEvent = IngestionBatch[number];
type ScoreBody = Extract<IngestionEvent, { type: 'score-create' }>['body'];

export interface ScoreQueueOptions {
  client: LangfuseClient;
  report: RateLimitedLog;
  /** Send when this many scores are queued. */
  flushAt: number;
  /** …or this long after the first one was queued. */
  flushIntervalMs: number;
  /** Per-request timeout; a hanging LangFuse costs one timer, never a request. */
  timeoutSeconds: number;
  /** Scores beyond this while LangFuse is unreachable are dropped (and logged). */
  maxQueued?: number;
}

export class ScoreQueue {
  private queue: IngestionEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly inflight = new Set<Promise<void>>();
  private readonly maxQueued: number;

  constructor(private readonly options: ScoreQueueOptions) {
    this.maxQueued = options.maxQueued ?? 1_000;
  }

  add(body: ScoreBody): void {
    if (this.queue.length >= this.maxQueued) {
      this.options.report.report(
        'langfuse-score-queue',
        'warn',
        'LangFuse score queue full; score dropped',
        {
          queued: this.queue.length,
        },
      );
      return;
    }
    this.queue.push({
      id: randomUUID(),
      type: 'score-create',
      timestamp: new Date().toISOString(),
      body: { id: randomUUID(), ...body },
    });
    if (this.queue.length >= this.options.flushAt) {
      this.send();
    } else if (this.timer === null) {
      this.timer = setTimeout(() => this.send(), this.options.flushIntervalMs);
      // A pending score must not keep a finished process (CLI, tests) alive.
      this.timer.unref();
    }
  }

  /** Sends what is queued and waits for every request in flight. Never rejects. */
  async flush(): Promise<void> {
    this.send();
    await Promise.allSettled([...this.inflight]);
  }

  private send(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.queue.length);
    const request = (async () => {
      try {
        const response = await this.options.client.api.ingestion.batch(
          { batch },
          { timeoutInSeconds: this.options.timeoutSeconds, maxRetries: 0 },
        );
        if (response.errors.length > 0) {
          this.options.report.report(
            'langfuse-score-rejected',
            'warn',
            'LangFuse rejected scores',
            {
              rejected: response.errors.length,
              first: response.errors[0]?.message ?? response.errors[0]?.status,
            },
          );
        }
      } catch (error) {
        this.options.report.report(
          'langfuse-score-send',
          'warn',
          'LangFuse score batch failed; scores dropped',
          {
            scores: batch.length,
            error: describeError(error),
          },
        );
      }
    })();
    this.inflight.add(request);
    void request.finally(() => this.inflight.delete(request));
  }
}
