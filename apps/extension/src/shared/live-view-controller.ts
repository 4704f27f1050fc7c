// Keeps a live view in step with one tab's run: re-renders on every stored change and once a
// second while the run is active (elapsed time, countdowns), follows the task's live collect
// events, and turns Stop, Send and the downloads into worker messages and API calls. The
// browser APIs come in as parameters; the popup and the side panel pass chrome's.
import type { CollectedCounts, TaskEvent } from '@tandem/contracts';
import type { ApiClient, ExtractionFormat } from './api-client';
import { createLiveView, type LiveView, type LiveViewInput } from './live-view-dom';
import { isActive, stillStopping } from './live-view-format';
import type { WorkerReply, WorkerRequest } from './messages';
import { loadRun, runKey, type RunState } from './run-state';
import type { KeyValueStore } from './settings';

export interface LiveViewDeps {
  storage: KeyValueStore;
  send(request: WorkerRequest): Promise<WorkerReply>;
  /** Calls `onChange` whenever the stored value of `key` changes; returns the unsubscribe. */
  watch(key: string, onChange: () => void): () => void;
  /** Null until the server URL and API key are set. */
  api: ApiClient | null;
  now?: () => number;
}

export interface LiveViewOptions {
  /** The status line when the tab has no run. */
  empty: string;
  /** Shows the run's goal above the status (the side panel, which has no goal box). */
  showGoal?: boolean;
  /** Called after each stored change, e.g. for the popup's Start button. */
  onRun?: (run: RunState | null) => void;
}

export interface LiveViewController {
  /** Shows this tab's run (the side panel calls it again when the user switches tabs). */
  show(tabId: number): Promise<void>;
  current(): RunState | null;
}

const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Hands `blob` to the browser as a download named `name`. */
function saveBlob(blob: Blob, name: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** One page's live view of one tab at a time, with what the user just did on this page. */
class LiveViewSession implements LiveViewController {
  readonly #view: LiveView;
  #tabId: number | null = null;
  #run: RunState | null = null;
  #stopping = false;
  #sending = false;
  #answerError: string | undefined;
  #deciding = false;
  #approvalError: string | undefined;
  #notice: string | undefined;
  #liveCounts: CollectedCounts = {};
  #following: { taskId: string; abort: AbortController } | undefined;
  #unwatch: (() => void) | undefined;

  constructor(
    root: HTMLElement,
    private readonly deps: LiveViewDeps,
    private readonly options: LiveViewOptions,
  ) {
    this.#view = createLiveView(root, {
      stop: () => this.stop(),
      answer: (text) => this.answer(text),
      approve: (actions) => this.decide({ type: 'task:approve', actions }),
      reject: (note) => this.decide({ type: 'task:reject', note }),
      download: () => this.download(),
      downloadExtraction: (extractionId, format) => this.downloadExtraction(extractionId, format),
    });
    setInterval(() => {
      if (isActive(this.#run)) this.render();
    }, 1000);
  }

  current(): RunState | null {
    return this.#run;
  }

  async show(tabId: number): Promise<void> {
    if (tabId !== this.#tabId) {
      this.#unwatch?.();
      this.#tabId = tabId;
      this.#stopping = this.#sending = this.#deciding = false;
      this.#answerError = this.#notice = this.#approvalError = undefined;
      this.#unwatch = this.deps.watch(runKey(tabId), () => void this.reload(tabId));
    }
    await this.reload(tabId);
  }

  private async reload(tabId: number): Promise<void> {
    const run = await loadRun(this.deps.storage, tabId);
    // The user may have switched tabs while this was loading.
    if (this.#tabId === tabId) this.update(run);
  }

  private update(run: RunState | null): void {
    this.#stopping = stillStopping(this.#stopping, this.#run, run);
    if (run?.question !== this.#run?.question) this.#answerError = undefined;
    if (run?.approval !== undefined && this.#run?.approval === undefined)
      this.#approvalError = undefined;
    this.#run = run;
    this.follow();
    this.render();
    this.options.onRun?.(run);
  }

  private input(): LiveViewInput {
    return {
      run: this.#run,
      now: (this.deps.now ?? Date.now)(),
      stopping: this.#stopping,
      sending: this.#sending,
      deciding: this.#deciding,
      liveCounts: this.#following ? this.#liveCounts : {},
      empty: this.options.empty,
      showGoal: this.options.showGoal ?? false,
      ...(this.#run?.collectLimit ? { collectTarget: this.#run.collectLimit } : {}),
      ...(this.#answerError ? { answerError: this.#answerError } : {}),
      ...(this.#approvalError ? { approvalError: this.#approvalError } : {}),
      ...(this.#notice ? { notice: this.#notice } : {}),
    };
  }

  private render(): void {
    this.#view.render(this.input());
  }

  private stop(): void {
    const tabId = this.#tabId;
    if (tabId === null) return;
    this.#stopping = true;
    this.#notice = undefined;
    this.render();
    const failed = (error: string) => {
      this.#stopping = false;
      this.#notice = error;
      this.render();
    };
    void this.deps.send({ type: 'task:stop', tabId }).then(
      (reply) => reply.ok || failed(reply.error ?? 'Could not stop the task.'),
      (error: unknown) => failed(message(error)),
    );
  }

  private answer(text: string): void {
    const tabId = this.#tabId;
    if (tabId === null || this.#sending) return;
    this.#sending = true;
    this.#answerError = undefined;
    this.render();
    const done = (error?: string) => {
      this.#sending = false;
      this.#answerError = error;
      this.render();
    };
    void this.deps.send({ type: 'task:answer', tabId, answer: text }).then(
      (reply) => done(reply.ok ? undefined : (reply.error ?? 'Could not send the answer.')),
      (error: unknown) => done(message(error)),
    );
  }

  /** Approve or reject the step on the card; the worker runs it (or not) and goes on. */
  private decide(
    request:
      | { type: 'task:approve'; actions: string[] | undefined }
      | { type: 'task:reject'; note: string | undefined },
  ): void {
    const tabId = this.#tabId;
    if (tabId === null || this.#deciding) return;
    this.#deciding = true;
    this.#approvalError = undefined;
    this.render();
    const done = (error?: string) => {
      this.#deciding = false;
      this.#approvalError = error;
      this.render();
    };
    const decision: WorkerRequest =
      request.type === 'task:approve'
        ? { type: 'task:approve', tabId, ...(request.actions ? { actions: request.actions } : {}) }
        : { type: 'task:reject', tabId, ...(request.note ? { note: request.note } : {}) };
    void this.deps.send(decision).then(
      (reply) => done(reply.ok ? undefined : (reply.error ?? 'Could not send your decision.')),
      (error: unknown) => done(message(error)),
    );
  }

  private download(): void {
    const taskId = this.#run?.taskId;
    if (taskId) this.save((api) => api.collectedCsv(taskId), `tandem-${taskId}-collected.csv`);
  }

  private downloadExtraction(extractionId: string, format: ExtractionFormat): void {
    const taskId = this.#run?.taskId;
    if (!taskId) return;
    this.save(
      (api) => api.extractionFile(taskId, extractionId, format),
      `tandem-${taskId}-extraction-${extractionId}.${format}`,
    );
  }

  /** Fetches a file from the server and saves it; what went wrong shows as the notice. */
  private save(file: (api: ApiClient) => Promise<Blob>, name: string): void {
    const api = this.deps.api;
    this.#notice = api ? undefined : 'Set the server URL and API key in Settings first.';
    this.render();
    if (!api) return;
    void file(api)
      .then((blob) => saveBlob(blob, name))
      .catch((error: unknown) => {
        this.#notice = message(error) || 'The download failed.';
        this.render();
      });
  }

  /** Follows the running task's server-sent events for live collect counts. */
  private follow(): void {
    const taskId = this.#run?.status === 'running' ? this.#run.taskId : undefined;
    if (this.#following && this.#following.taskId !== taskId) {
      this.#following.abort.abort();
      this.#following = undefined;
    }
    const api = this.deps.api;
    if (!taskId || this.#following || !api) return;
    const abort = new AbortController();
    this.#following = { taskId, abort };
    this.#liveCounts = {};
    const onEvent = (event: TaskEvent) => {
      if (event.event !== 'collected') return;
      this.#liveCounts[event.type] = Math.max(this.#liveCounts[event.type] ?? 0, event.count);
      this.render();
    };
    // The stored count still updates after every step; live updates are a bonus.
    void api.followEvents(taskId, onEvent, abort.signal).catch(() => undefined);
  }
}

export function mountLiveView(
  root: HTMLElement,
  deps: LiveViewDeps,
  options: LiveViewOptions,
): LiveViewController {
  return new LiveViewSession(root, deps, options);
}
