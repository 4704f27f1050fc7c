// Page learning with the real task loop, end to end short of Chrome: a scripted tab whose page
// changes as actions run (a menu opens, a link navigates), the loop's interact requests
// answered by the scripted API (loop-fakes.ts), and the page content sent by the real API
// client to an HTTP server on loopback that records every POST /api/knowledge/page-content.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  endpoints,
  KNOWLEDGE_LIMITS,
  PageContentRequest,
  type PageSnapshot,
  type SnapshotRequest,
} from '@tandem/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../shared/api-client';
import { memoryStore } from '../shared/memory-store';
import type { SettleReply } from '../shared/messages';
import { setSiteLearning } from '../shared/settings';
import {
  click,
  finished,
  recordingTabs,
  scriptedApi,
  step,
  TASK,
  type Scripted,
} from './loop-fakes';
import { LEARN_CAPTURE, PageLearning } from './page-learning';
import { runTaskLoop, startRun } from './task-loop';

const KEY = 'k-learn';
const HOME = 'https://app.example/patients';
const DETAIL = 'https://app.example/patients/7';

/** The page the scripted tab shows: its URL, what is visible, and what is hidden in it. */
interface PageModel {
  url: string;
  visible: string;
  hidden: string;
  title: string;
}

/** What each action does to the page (by the server's action string). */
type Effects = Record<string, (page: PageModel) => void>;

/** recordingTabs whose capture, snapshot and settle follow a page the actions change. */
function scriptedPage(
  effects: Effects,
  start: Partial<PageModel> = {},
  captureDelayMs: (read: number) => number = () => 0,
) {
  const page: PageModel = {
    url: HOME,
    visible: '<h1>Patients</h1><button>Menu</button>',
    hidden: '<p hidden>Help: call 555</p>',
    title: 'Patients',
    ...start,
  };
  const learnReads: SnapshotRequest[] = [];
  let before = '';
  const tabs = recordingTabs({
    onExecute: async (action) => {
      before = JSON.stringify(page);
      effects[action]?.(page);
    },
    settle: async (): Promise<SettleReply> => ({
      observations: {
        didDomMutate: JSON.stringify(page) !== before,
        didNetworkOccur: false,
        didUrlChange: false,
      },
      stable: true,
      waitedMs: 10,
      url: page.url,
      fresh: false,
    }),
  });
  tabs.capture = async (_tabId, mode) => ({
    url: page.url,
    domMode: mode,
    pageTitle: page.title,
    interactiveTree: [{ i: '1', r: 'btn', n: 'Menu' }],
  });
  tabs.snapshot = async (_tabId, request): Promise<PageSnapshot> => {
    learnReads.push(request);
    const delay = captureDelayMs(learnReads.length);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const hidden = request.includeHidden ? page.hidden : '';
    return { mode: request.mode, text: `<!-- source: ${page.url} -->\n${page.visible}${hidden}` };
  };
  return { page, tabs, learnReads };
}

describe('page learning in the task loop', () => {
  let server: Server;
  let serverUrl: string;
  const posts: { path: string; authorization?: string; body: PageContentRequest }[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: {} };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        posts.push({
          path: `${req.method ?? ''} ${req.url ?? ''}`,
          ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
          body: PageContentRequest.parse(JSON.parse(raw)),
        });
        res
          .writeHead(answer.status, { 'content-type': 'application/json' })
          .end(JSON.stringify(answer.body));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  beforeEach(() => {
    posts.length = 0;
    answer = {
      status: 200,
      body: { documentId: 'doc-1', added: 2, duplicates: 0, superseded: 1 },
    };
  });

  /** Runs one task in tab 5 and waits for its page content to have been sent. */
  async function runTask(options: {
    responses: Scripted[];
    effects?: Effects;
    allow?: string[];
    start?: Partial<PageModel>;
    maxRequests?: number;
    captureDelayMs?: (read: number) => number;
  }) {
    const storage = memoryStore();
    for (const site of options.allow ?? []) await setSiteLearning(storage, site, true);
    const scripted = scriptedPage(options.effects ?? {}, options.start, options.captureDelayMs);
    const logs: string[] = [];
    const learning = new PageLearning({
      storage,
      tabs: scripted.tabs,
      api: async () => createApiClient({ serverUrl, apiKey: KEY }),
      log: (message, error) => logs.push(error ? `${message}: ${String(error)}` : message),
    });
    const api = scriptedApi(options.responses);
    await startRun(storage, 5, 'export the records');
    const deps = { tabs: scripted.tabs, storage, api: async () => api, learning };
    const run = await runTaskLoop(
      { ...deps, ...(options.maxRequests ? { maxRequests: options.maxRequests } : {}) },
      5,
    );
    await learning.idle();
    return { run, logs, learning, deps, ...scripted };
  }

  // The app renders its menu only when it opens: content no capture could have had before.
  const MENU = '<ul><li>Export all records</li></ul>';
  const openMenu: Effects = { 'click("1")': (page) => (page.visible += MENU) };

  it('sends nothing, and reads nothing for it, from a site the user did not allow', async () => {
    const { run, learnReads } = await runTask({
      responses: [step(click('1')), step(finished('done'))],
      effects: openMenu,
      allow: ['other.example'],
    });
    expect(run?.status).toBe('completed');
    expect(learnReads).toEqual([]);
    expect(posts).toEqual([]);
  });

  it('sends the page once as initial (hidden kept), then what a click revealed as post-interaction', async () => {
    const { run, learnReads, logs } = await runTask({
      responses: [step(click('1')), step(finished('done'))],
      effects: openMenu,
      allow: ['app.example'],
    });
    expect(run?.status).toBe('completed');
    expect(learnReads).toEqual([LEARN_CAPTURE.initial, LEARN_CAPTURE['post-interaction']]);
    const path = `${endpoints.knowledgePageContent.method} ${endpoints.knowledgePageContent.path}`;
    expect(posts.map((p) => [p.path, p.authorization])).toEqual([
      [path, `Bearer ${KEY}`],
      [path, `Bearer ${KEY}`],
    ]);
    // The first request had no taskId yet: the initial content waits for the server's answer.
    expect(posts[0]?.body).toEqual({
      url: HOME,
      title: 'Patients',
      html: `<!-- source: ${HOME} -->\n<h1>Patients</h1><button>Menu</button><p hidden>Help: call 555</p>`,
      phase: 'initial',
      taskId: TASK,
    });
    expect(posts[1]?.body).toEqual({
      url: HOME,
      title: 'Patients',
      html: `<!-- source: ${HOME} -->\n<h1>Patients</h1><button>Menu</button>${MENU}`,
      phase: 'post-interaction',
      triggerAction: 'click("1")',
      taskId: TASK,
    });
    expect(logs).toEqual([
      `page content of ${HOME} (initial) sent: 2 chunks added, 0 duplicates, 1 superseded`,
      `page content of ${HOME} (post-interaction) sent: 2 chunks added, 0 duplicates, 1 superseded`,
    ]);
  });

  it('sends no post-interaction content after an action that changed nothing, or nothing new', async () => {
    const { learnReads, logs } = await runTask({
      responses: [
        step(click('9')), // changes nothing: no capture at all
        step(click('1')), // opens the menu: sent
        step(click('2')), // re-renders the same text: captured, unchanged, skipped
        step(finished('done')),
      ],
      effects: { ...openMenu, 'click("2")': (page) => (page.title = 'Patients (1)') },
      allow: ['app.example'],
    });
    expect(learnReads).toEqual([
      LEARN_CAPTURE.initial,
      LEARN_CAPTURE['post-interaction'],
      LEARN_CAPTURE['post-interaction'],
    ]);
    expect(posts.map((p) => [p.body.phase, p.body.triggerAction])).toEqual([
      ['initial', undefined],
      ['post-interaction', 'click("1")'],
    ]);
    expect(logs).toContain(
      `page content of ${HOME} (post-interaction) not sent: unchanged since the last send`,
    );
  });

  it('decides and sends in the order of the actions, even when an earlier capture is slower', async () => {
    const { learnReads, logs } = await runTask({
      responses: [step(click('1')), step(click('2')), step(finished('done'))],
      effects: { ...openMenu, 'click("2")': (page) => (page.title = 'Patients (1)') },
      allow: ['app.example'],
      // The menu's capture (read 2) lands after the next action's (read 3) was taken.
      captureDelayMs: (read) => (read === 2 ? 80 : 0),
    });
    expect(learnReads).toHaveLength(3);
    expect(posts.map((p) => [p.body.phase, p.body.triggerAction])).toEqual([
      ['initial', undefined],
      ['post-interaction', 'click("1")'],
    ]);
    expect(logs.at(-1)).toBe(
      `page content of ${HOME} (post-interaction) not sent: unchanged since the last send`,
    );
  });

  it('treats a page an action navigated to as new: initial content, once per URL per run', async () => {
    const { learnReads } = await runTask({
      responses: [
        step(click('3')), // navigates to the detail page
        step({ needs_snapshot: { mode: 'outline' } }), // the same page again: no second initial
        step(click('4')), // back to the list, already sent
        step(finished('done')),
      ],
      effects: {
        'click("3")': (page) => Object.assign(page, { url: DETAIL, visible: '<h1>Jas</h1>' }),
        'click("4")': (page) => Object.assign(page, { url: HOME, visible: '<h1>Patients</h1>' }),
      },
      allow: ['app.example'],
    });
    const learned = learnReads.filter((r) => r.format === 'html');
    expect(learned).toEqual([LEARN_CAPTURE.initial, LEARN_CAPTURE.initial]);
    expect(posts.map((p) => [p.body.url, p.body.phase])).toEqual([
      [HOME, 'initial'],
      [DETAIL, 'initial'],
    ]);
  });

  it('starts over with a new run in the same tab', async () => {
    const first = await runTask({ responses: [step(finished('a'))], allow: ['app.example'] });
    expect(posts).toHaveLength(1);
    await startRun(first.deps.storage, 5, 'again');
    first.deps.api = async () => scriptedApi([step(finished('b'))]);
    await runTaskLoop(first.deps, 5);
    await first.learning.idle();
    expect(posts.map((p) => p.body.phase)).toEqual(['initial', 'initial']);
  });

  it('logs a refused send and goes on with the task; the same content may go again later', async () => {
    answer = {
      status: 413,
      body: { error: { code: 'PAYLOAD_TOO_LARGE', message: 'Page content too large.' } },
    };
    const { run, logs } = await runTask({
      responses: [step(click('1')), step(finished('done'))],
      effects: openMenu,
      allow: ['app.example'],
    });
    expect(run?.status).toBe('completed');
    expect(run?.error).toBeUndefined();
    expect(posts.map((p) => p.body.phase)).toEqual(['initial', 'post-interaction']);
    expect(logs).toEqual([
      `page content of ${HOME} not sent: ApiError: Page content too large.`,
      `page content of ${HOME} not sent: ApiError: Page content too large.`,
    ]);
  });

  it("skips, with a log, content over the contract's limit", async () => {
    const big = `<p>${'x'.repeat(KNOWLEDGE_LIMITS.pageContentBytes)}</p>`;
    const { run, logs } = await runTask({
      responses: [step(finished('done'))],
      allow: ['app.example'],
      start: { visible: big },
    });
    expect(run?.status).toBe('completed');
    expect(posts).toEqual([]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/\(initial\) not sent: \d+ bytes, over the 5242880-byte limit/);
  });

  it('never holds the task up: the loop ends while a page content is still on its way', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const storage = memoryStore();
    await setSiteLearning(storage, 'app.example', true);
    const { tabs } = scriptedPage({});
    const learning = new PageLearning({
      storage,
      tabs,
      api: async () => ({
        pageContent: async () => {
          await held;
          return { documentId: 'd', added: 1, duplicates: 0, superseded: 0 };
        },
      }),
      log: () => undefined,
    });
    await startRun(storage, 5, 'quick');
    const api = scriptedApi([step(finished('done'))]);
    const run = await runTaskLoop({ tabs, storage, api: async () => api, learning }, 5);
    expect(run?.status).toBe('completed');
    let settled = false;
    const idle = learning.idle().then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    release();
    await idle;
    expect(settled).toBe(true);
  });
});
