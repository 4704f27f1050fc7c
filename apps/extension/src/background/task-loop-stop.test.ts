// Stop pressed at each point of a turn: nothing reaches the tab after it, the run ends
// `stopped` (never overwritten by the loop) and the server task is cancelled.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../shared/api-client';
import { memoryStore } from '../shared/memory-store';
import { loadRun, writeRun } from '../shared/run-state';
import type { KeyValueStore } from '../shared/settings';
import {
  click,
  fakeTiming,
  recordingTabs,
  scriptedApi,
  step,
  TASK,
  untilAborted,
  type ScriptedApi,
  type TabScript,
} from './loop-fakes';
import { RunControl, sleep } from './run-control';
import { runTaskLoop, startRun, stopRun, type LoopDeps } from './task-loop';

const TAB = 2;
const chain = ['setValue("1", "a")', 'setValue("2", "b")', 'setValue("3", "c")'];
const chained = step({
  action: chain[0],
  actionDetails: { name: 'setValue', args: { id: '1', text: 'a' } },
  actions: chain.map((action, index) => ({ action, description: 'f', index })),
});

/** The popup's Stop, as the worker runs it: through the loop's control. */
function stopButton(storage: KeyValueStore, api: ScriptedApi) {
  const control = new RunControl();
  let stopping: Promise<unknown> = Promise.resolve();
  return {
    control,
    /** Pressed from inside the loop (a request, an action…): not awaited there, as in Chrome. */
    press() {
      stopping = stopRun({ storage, api: async () => api }, TAB, control, { cancelMs: 100 });
    },
    settled: () => stopping,
  };
}

async function scenario(
  responses: unknown[],
  script: (stop: () => void) => TabScript = () => ({}),
) {
  const storage = memoryStore();
  const api = scriptedApi(responses);
  const button = stopButton(storage, api);
  const tabs = recordingTabs(script(() => button.press()));
  await startRun(storage, TAB, 'add a patient named Jas Patel');
  const deps: LoopDeps = { tabs, storage, api: async () => api, timing: fakeTiming() };
  return { storage, api, tabs, button, run: () => runTaskLoop(deps, TAB, button.control) };
}

describe('Stop', () => {
  it('during a request: the request is aborted, nothing more runs, the task is cancelled', async () => {
    let signalOfRequest: AbortSignal | undefined;
    const s = await scenario([
      step(click('1')),
      async (_body: unknown, signal?: AbortSignal) => {
        signalOfRequest = signal;
        s.button.press();
        return untilAborted(signal);
      },
      step(click('2')),
    ]);
    await s.run();
    await s.button.settled();
    expect(signalOfRequest?.aborted).toBe(true);
    expect(s.tabs.executed).toEqual(['click("1")']);
    expect(s.api.requests).toHaveLength(2);
    expect((await loadRun(s.storage, TAB))?.status).toBe('stopped');
    expect(s.api.cancelled).toEqual([TASK]);
  });

  it('during the first request: it is left to finish and the task it created is cancelled', async () => {
    let signalOfRequest: AbortSignal | undefined = new AbortController().signal;
    let answer = (): void => {};
    const s = await scenario([
      async (_body: unknown, signal?: AbortSignal) => {
        signalOfRequest = signal;
        s.button.press();
        // The server answers after the Stop: only its answer names the task.
        await new Promise<void>((resolve) => (answer = resolve));
        return step(click('1'));
      },
    ]);
    const running = s.run();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await s.button.settled();
    expect((await loadRun(s.storage, TAB))?.status).toBe('stopped');
    expect(s.api.cancelled).toEqual([]);
    answer();
    await running;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(signalOfRequest).toBeUndefined();
    expect(s.tabs.executed).toEqual([]);
    expect(s.api.cancelled).toEqual([TASK]);
  });

  it('during a chain: only the items before the Stop run, and stopped is written after', async () => {
    let statusAfterFirst: string | undefined;
    const s = await scenario([chained, step(click('9'))], (stop) => ({
      onExecute: async (action) => {
        if (action !== chain[0]) return;
        stop();
        await new Promise((resolve) => setTimeout(resolve, 10));
        statusAfterFirst = (await loadRun(s.storage, TAB))?.status;
      },
    }));
    await s.run();
    await s.button.settled();
    expect(s.tabs.executed).toEqual([chain[0]]);
    // Stop waited for the item the tab was executing before it said "Stopped".
    expect(statusAfterFirst).toBe('running');
    expect(s.tabs.settles).toBe(0);
    expect(s.api.requests).toHaveLength(1);
    expect((await loadRun(s.storage, TAB))?.status).toBe('stopped');
  });

  it('during the stability wait: the wait ends at once and no request follows', async () => {
    const s = await scenario([step(click('1')), step(click('2'))], (stop) => ({
      settle: () => {
        stop();
        return new Promise(() => undefined);
      },
    }));
    await s.run();
    await s.button.settled();
    expect(s.tabs.executed).toEqual(['click("1")']);
    expect(s.api.requests).toHaveLength(1);
    expect((await loadRun(s.storage, TAB))?.status).toBe('stopped');
    expect(s.api.cancelled).toEqual([TASK]);
  });

  it('during a capture: the page read the server asked for is not taken', async () => {
    const s = await scenario([step({ needs_snapshot: { mode: 'outline' } })]);
    const capture = s.tabs.capture.bind(s.tabs);
    s.tabs.capture = async (tabId, mode) => {
      if (s.tabs.captures.length === 1) s.button.press();
      return capture(tabId, mode);
    };
    await s.run();
    await s.button.settled();
    expect(s.tabs.captures).toHaveLength(2);
    expect(s.tabs.snapshots).toEqual([]);
    expect(s.api.requests).toHaveLength(1);
    expect((await loadRun(s.storage, TAB))?.status).toBe('stopped');
  });

  it('during a rate-limit wait: the wait ends at once and the request is not sent again', async () => {
    const storage = memoryStore();
    const api = scriptedApi([
      step(click('1')),
      async () => {
        throw new ApiError(429, 'RATE_LIMITED', 'slow down', 60_000);
      },
      step(click('2')),
    ]);
    const button = stopButton(storage, api);
    const timing = {
      ...fakeTiming(),
      sleep: (ms: number, signal?: AbortSignal) => {
        button.press();
        return sleep(ms, signal);
      },
    };
    await startRun(storage, TAB, 'g');
    await runTaskLoop(
      { tabs: recordingTabs(), storage, api: async () => api, timing },
      TAB,
      button.control,
    );
    await button.settled();
    expect(api.requests).toHaveLength(2);
    const run = await loadRun(storage, TAB);
    expect(run?.status).toBe('stopped');
    expect(run?.wait).toBeUndefined();
  });

  it('written while a response is on its way: the loop records and executes nothing of it', async () => {
    const storage = memoryStore();
    const api = scriptedApi([
      async () => {
        // Another writer (a Stop this worker's control does not see) stores `stopped` now.
        const stored = await loadRun(storage, TAB);
        if (stored) await writeRun(storage, stored, { status: 'stopped' });
        return step(click('1'));
      },
    ]);
    const tabs = recordingTabs();
    await startRun(storage, TAB, 'g');
    const run = await runTaskLoop({ tabs, storage, api: async () => api }, TAB);
    expect(run?.status).toBe('stopped');
    expect(tabs.executed).toEqual([]);
    const stored = await loadRun(storage, TAB);
    expect(stored?.status).toBe('stopped');
    expect(stored?.steps).toEqual([]);
  });

  it('before the loop starts: nothing is captured or sent', async () => {
    const s = await scenario([step(click('1'))]);
    s.button.press();
    await s.button.settled();
    await s.run();
    expect(s.tabs.captures).toEqual([]);
    expect(s.api.requests).toEqual([]);
  });
});
