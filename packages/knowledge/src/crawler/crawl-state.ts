// The resumable part of a crawl, mirrored from the job record: frontier, visited, progress and
// recent errors. A page taken from the frontier stays in the persisted frontier until it is
// finished, so a crash or shutdown mid-page fetches it again on resume, and a finished page is
// in `visited`, so it never is.
import type { KnowledgeJob, KnowledgeJobPatch, KnowledgeJobProgress } from '@tandem/store';

export type FrontierItem = KnowledgeJob['frontier'][number];

/** The admin page shows recent failures; a big broken site must not grow the record forever. */
export const MAX_JOB_ERRORS = 50;

export class CrawlState {
  readonly progress: KnowledgeJobProgress;
  #errors: KnowledgeJob['errors'];
  #frontier: FrontierItem[];
  readonly #queued = new Set<string>();
  readonly #inFlight = new Map<string, FrontierItem>();
  /** In flight and not yet counted in progress.fetched (no request has gone out yet). */
  readonly #uncounted = new Set<string>();
  readonly #visited: string[];
  readonly #visitedSet: Set<string>;
  #wakers: Array<() => void> = [];

  constructor(
    job: KnowledgeJob,
    private readonly maxPages: number,
  ) {
    this.progress = { ...job.progress };
    this.#errors = [...job.errors];
    this.#visited = [...job.visited];
    this.#visitedSet = new Set(job.visited);
    // A frontier entry visited meanwhile (persisted between two writes) is dropped here.
    this.#frontier = job.frontier.filter((item) => !this.#visitedSet.has(item.url));
    for (const item of this.#frontier) this.#queued.add(item.url);
  }

  /** Nothing crawled or queued yet: the strategy still has to seed the frontier. */
  get isFresh(): boolean {
    return this.#frontier.length === 0 && this.#visited.length === 0;
  }

  get busy(): boolean {
    return this.#inFlight.size > 0;
  }

  /** Known in any way: queued, being fetched, fetched or refused. */
  has(url: string): boolean {
    return this.#visitedSet.has(url) || this.#queued.has(url) || this.#inFlight.has(url);
  }

  isVisited(url: string): boolean {
    return this.#visitedSet.has(url);
  }

  /** Pages that may still be fetched: maxPages minus those fetched or about to be. */
  get budget(): number {
    return this.maxPages - this.progress.fetched - this.#uncounted.size;
  }

  /** A request for this in-flight page went out: it counts against maxPages from now on. */
  countFetched(item: FrontierItem): void {
    if (!this.#uncounted.delete(item.url)) return;
    this.progress.fetched += 1;
  }

  /** Room to queue another URL: the frontier never outgrows what the budget can fetch. */
  get hasRoom(): boolean {
    return this.#frontier.length < this.budget;
  }

  enqueue(url: string, depth: number): void {
    if (this.has(url) || !this.hasRoom) return;
    this.#frontier.push({ url, depth });
    this.#queued.add(url);
    this.progress.discovered += 1;
    this.#wake();
  }

  /** A URL found but not to be fetched (robots.txt): counted once, never queued again. */
  refuse(url: string): void {
    if (this.has(url)) return;
    this.#markVisited(url);
    this.progress.discovered += 1;
    this.progress.skipped += 1;
  }

  /** The next URL to fetch, or undefined when none is queued or the page budget is spent. */
  take(): FrontierItem | undefined {
    if (this.budget <= 0) return undefined;
    let item = this.#frontier.shift();
    // A queued URL can become visited as another page's redirect target; skip it then.
    while (item && this.#visitedSet.has(item.url)) {
      this.#queued.delete(item.url);
      item = this.#frontier.shift();
    }
    if (!item) return undefined;
    this.#queued.delete(item.url);
    this.#inFlight.set(item.url, item);
    this.#uncounted.add(item.url);
    return item;
  }

  /** The page is done (any outcome); every URL its redirects touched counts as visited. */
  finish(item: FrontierItem, hops: readonly string[]): void {
    this.#inFlight.delete(item.url);
    this.#uncounted.delete(item.url);
    for (const url of [item.url, ...hops]) this.#markVisited(url);
    this.#wake();
  }

  /** Shutdown before the page was fetched: back to the front, fetched first on resume. */
  requeue(item: FrontierItem): void {
    this.#inFlight.delete(item.url);
    this.#uncounted.delete(item.url);
    this.#frontier.unshift(item);
    this.#queued.add(item.url);
    this.#wake();
  }

  addError(url: string, message: string): void {
    this.#errors = [...this.#errors, { url, message, at: new Date().toISOString() }].slice(
      -MAX_JOB_ERRORS,
    );
  }

  get lastError(): string | undefined {
    return this.#errors.at(-1)?.message;
  }

  /** Resolves at the next enqueue, finish or requeue: a worker with nothing to do waits here. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.#wakers.push(resolve));
  }

  /** Everything to persist. Pages in flight lead the frontier: unfinished work comes first. */
  patch(): KnowledgeJobPatch {
    return {
      progress: { ...this.progress },
      frontier: [...this.#inFlight.values(), ...this.#frontier],
      visited: [...this.#visited],
      errors: [...this.#errors],
    };
  }

  #markVisited(url: string): void {
    if (this.#visitedSet.has(url)) return;
    this.#visitedSet.add(url);
    this.#visited.push(url);
  }

  #wake(): void {
    const wakers = this.#wakers;
    this.#wakers = [];
    for (const wake of wakers) wake();
  }
}
