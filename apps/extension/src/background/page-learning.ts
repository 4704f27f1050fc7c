// Two-phase SPA ingestion (docs/specs.md, "two-phase SPA ingestion") on the extension's side: while
// a task runs on a site the user allowed (settings.ts, "Learn from pages"), the page's content goes
// to the server as the tenant's knowledge. Phase `initial` once per page URL per run, when the task
// first sees the page, captured with hidden content kept (an SPA shows it later); phase
// `post-interaction` after an executed action changed the page without leaving it, captured as
// shown, with the server's action string as its trigger. None of it may slow or break the task:
// the loop hands the page over and goes on, the snapshot, hash and POST run beside it, and
// every failure is logged, never reported as the task's.
import { KNOWLEDGE_LIMITS, type PageContentRequest, type SnapshotRequest } from '@tandem/contracts';
import type { ApiClient } from '../shared/api-client';
import { mayLearnFrom, type KeyValueStore } from '../shared/settings';
import type { TabDriver } from './tab-driver';

export type LearnPhase = PageContentRequest['phase'];

/**
 * The content snapshot (docs/specs.md, "page snapshots") each phase sends: the cleaned HTML of the
 * whole page.
 */
export const LEARN_CAPTURE: Readonly<Record<LearnPhase, SnapshotRequest>> = {
  initial: { mode: 'content', format: 'html', includeHidden: true },
  'post-interaction': { mode: 'content', format: 'html' },
};

const URL_MAX = 2048;
const TITLE_MAX = 300;

export type LearnLog = (message: string, error?: unknown) => void;

export interface PageLearningDeps {
  storage: KeyValueStore;
  tabs: Pick<TabDriver, 'snapshot'>;
  api: () => Promise<Pick<ApiClient, 'pageContent'>>;
  /** Where sends, skips and failures are told; the worker's console by default. */
  log?: LearnLog;
}

/** A page as the loop sees it. `runId` tells one run in the tab from the next. */
export interface SeenPage {
  tabId: number;
  runId: string;
  url: string;
  title?: string | undefined;
  taskId?: string | undefined;
}

/** What one run remembers of the pages it sent. */
export interface RunMemory {
  runId: string;
  /** URLs whose initial content was taken (or is being taken). */
  initial: Set<string>;
  /** The hash of the content last sent, per URL. */
  sent: Map<string, string>;
  titles: Map<string, string>;
  /**
   * The run's last send job. Captures are taken at once (the page as the action left it), but
   * each job decides and sends only after the one before it: the hash digest runs off the
   * thread, so without a queue a later capture could overtake an earlier one and the earlier
   * change would be skipped as "unchanged".
   */
  last: Promise<void>;
}

export const newRunMemory = (runId: string): RunMemory => ({
  runId,
  initial: new Set(),
  sent: new Map(),
  titles: new Map(),
  last: Promise.resolve(),
});

/**
 * The phase to send for a page: `initial` the first time the run shows the URL (even when an
 * action brought it), `post-interaction` for a page seen before that an action changed, else
 * nothing.
 */
export function learnPhase(
  memory: RunMemory,
  url: string,
  triggerAction?: string,
): LearnPhase | null {
  if (!memory.initial.has(url)) return 'initial';
  return triggerAction ? 'post-interaction' : null;
}

/** Why a captured content is not sent, or null to send it. */
export function skipReason(
  memory: RunMemory,
  url: string,
  content: { hash: string; bytes: number },
): string | null {
  if (memory.sent.get(url) === content.hash) return 'unchanged since the last send';
  if (content.bytes > KNOWLEDGE_LIMITS.pageContentBytes)
    return `${content.bytes} bytes, over the ${KNOWLEDGE_LIMITS.pageContentBytes}-byte limit`;
  return null;
}

/** SHA-256 of the text, hex. */
export async function contentHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).byteLength;

/**
 * The taskId an initial send carries, given once the loop knows it: the first request of a
 * task has none until the server answered. The loop always calls `ready`, at the latest when
 * its turn ends; `ready()` without an id keeps the page's own (or none).
 */
export interface LearnTicket {
  ready(taskId?: string): void;
}

const consoleLog: LearnLog = (message, error) => {
  if (error === undefined) console.info(`[tandem] ${message}`);
  else console.warn(`[tandem] ${message}`, error);
};

export class PageLearning {
  private readonly runs = new Map<number, RunMemory>();
  private readonly jobs = new Set<Promise<void>>();
  private readonly log: LearnLog;

  constructor(private readonly deps: PageLearningDeps) {
    this.log = deps.log ?? consoleLog;
  }

  /** The loop captured the page: its initial content, once per URL per run. */
  pageSeen(page: SeenPage): LearnTicket {
    let resolve: (taskId: string | undefined) => void = () => undefined;
    const taskId = new Promise<string | undefined>((r) => (resolve = r));
    this.start(page, undefined, taskId);
    return { ready: (id) => resolve(id ?? page.taskId) };
  }

  /** An executed action changed the page without leaving it (a menu, dialog or tab opened). */
  pageChanged(page: SeenPage & { taskId: string; triggerAction: string }): void {
    this.start(page, page.triggerAction, Promise.resolve(page.taskId));
  }

  /** Forgets a closed tab's run. */
  forget(tabId: number): void {
    this.runs.delete(tabId);
  }

  /** Settles once every send started so far has (tests, and nothing else waits for one). */
  async idle(): Promise<void> {
    while (this.jobs.size > 0) await Promise.allSettled([...this.jobs]);
  }

  private start(page: SeenPage, trigger: string | undefined, taskId: Promise<string | undefined>) {
    const memory = this.memory(page.tabId, page.runId);
    const previous = memory.last;
    const job: Promise<void> = this.learn(page, memory, trigger, taskId, previous)
      .catch((error: unknown) => this.log(`page content of ${page.url} not sent`, error))
      .finally(() => this.jobs.delete(job));
    // A job that ends early (nothing to send) did not wait: the next waits for both.
    memory.last = Promise.all([previous, job]).then(() => undefined);
    this.jobs.add(job);
  }

  private memory(tabId: number, runId: string): RunMemory {
    const known = this.runs.get(tabId);
    if (known?.runId === runId) return known;
    const fresh = newRunMemory(runId);
    this.runs.set(tabId, fresh);
    return fresh;
  }

  private async learn(
    page: SeenPage,
    memory: RunMemory,
    trigger: string | undefined,
    taskId: Promise<string | undefined>,
    previous: Promise<void>,
  ): Promise<void> {
    const { url, tabId } = page;
    // No consent, no capture: nothing of a site off the list leaves the tab.
    if (url.length > URL_MAX || !(await mayLearnFrom(this.deps.storage, url))) return;
    const phase = learnPhase(memory, url, trigger);
    if (!phase) return;
    if (phase === 'initial') memory.initial.add(url);
    if (page.title?.trim()) memory.titles.set(url, page.title.trim().slice(0, TITLE_MAX));
    let html: string;
    try {
      html = await this.capture(tabId, phase);
    } catch (error) {
      // The next sight of the page may take it instead.
      if (phase === 'initial') memory.initial.delete(url);
      throw error;
    }
    const title = memory.titles.get(url);
    const body: PageContentRequest = {
      url,
      ...(title ? { title } : {}),
      html,
      phase,
      ...(phase === 'post-interaction' && trigger ? { triggerAction: trigger.slice(0, 200) } : {}),
    };
    await previous;
    const id = await taskId;
    if (id) body.taskId = id;
    const hash = await contentHash(html);
    const reason = skipReason(memory, url, { hash, bytes: utf8Bytes(JSON.stringify(body)) });
    if (reason) return this.log(`page content of ${url} (${phase}) not sent: ${reason}`);
    memory.sent.set(url, hash);
    await this.send(body, memory, hash);
  }

  private async capture(tabId: number, phase: LearnPhase): Promise<string> {
    const snapshot = await this.deps.tabs.snapshot(tabId, LEARN_CAPTURE[phase]);
    if (snapshot.error) throw new Error(snapshot.error);
    if (!snapshot.text.trim()) throw new Error('the page has no content');
    return snapshot.text;
  }

  private async send(body: PageContentRequest, memory: RunMemory, hash: string): Promise<void> {
    try {
      const api = await this.deps.api();
      const res = await api.pageContent(body);
      this.log(
        `page content of ${body.url} (${body.phase}) sent: ${res.added} chunks added, ` +
          `${res.duplicates} duplicates, ${res.superseded} superseded`,
      );
    } catch (error) {
      // Not sent after all: the same content may go with a later sight of the page.
      if (memory.sent.get(body.url) === hash) memory.sent.delete(body.url);
      throw error;
    }
  }
}
