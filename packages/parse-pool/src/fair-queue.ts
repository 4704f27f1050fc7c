// Fair shares of the pool's threads between tenants. The pool is small (a thread per core or
// two) and jobs are long (a PDF's OCR runs for up to a minute), so first-come-first-served
// would let one tenant's ten uploads hold every thread while another tenant's one page waits
// behind them. Here each tenant runs at most `perTenant` jobs at once, and a free thread goes
// to the next tenant in turn that has work waiting. Pure scheduling: what a job does is the
// caller's `start`.

/** The tenant already has as many jobs waiting as it may; the route answers 429. */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
}

interface Waiting {
  start: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface FairQueueOptions {
  /** Jobs running at once in all (the pool's threads). */
  capacity: number;
  /** Jobs one tenant may run at once. */
  perTenant: number;
  /** Jobs one tenant may have waiting; more are refused with QueueFullError. */
  maxWaitingPerTenant: number;
}

export class FairQueue {
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly running = new Map<string, number>();
  private total = 0;
  /** Tenants in the order they get a free thread; the first is served next. */
  private turn: string[] = [];

  constructor(private readonly options: FairQueueOptions) {}

  /** Runs `start` when the tenant's turn comes; its promise settles with the job's. */
  submit<T>(tenantId: string, start: () => Promise<T>): Promise<T> {
    const queue = this.waiting.get(tenantId) ?? [];
    if (queue.length >= this.options.maxWaitingPerTenant) {
      return Promise.reject(
        new QueueFullError(
          `${queue.length} of this account's files and pages are already waiting to be read; try again when they are done.`,
        ),
      );
    }
    return new Promise<T>((resolve, reject) => {
      queue.push({ start, resolve: resolve as (value: unknown) => void, reject });
      this.waiting.set(tenantId, queue);
      if (!this.turn.includes(tenantId)) this.turn.push(tenantId);
      this.pump();
    });
  }

  /** Jobs waiting and running now, for logs and tests. */
  stats(): { running: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.waiting.values()) waiting += queue.length;
    return { running: this.total, waiting };
  }

  private next(): string | undefined {
    return this.turn.find(
      (tenant) =>
        (this.waiting.get(tenant)?.length ?? 0) > 0 &&
        (this.running.get(tenant) ?? 0) < this.options.perTenant,
    );
  }

  private pump(): void {
    while (this.total < this.options.capacity) {
      const tenant = this.next();
      if (tenant === undefined) return;
      const queue = this.waiting.get(tenant) ?? [];
      const job = queue.shift() as Waiting;
      if (queue.length === 0) this.waiting.delete(tenant);
      // Served: to the back of the line.
      this.turn = [...this.turn.filter((t) => t !== tenant), tenant];
      this.running.set(tenant, (this.running.get(tenant) ?? 0) + 1);
      this.total++;
      void Promise.resolve()
        .then(job.start)
        .then(job.resolve, job.reject)
        .finally(() => this.done(tenant));
    }
  }

  private done(tenant: string): void {
    const left = (this.running.get(tenant) ?? 1) - 1;
    if (left > 0) this.running.set(tenant, left);
    else this.running.delete(tenant);
    this.total--;
    if (left === 0 && !this.waiting.has(tenant)) this.turn = this.turn.filter((t) => t !== tenant);
    this.pump();
  }
}
