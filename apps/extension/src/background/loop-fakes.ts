// Typed scripted parts for the loop's tests: an API client that answers with contract-valid
// responses (validated with the real schemas), a TabDriver that records what it was asked,
// and a clock whose waits return at once. Test code only; the worker never imports it.
import {
  InteractResponse,
  type InteractRequestInput,
  type SnapshotRequest,
  type Viewport,
} from '@tandem/contracts';
import type { ApiClient } from '../shared/api-client';
import type { ExecuteReply, SettleReply, TargetFactsReply } from '../shared/messages';
import { RunStopped, type Timing } from './run-control';
import type { ExecuteLimits, TabDriver } from './tab-driver';

export const TASK = '11111111-1111-4111-8111-111111111111';
export const SESSION = '22222222-2222-4222-8222-222222222222';
export const URL = 'https://a.example/';

/** One scripted answer: a response, an error to throw, or a function of the request. */
export type Scripted =
  unknown | Error | ((body: InteractRequestInput, signal?: AbortSignal) => Promise<unknown>);

/** A promise that never settles by itself: rejects once `signal` aborts, as fetch does. */
export function untilAborted(signal?: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener('abort', () => reject(new RunStopped()), { once: true });
  });
}

export interface ScriptedApi extends ApiClient {
  requests: InteractRequestInput[];
  cancelled: string[];
}

export function scriptedApi(responses: Scripted[]): ScriptedApi {
  const requests: InteractRequestInput[] = [];
  const cancelled: string[] = [];
  return {
    requests,
    cancelled,
    async interact(body, signal) {
      requests.push(structuredClone(body));
      const next = responses.shift();
      if (next instanceof Error) throw next;
      if (typeof next === 'function') return InteractResponse.parse(await next(body, signal));
      if (!next) throw new Error('no scripted response left');
      return InteractResponse.parse(next);
    },
    activeTask: async () => null,
    cancel: async (taskId) => {
      cancelled.push(taskId);
      return { taskId, status: 'cancelled' };
    },
    collectedCsv: async () => {
      throw new Error('the loop never downloads');
    },
    extractionFile: async () => {
      throw new Error('the loop never downloads');
    },
    followEvents: async () => {
      throw new Error('the loop never follows events');
    },
    pageContent: async () => {
      throw new Error('page content goes through PageLearning, not the loop');
    },
    routineOffers: async () => {
      throw new Error('only the popup asks for routines');
    },
    whoami: async () => ({
      tenantId: 't',
      tenantName: 'T',
      userId: 'u',
      role: 'user',
      store: 'libsql',
    }),
  };
}

export interface RecordingTabs extends TabDriver {
  executed: string[];
  captures: string[];
  snapshots: string[];
  settles: number;
  /** The viewport each screenshot was asked to be scaled to. */
  screenshots: (Viewport | undefined)[];
  /** The limits each executed action was handed with, in order. */
  limits: (ExecuteLimits | undefined)[];
  /** Times the tab went back. */
  backs: number;
}

export interface TabScript {
  /** Actions that fail, with their error. */
  fail?: Record<string, string>;
  /** Runs while the tab executes `action` (e.g. the user presses Stop). */
  onExecute?: (action: string) => Promise<void>;
  /** Replaces the stability wait. */
  settle?: () => Promise<SettleReply>;
  /** What screenshots return (base64, or null when one cannot be taken). Default a tiny JPEG. */
  screenshot?: string | null;
  /** What inspect says of the targets. Default nothing. */
  facts?: TargetFactsReply;
  /**
   * A page script that sends the tab here once an action ran (a redirect the site guard
   * blocks): the tab shows it until it goes back.
   */
  escapeTo?: string;
}

export const SHOT = '/9j/4AAQSkZJRg==';
export const VIEWPORT: Viewport = { width: 1280, height: 800 };

export const settledPage: SettleReply = {
  observations: { didDomMutate: true, didNetworkOccur: false, didUrlChange: false },
  stable: true,
  waitedMs: 500,
  url: URL,
  fresh: false,
};

export function recordingTabs(script: TabScript = {}): RecordingTabs {
  const tabs: RecordingTabs = {
    executed: [],
    captures: [],
    snapshots: [],
    settles: 0,
    screenshots: [],
    limits: [],
    backs: 0,
    async snapshot(_tabId, request: SnapshotRequest) {
      tabs.snapshots.push(JSON.stringify(request));
      return { mode: request.mode, text: `PAGE: A\nOUTLINE:\nmain "A" main` };
    },
    async capture(_tabId, mode) {
      tabs.captures.push(mode);
      if (mode === 'full') return { url: URL, domMode: 'full', dom: '<html></html>' };
      // Hybrid: a canvas page's capture, whose tree is empty.
      if (mode === 'hybrid')
        return { url: URL, domMode: 'hybrid', interactiveTree: [], viewport: VIEWPORT };
      return { url: URL, domMode: 'semantic_v3', interactiveTree: [{ i: '1', r: 'inp', n: 'A' }] };
    },
    async screenshot(_tabId, viewport) {
      tabs.screenshots.push(viewport);
      return script.screenshot === undefined ? SHOT : script.screenshot;
    },
    async execute(_tabId, action, _observe, limits): Promise<ExecuteReply> {
      tabs.executed.push(action);
      tabs.limits.push(limits);
      await script.onExecute?.(action);
      const error = script.fail?.[action];
      return error ? { ok: false, action, error, code: 'disabled' } : { ok: true, action };
    },
    async settle() {
      tabs.settles += 1;
      return script.settle ? script.settle() : settledPage;
    },
    async inspect(_tabId, ids) {
      return Object.fromEntries(
        ids.flatMap((id) => (script.facts?.[id] ? [[id, script.facts[id]]] : [])),
      );
    },
    async currentUrl() {
      return script.escapeTo && tabs.executed.length > 0 && tabs.backs === 0
        ? script.escapeTo
        : URL;
    },
    async goBack() {
      tabs.backs += 1;
    },
  };
  return tabs;
}

export interface FakeTiming extends Timing {
  /** Every wait asked for, in ms. */
  slept: number[];
}

/** A clock that moves only when the loop waits, and waits that return at once. */
export function fakeTiming(start = 1_000_000, random = 0.5): FakeTiming {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    random: () => random,
    async sleep(ms, signal) {
      if (signal?.aborted) throw new RunStopped();
      slept.push(ms);
      now += ms;
    },
  };
}

/** Keys key-1, key-2 … in the order the loop asks for them. */
export function countingKeys(): () => string {
  let n = 0;
  return () => `key-${++n}`;
}

/** A step answer, checked by the contract when the scripted API returns it. */
export const step = (extra: Record<string, unknown>) => ({
  thought: 't',
  taskId: TASK,
  sessionId: SESSION,
  stepIndex: 0,
  status: 'executing',
  ...extra,
});

export const click = (id: string) => ({
  action: `click("${id}")`,
  actionDetails: { name: 'click', args: { id } },
});

export const finished = (result: string) => ({
  action: `finish("${result}")`,
  actionDetails: { name: 'finish', args: { message: result } },
  status: 'completed',
  result,
});
