// The loop with its browser boundary replaced by typed scripted parts: an in-memory
// chrome.storage, a TabDriver that records what it was asked, and an API client that answers
// with contract-valid responses (validated with the real schemas).
import { InteractResponse, type InteractRequestInput } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../shared/api-client';
import { ApiError } from '../shared/api-client';
import { isFromExtensionPage, isFromServiceWorker } from '../shared/messages';
import { getTaskForTab, loadRun, persistTask, TASK_TTL_MS } from '../shared/run-state';
import { memoryStore } from '../shared/memory-store';
import { runTaskLoop, startRun, type TabDriver } from './task-loop';

const memoryStorage = memoryStore;

const TASK = '11111111-1111-4111-8111-111111111111';
const SESSION = '22222222-2222-4222-8222-222222222222';

function scriptedApi(responses: unknown[]): ApiClient & { requests: InteractRequestInput[] } {
  const requests: InteractRequestInput[] = [];
  return {
    requests,
    async interact(body) {
      requests.push(structuredClone(body));
      const next = responses.shift();
      if (next instanceof Error) throw next;
      if (!next) throw new Error('no scripted response left');
      return InteractResponse.parse(next);
    },
    activeTask: async () => null,
    cancel: async (taskId) => ({ taskId, status: 'cancelled' }),
    collectedCsv: async () => {
      throw new Error('the loop never downloads');
    },
    followEvents: async () => {
      throw new Error('the loop never follows events');
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

function recordingTabs(
  fail: Record<string, string> = {},
): TabDriver & { executed: string[]; captures: string[]; snapshots: string[] } {
  const executed: string[] = [];
  const captures: string[] = [];
  const snapshots: string[] = [];
  return {
    executed,
    captures,
    snapshots,
    async snapshot(_tabId, request) {
      snapshots.push(JSON.stringify(request));
      return { mode: request.mode, text: `PAGE: A\nOUTLINE:\nmain "A" main` };
    },
    async capture(_tabId, mode) {
      captures.push(mode);
      return mode === 'full'
        ? { url: 'https://a.example/', domMode: 'full', dom: '<html></html>' }
        : {
            url: 'https://a.example/',
            domMode: 'semantic_v3',
            interactiveTree: [{ i: '1', r: 'inp', n: 'A' }],
          };
    },
    async execute(_tabId, action) {
      executed.push(action);
      return fail[action]
        ? { ok: false, action, error: fail[action], code: 'disabled' }
        : { ok: true, action };
    },
    async settle() {
      return {
        observations: { didDomMutate: true, didNetworkOccur: false, didUrlChange: false },
        stable: true,
        waitedMs: 500,
        url: 'https://a.example/',
        fresh: false,
      };
    },
  };
}

const step = (extra: Record<string, unknown>) => ({
  thought: 't',
  taskId: TASK,
  sessionId: SESSION,
  stepIndex: 0,
  status: 'executing',
  ...extra,
});
const chain = ['setValue("1", "a")', 'setValue("2", "b")', 'setValue("3", "c")'];

describe('runTaskLoop', () => {
  it('answers needs_snapshot with a snapshot on the next request and executes nothing', async () => {
    const storage = memoryStorage();
    const api = scriptedApi([
      step({ needs_snapshot: { mode: 'outline' }, collected: { job: 2 } }),
      step({
        action: 'finish("read")',
        actionDetails: { name: 'finish', args: { message: 'read' } },
        status: 'completed',
        result: 'read',
        collected: { job: 3 },
      }),
    ]);
    const tabs = recordingTabs();
    await startRun(storage, 9, 'summarise the page');
    const run = await runTaskLoop({ tabs, storage, api: async () => api }, 9);
    expect(run?.status).toBe('completed');
    expect(tabs.executed).toEqual([]);
    expect(tabs.snapshots).toEqual([JSON.stringify({ mode: 'outline' })]);
    expect(api.requests[0]?.snapshot).toBeUndefined();
    expect(api.requests[1]).toMatchObject({
      taskId: TASK,
      snapshot: { mode: 'outline', text: 'PAGE: A\nOUTLINE:\nmain "A" main' },
    });
    // Nothing ran, so there is nothing to report about an action.
    expect(api.requests[1]?.lastActionStatus).toBeUndefined();
    expect(run?.collected).toEqual({ job: 3 });
  });

  it('sends the goal first, then the taskId with clientObservations; persists task_${tabId}', async () => {
    const storage = memoryStorage();
    const api = scriptedApi([
      step({ action: 'click("1")', actionDetails: { name: 'click', args: { id: '1' } } }),
      step({
        action: 'finish("done")',
        actionDetails: { name: 'finish', args: { message: 'done' } },
        status: 'completed',
        result: 'done',
      }),
    ]);
    const tabs = recordingTabs();
    await startRun(storage, 7, 'click A');
    const run = await runTaskLoop({ tabs, storage, api: async () => api }, 7);
    expect(run?.status).toBe('completed');
    expect(run?.result).toBe('done');
    expect(api.requests[0]).toMatchObject({ query: 'click A', url: 'https://a.example/' });
    expect(api.requests[0]?.taskId).toBeUndefined();
    expect(api.requests[1]).toMatchObject({
      taskId: TASK,
      sessionId: SESSION,
      lastActionStatus: 'success',
      clientObservations: { didDomMutate: true },
    });
    expect(tabs.executed).toEqual(['click("1")']);
    // A finished task forgets the tab's taskId.
    expect(await getTaskForTab(storage, 7)).toBeNull();
  });

  it('runs a chain in order, stops at the first failure and reports lastExecutedActionIndex', async () => {
    const storage = memoryStorage();
    const api = scriptedApi([
      step({
        action: chain[0],
        actionDetails: { name: 'setValue', args: { id: '1', text: 'a' } },
        actions: chain.map((action, index) => ({ action, description: 'f', index })),
        chainMetadata: { totalActions: 3, safeToChain: true },
      }),
      new ApiError(500, 'INTERNAL_ERROR', 'stop here'),
    ]);
    const tabs = recordingTabs({ [chain[1] ?? '']: 'element is disabled' });
    await startRun(storage, 3, 'fill');
    const run = await runTaskLoop({ tabs, storage, api: async () => api }, 3);
    expect(tabs.executed).toEqual(chain.slice(0, 2));
    expect(api.requests[1]).toMatchObject({
      lastActionStatus: 'failure',
      lastExecutedActionIndex: 0,
      chainPartialState: { executedActions: [chain[0]], totalActionsInChain: 3 },
      chainActionError: { action: chain[1], index: 1 },
    });
    expect(run?.status).toBe('error');
    expect(run?.error).toBe('stop here');
  });

  it('sends the full DOM only when the server asks, and executes nothing for that response', async () => {
    const storage = memoryStorage();
    const api = scriptedApi([
      step({ needs_full_dom: true }),
      step({
        action: 'fail("nope")',
        actionDetails: { name: 'fail', args: { reason: 'nope' } },
        status: 'failed',
      }),
    ]);
    const tabs = recordingTabs();
    await startRun(storage, 4, 'read');
    await runTaskLoop({ tabs, storage, api: async () => api }, 4);
    expect(tabs.captures).toEqual(['semantic_v3', 'full']);
    expect(api.requests[1]).toMatchObject({ domMode: 'full', dom: '<html></html>', taskId: TASK });
    expect(tabs.executed).toEqual([]);
  });

  it('stops with the question when the agent needs input', async () => {
    const storage = memoryStorage();
    const api = scriptedApi([
      {
        needsUserInput: true,
        message: 'Which date of birth?',
        missingInformation: ['dob'],
        sessionId: SESSION,
        taskId: null,
      },
    ]);
    await startRun(storage, 5, 'add patient');
    const run = await runTaskLoop({ tabs: recordingTabs(), storage, api: async () => api }, 5);
    expect(run).toMatchObject({ status: 'needs_input', question: 'Which date of birth?' });
  });

  it('resumes a run after a restart from storage without executing anything twice', async () => {
    const storage = memoryStorage();
    await startRun(storage, 9, 'click A');
    await persistTask(storage, 9, { taskId: TASK, sessionId: SESSION, url: 'https://a.example/' });
    const before = await loadRun(storage, 9);
    // The worker died after sending click("1") to the tab but before reporting it.
    await storage.set({
      run_9: {
        ...before,
        taskId: TASK,
        sessionId: SESSION,
        steps: [{ index: 0, thought: 't', action: 'click("1")', status: 'executing', at: 1 }],
        inFlight: ['click("1")'],
      },
    });
    const api = scriptedApi([
      step({
        action: 'finish()',
        actionDetails: { name: 'finish', args: {} },
        status: 'completed',
      }),
    ]);
    const tabs = recordingTabs();
    const run = await runTaskLoop({ tabs, storage, api: async () => api }, 9);
    expect(run?.status).toBe('completed');
    expect(tabs.executed).toEqual([]);
    expect(api.requests[0]).toMatchObject({ taskId: TASK, sessionId: SESSION });
    expect(api.requests[0]?.query).toBeUndefined();
  });

  it('a stored taskId expires after 30 minutes', async () => {
    const storage = memoryStorage();
    await persistTask(storage, 1, { taskId: TASK, sessionId: SESSION, url: 'u' }, 1_000);
    expect((await getTaskForTab(storage, 1, 1_000 + TASK_TTL_MS - 1))?.taskId).toBe(TASK);
    expect(await getTaskForTab(storage, 1, 1_000 + TASK_TTL_MS)).toBeNull();
  });
});

describe('message senders', () => {
  const id = 'abcdefghijklmnop';
  it('accepts only our own extension pages and our worker', () => {
    expect(
      isFromExtensionPage({ id, url: `chrome-extension://${id}/src/popup/index.html` }, id),
    ).toBe(true);
    expect(
      isFromExtensionPage(
        { id, url: 'https://evil.example/', tab: { id: 1 } as chrome.tabs.Tab },
        id,
      ),
    ).toBe(false);
    expect(isFromExtensionPage({ id: 'other', url: `chrome-extension://other/x.html` }, id)).toBe(
      false,
    );
    expect(isFromServiceWorker({ id }, id)).toBe(true);
    expect(
      isFromServiceWorker({ id, tab: { id: 1 } as chrome.tabs.Tab, url: 'https://a.example/' }, id),
    ).toBe(false);
  });
});
