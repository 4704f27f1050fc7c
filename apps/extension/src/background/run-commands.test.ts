import { describe, expect, it } from 'vitest';
import { memoryStore } from '../shared/memory-store';
import { getTaskForTab, loadRun, persistTask, writeRun } from '../shared/run-state';
import { scriptedApi, SESSION, TASK, URL } from './loop-fakes';
import { answerRun, startRun, stopRun } from './run-commands';
import { RunControl } from './run-control';

const TAB = 3;

describe('startRun', () => {
  it('starts a running run with no steps, counted requests and its start time', async () => {
    const storage = memoryStore();
    const run = await startRun(storage, TAB, 'add a patient', 5_000);
    expect(run).toMatchObject({ status: 'running', steps: [], requests: 0, startedAt: 5_000 });
    expect(run).not.toHaveProperty('sessionId');
    expect(await loadRun(storage, TAB)).toEqual(run);
  });

  it("continues the tab's session but not its task, even over a stopped run", async () => {
    const storage = memoryStore();
    await writeRun(storage, {
      tabId: TAB,
      goal: 'add Jas Patel',
      status: 'stopped',
      steps: [{ index: 0, thought: 't', status: 'executing', at: 1 }],
      taskId: TASK,
      sessionId: SESSION,
      result: 'old',
      startedAt: 10,
    });
    await persistTask(storage, TAB, { taskId: TASK, sessionId: SESSION, url: URL });
    const run = await startRun(storage, TAB, 'now do the same for John Smith', 20);
    expect(run).toMatchObject({ status: 'running', sessionId: SESSION, steps: [] });
    expect(run).not.toHaveProperty('taskId');
    expect(run).not.toHaveProperty('result');
    expect(await getTaskForTab(storage, TAB)).toBeNull();
  });

  it('gives each run of a tab a later startedAt, even within one millisecond', async () => {
    const storage = memoryStore();
    const first = await startRun(storage, TAB, 'a', 7);
    const second = await startRun(storage, TAB, 'b', 7);
    expect(second.startedAt).toBe((first.startedAt ?? 0) + 1);
  });

  it('keeps the chosen routine for the first request, and a typed goal after it has none', async () => {
    const storage = memoryStore();
    const routine = { routineId: 'r-1', values: { firstName: 'Ann' } };
    const chosen = await startRun(storage, TAB, 'Add Ann', 1, [], routine);
    expect(chosen.routineRequest).toEqual(routine);
    expect((await loadRun(storage, TAB))?.routineRequest).toEqual(routine);
    const typed = await startRun(storage, TAB, 'Add Bob', 2);
    expect(typed).not.toHaveProperty('routineRequest');
  });
});

describe('stopRun', () => {
  async function runningTask() {
    const storage = memoryStore();
    await startRun(storage, TAB, 'g');
    const run = await loadRun(storage, TAB);
    if (run)
      await writeRun(storage, run, {
        taskId: TASK,
        sessionId: SESSION,
        wait: { reason: 'busy', until: 1, attempt: 1 },
      });
    await persistTask(storage, TAB, { taskId: TASK, sessionId: SESSION, url: URL });
    return storage;
  }

  it('writes stopped, forgets the task for the tab and cancels it on the server', async () => {
    const storage = await runningTask();
    const api = scriptedApi([]);
    const run = await stopRun({ storage, api: async () => api }, TAB);
    expect(run).toMatchObject({ status: 'stopped', sessionId: SESSION });
    expect(run?.wait).toBeUndefined();
    expect(api.cancelled).toEqual([TASK]);
    expect(await getTaskForTab(storage, TAB)).toBeNull();
  });

  it('aborts the loop before writing stopped', async () => {
    const storage = await runningTask();
    const control = new RunControl();
    await stopRun({ storage, api: async () => scriptedApi([]) }, TAB, control);
    expect(control.stopped).toBe(true);
  });

  it('writes stopped only once the action handed to the tab settled', async () => {
    const storage = await runningTask();
    const control = new RunControl();
    let statusWhenSettled: string | undefined;
    void control.execute(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      statusWhenSettled = (await loadRun(storage, TAB))?.status;
    });
    await stopRun({ storage, api: async () => scriptedApi([]) }, TAB, control);
    expect(statusWhenSettled).toBe('running');
    expect((await loadRun(storage, TAB))?.status).toBe('stopped');
  });

  it('is stopped even when the server cannot cancel, and waits only so long for it', async () => {
    const storage = await runningTask();
    const hanging = { cancel: () => new Promise<never>(() => undefined) };
    const started = Date.now();
    const run = await stopRun({ storage, api: async () => hanging }, TAB, undefined, {
      cancelMs: 50,
    });
    expect(run?.status).toBe('stopped');
    expect(Date.now() - started).toBeLessThan(1_000);
    const failing = {
      cancel: async () => {
        throw new Error('server down');
      },
    };
    const again = await runningTask();
    expect((await stopRun({ storage: again, api: async () => failing }, TAB))?.status).toBe(
      'stopped',
    );
  });

  it('stops a run waiting for an answer, question included', async () => {
    const storage = await runningTask();
    const run = await loadRun(storage, TAB);
    if (run) await writeRun(storage, run, { status: 'needs_input', question: 'Which one?' });
    const api = scriptedApi([]);
    const stopped = await stopRun({ storage, api: async () => api }, TAB);
    expect(stopped?.status).toBe('stopped');
    expect(stopped?.question).toBeUndefined();
    expect(api.cancelled).toEqual([TASK]);
  });

  it('leaves a run that already ended alone and cancels nothing', async () => {
    const storage = await runningTask();
    const run = await loadRun(storage, TAB);
    if (run) await writeRun(storage, run, { status: 'completed', result: 'done' });
    const api = scriptedApi([]);
    expect((await stopRun({ storage, api: async () => api }, TAB))?.status).toBe('completed');
    expect(api.cancelled).toEqual([]);
  });
});

describe('answerRun', () => {
  it('keeps the answer for the next request and runs again, task and session kept', async () => {
    const storage = memoryStore();
    await writeRun(storage, {
      tabId: TAB,
      goal: 'add a patient',
      status: 'needs_input',
      question: 'Which date of birth?',
      taskId: TASK,
      sessionId: SESSION,
      steps: [],
    });
    const run = await answerRun(storage, TAB, '1 May 1990');
    expect(run).toMatchObject({
      status: 'running',
      taskId: TASK,
      sessionId: SESSION,
      pending: { answer: '1 May 1990' },
    });
    expect(run.question).toBeUndefined();
  });

  it('refuses an answer when no question is waiting', async () => {
    const storage = memoryStore();
    await expect(answerRun(storage, TAB, 'x')).rejects.toThrow(/no question/);
    await startRun(storage, TAB, 'g');
    await expect(answerRun(storage, TAB, 'x')).rejects.toThrow(/no question/);
  });
});
