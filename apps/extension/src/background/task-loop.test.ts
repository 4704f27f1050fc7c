// The loop with its browser boundary replaced by typed scripted parts (loop-fakes.ts): an
// in-memory chrome.storage, a TabDriver that records what it was asked, and an API client that
// answers with contract-valid responses (validated with the real schemas).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../shared/api-client';
import { isFromExtensionPage, isFromServiceWorker } from '../shared/messages';
import { getTaskForTab, loadRun, persistTask, TASK_TTL_MS } from '../shared/run-state';
import { memoryStore } from '../shared/memory-store';
import {
  click,
  countingKeys,
  fakeTiming,
  finished,
  recordingTabs as tabsFailing,
  scriptedApi,
  SESSION,
  SHOT,
  step,
  TASK,
  VIEWPORT,
} from './loop-fakes';
import { answerRun, runTaskLoop, startRun } from './task-loop';

const memoryStorage = memoryStore;
const recordingTabs = (fail: Record<string, string> = {}) => tabsFailing({ fail });

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

  it('stores the latest list of extractions, keeping it through responses without one', async () => {
    const progress = (extractionId: string, items: number | null, pages: number) => ({
      extractionId,
      items,
      pages,
      isPartial: false,
      summary: `${extractionId}, extraction_id=${extractionId}`,
    });
    const storage = memoryStorage();
    const seen: unknown[] = [];
    const api = scriptedApi([
      step({ ...click('1'), extractions: [progress('products', 20, 1)] }),
      // The loop stores each answer before it asks again: what the live view reads meanwhile.
      async () => {
        seen.push((await loadRun(storage, 9))?.extractions);
        return step(click('2'));
      },
      async () => {
        seen.push((await loadRun(storage, 9))?.extractions);
        return step({
          ...finished('done'),
          extractions: [progress('products', 40, 2), progress('shop', null, 1)],
        });
      },
    ]);
    await startRun(storage, 9, 'list the products');
    await runTaskLoop({ tabs: recordingTabs(), storage, api: async () => api }, 9);
    expect(seen).toEqual([[progress('products', 20, 1)], [progress('products', 20, 1)]]);
    expect((await loadRun(storage, 9))?.extractions).toEqual([
      progress('products', 40, 2),
      progress('shop', null, 1),
    ]);
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
      // Not retryable (a 5xx now is): the run ends here with the server's message.
      new ApiError(400, 'INVALID_ACTION', 'stop here'),
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

  it('sends a screenshot in CSS pixels when the server asks, then executes the point it answers', async () => {
    const storage = memoryStorage();
    const api = scriptedApi([
      step({ needs_screenshot: true }),
      step({
        action: 'clickAt(225, 180)',
        actionDetails: { name: 'clickAt', args: { x: 225, y: 180 } },
      }),
      step({
        action: 'finish("ok")',
        actionDetails: { name: 'finish', args: { message: 'ok' } },
        status: 'completed',
      }),
    ]);
    const tabs = recordingTabs();
    await startRun(storage, 6, 'click the red Order button');
    await runTaskLoop({ tabs, storage, api: async () => api }, 6);
    expect(tabs.captures).toEqual(['semantic_v3', 'hybrid', 'semantic_v3']);
    // Scaled to the viewport the hybrid capture measured: one image pixel per CSS pixel.
    expect(tabs.screenshots).toEqual([VIEWPORT]);
    expect(api.requests[1]).toMatchObject({ domMode: 'hybrid', screenshot: SHOT, taskId: TASK });
    expect(api.requests[1]).not.toHaveProperty('captureMode');
    expect(tabs.executed).toEqual(['clickAt(225, 180)']);
    // Only that step: the next capture is the tree again.
    expect(api.requests[2]).not.toHaveProperty('screenshot');
  });

  it('sends the full DOM instead when no screenshot can be taken', async () => {
    const storage = memoryStorage();
    const api = scriptedApi([
      step({ needs_screenshot: true }),
      step({
        action: 'fail("nope")',
        actionDetails: { name: 'fail', args: { reason: 'nope' } },
        status: 'failed',
      }),
    ]);
    const tabs = tabsFailing({ screenshot: null });
    await startRun(storage, 7, 'click the red Order button');
    await runTaskLoop({ tabs, storage, api: async () => api }, 7);
    expect(tabs.captures).toEqual(['semantic_v3', 'hybrid', 'full']);
    expect(api.requests[1]).toMatchObject({ domMode: 'full', dom: '<html></html>' });
    expect(api.requests[1]).not.toHaveProperty('screenshot');
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

describe('runTaskLoop: answers and sessions', () => {
  const question = {
    needsUserInput: true,
    message: 'Which date of birth?',
    missingInformation: ['dob'],
    sessionId: SESSION,
    taskId: TASK,
  };

  it('keeps the task of a question and sends the answer to it, then forgets the answer', async () => {
    const storage = memoryStorage();
    const api = scriptedApi([
      question,
      step(click('1')),
      step({ ...finished('Saved.'), stepIndex: 1 }),
    ]);
    const tabs = recordingTabs();
    await startRun(storage, 5, 'add patient Jas Patel');
    const asked = await runTaskLoop({ tabs, storage, api: async () => api }, 5);
    expect(asked).toMatchObject({ status: 'needs_input', taskId: TASK, sessionId: SESSION });
    expect((await getTaskForTab(storage, 5))?.taskId).toBe(TASK);

    await answerRun(storage, 5, '1 May 1990');
    const run = await runTaskLoop({ tabs, storage, api: async () => api }, 5);
    expect(run).toMatchObject({ status: 'completed', result: 'Saved.' });
    expect(api.requests[1]).toMatchObject({
      taskId: TASK,
      sessionId: SESSION,
      answer: '1 May 1990',
    });
    expect(api.requests[1]).not.toHaveProperty('query');
    // Sent once: the request after it carries the report on the click, not the answer again.
    expect(api.requests[2]).not.toHaveProperty('answer');
    expect(api.requests[2]).toMatchObject({ lastActionStatus: 'success' });
  });

  it('sends a new goal in the same tab with the session of the previous one', async () => {
    const storage = memoryStorage();
    const api = scriptedApi([
      step(finished('Added Jas Patel.')),
      step(finished('Added John Smith.')),
    ]);
    const tabs = recordingTabs();
    await startRun(storage, 6, 'add Jas Patel');
    await runTaskLoop({ tabs, storage, api: async () => api }, 6);
    await startRun(storage, 6, 'now do the same for John Smith');
    await runTaskLoop({ tabs, storage, api: async () => api }, 6);
    expect(api.requests[0]).not.toHaveProperty('sessionId');
    expect(api.requests[1]).toMatchObject({
      query: 'now do the same for John Smith',
      sessionId: SESSION,
    });
    expect(api.requests[1]).not.toHaveProperty('taskId');
  });
});

describe('runTaskLoop: what the live view reads', () => {
  it('records summaries, plan steps, reads, verdicts on the step judged, and the counts', async () => {
    const storage = memoryStorage();
    const verdict = { success: true, confidence: 0.9, reason: 'the form opened' };
    const usage = (totalTokens: number) => ({
      inputTokens: totalTokens,
      outputTokens: 0,
      totalTokens,
      costMicroUsd: totalTokens * 2,
    });
    const plan = {
      goal: 'add a patient',
      steps: [
        { index: 0, description: 'open the form', status: 'active' },
        { index: 1, description: 'fill it in', status: 'pending' },
      ],
      currentStepIndex: 0,
    };
    const api = scriptedApi([
      step({ ...click('3'), actionSummary: 'Clicked “Patients”', plan, usage: usage(10) }),
      step({
        needs_snapshot: { mode: 'outline' },
        stepIndex: 1,
        verification: verdict,
        usage: usage(20),
        collected: { patient: 1 },
        duplicatesSkipped: 4,
      }),
      step({
        ...finished('Jas Patel is saved.'),
        stepIndex: 1,
        verification: verdict,
        usage: usage(30),
      }),
    ]);
    const started = await startRun(storage, 2, 'add a patient');
    const run = await runTaskLoop({ tabs: recordingTabs(), storage, api: async () => api }, 2);
    expect(run).toMatchObject({
      status: 'completed',
      result: 'Jas Patel is saved.',
      startedAt: started.startedAt,
      requests: 3,
      usage: usage(30),
      plan: { goal: 'add a patient' },
      currentStep: 1,
      collected: { patient: 1 },
      duplicatesSkipped: 4,
    });
    // The final answer is the result, not a step of its own.
    expect(run?.steps).toHaveLength(2);
    expect(run?.steps[0]).toMatchObject({
      summary: 'Clicked “Patients”',
      planStep: 0,
      action: 'click("3")',
      verification: verdict,
    });
    expect(run?.steps[1]).toMatchObject({
      read: true,
      summary: 'Read the page outline',
      planStep: 1,
    });
    expect(run?.steps[1]).not.toHaveProperty('verification');
  });
});

describe('runTaskLoop: retries', () => {
  it('waits out a 429 mid-task and finishes; the waits are not requests of their own', async () => {
    const storage = memoryStorage();
    const timing = fakeTiming();
    const api = scriptedApi([
      step(click('1')),
      new ApiError(429, 'RATE_LIMITED', 'slow down', 20_000),
      new ApiError(0, 'NETWORK', 'Cannot reach'),
      new ApiError(503, 'SERVICE_UNAVAILABLE', 'starting'),
      step(finished('done')),
    ]);
    const tabs = recordingTabs();
    await startRun(storage, 4, 'g');
    const run = await runTaskLoop(
      {
        tabs,
        storage,
        api: async () => api,
        timing,
        maxRequests: 2,
        newRequestKey: countingKeys(),
      },
      4,
    );
    expect(run).toMatchObject({ status: 'completed', requests: 2 });
    expect(run?.wait).toBeUndefined();
    expect(timing.slept).toEqual([20_000, 2_000, 4_000]);
    expect(tabs.executed).toEqual(['click("1")']);
    // One key per turn, kept by all its retries.
    expect(api.requests.map((r) => r.idempotencyKey)).toEqual([
      'key-1',
      'key-2',
      'key-2',
      'key-2',
      'key-2',
    ]);
  });

  it('a response lost on the way is asked for again under the same key, and acted on once', async () => {
    const storage = memoryStorage();
    // The server decided click("1") but the answer never arrived; the resend replays it.
    const api = scriptedApi([
      new ApiError(0, 'NETWORK', 'connection reset'),
      step(click('1')),
      step(finished('done')),
    ]);
    const tabs = recordingTabs();
    await startRun(storage, 4, 'g');
    await runTaskLoop(
      { tabs, storage, api: async () => api, timing: fakeTiming(), newRequestKey: countingKeys() },
      4,
    );
    expect(api.requests[0]?.idempotencyKey).toBe(api.requests[1]?.idempotencyKey);
    expect(tabs.executed).toEqual(['click("1")']);
  });

  it('ends the run with the error once retrying stopped making sense', async () => {
    const storage = memoryStorage();
    const api = scriptedApi(
      Array.from({ length: 40 }, () => new ApiError(0, 'NETWORK', 'Cannot reach')),
    );
    await startRun(storage, 4, 'g');
    const run = await runTaskLoop(
      { tabs: recordingTabs(), storage, api: async () => api, timing: fakeTiming() },
      4,
    );
    expect(run).toMatchObject({ status: 'error', error: 'Cannot reach' });
    expect(run?.wait).toBeUndefined();
    expect(run?.requestKey).toBeUndefined();
  });
});
