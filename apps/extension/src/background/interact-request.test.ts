import { ActiveTaskResponse } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../shared/api-client';
import { memoryStore } from '../shared/memory-store';
import { persistTask, TASK_TTL_MS, type RunState } from '../shared/run-state';
import { findTaskId, interactBody } from './interact-request';
import type { CapturedPage } from './tab-driver';

const TASK = '11111111-1111-4111-8111-111111111111';
const RECOVERED = '33333333-3333-4333-8333-333333333333';
const SESSION = '22222222-2222-4222-8222-222222222222';
const URL = 'https://a.example/';
const oneStep: RunState['steps'] = [{ index: 0, thought: 't', status: 'executing', at: 1 }];

/** The recovery endpoint, recording what it was asked. */
function recovery(taskId: string | null): Pick<ApiClient, 'activeTask'> & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    async activeTask(sessionId, url) {
      asked.push({ sessionId, url });
      if (!taskId) return null;
      return ActiveTaskResponse.parse({
        taskId,
        query: 'g',
        status: 'executing',
        currentStepIndex: 1,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
    },
  };
}

describe('findTaskId', () => {
  it("has none on a run's first request (it sends the goal) and asks no one", async () => {
    const api = recovery(RECOVERED);
    expect(await findTaskId(memoryStore(), api, { steps: [] }, 1, URL)).toEqual({});
    expect(api.asked).toEqual([]);
  });

  it("uses the tab's stored taskId without asking the server", async () => {
    const storage = memoryStore();
    await persistTask(storage, 1, { taskId: TASK, sessionId: SESSION, url: URL });
    const api = recovery(RECOVERED);
    const found = await findTaskId(storage, api, { steps: oneStep, sessionId: SESSION }, 1, URL);
    expect(found).toEqual({ taskId: TASK });
    expect(api.asked).toEqual([]);
  });

  it('recovers the taskId from the server by session and page URL when the stored one expired', async () => {
    const storage = memoryStore();
    await persistTask(storage, 1, { taskId: TASK, sessionId: SESSION, url: URL }, 0);
    expect(Date.now()).toBeGreaterThan(TASK_TTL_MS);
    const api = recovery(RECOVERED);
    const found = await findTaskId(storage, api, { steps: oneStep, sessionId: SESSION }, 1, URL);
    expect(found).toEqual({ taskId: RECOVERED });
    expect(api.asked).toEqual([{ sessionId: SESSION, url: URL }]);
  });

  it('is lost when nothing is stored and the server has no active task', async () => {
    const api = recovery(null);
    const steps = oneStep;
    expect(await findTaskId(memoryStore(), api, { steps, sessionId: SESSION }, 1, URL)).toBe(
      'lost',
    );
    expect(api.asked).toHaveLength(1);
  });

  it('continues the task that asked a question on the first request (no steps yet)', async () => {
    const storage = memoryStore();
    await persistTask(storage, 1, { taskId: TASK, sessionId: SESSION, url: URL });
    const run = { steps: [], taskId: TASK, sessionId: SESSION };
    expect(await findTaskId(storage, recovery(null), run, 1, URL)).toEqual({ taskId: TASK });
  });

  it("sends an answer to the run's task even after the tab's stored taskId expired", async () => {
    const api = recovery(RECOVERED);
    const run = { steps: [], taskId: TASK, sessionId: SESSION, pending: { answer: 'yes' } };
    expect(await findTaskId(memoryStore(), api, run, 1, URL)).toEqual({ taskId: TASK });
    expect(api.asked).toEqual([]);
  });

  it('is lost without asking the server when the run has no session to recover by', async () => {
    const api = recovery(RECOVERED);
    expect(await findTaskId(memoryStore(), api, { steps: oneStep }, 1, URL)).toBe('lost');
    expect(api.asked).toEqual([]);
  });
});

describe('interactBody', () => {
  const page: CapturedPage = {
    url: URL,
    domMode: 'semantic_v3',
    interactiveTree: [{ i: '1', r: 'btn', n: 'Go' }],
  };

  it('starts the task with the goal: a query and no taskId', () => {
    const body = interactBody(page, { goal: 'click Go' }, undefined);
    expect(body).toEqual({ ...page, query: 'click Go' });
    expect(body).not.toHaveProperty('taskId');
    expect(body).not.toHaveProperty('sessionId');
  });

  it('continues a task by its taskId and session, without the goal', () => {
    const body = interactBody(page, { goal: 'click Go', sessionId: SESSION }, TASK);
    expect(body).toMatchObject({ taskId: TASK, sessionId: SESSION, url: URL });
    expect(body).not.toHaveProperty('query');
  });

  it('starts a new goal in the session of the previous one', () => {
    const body = interactBody(page, { goal: 'now John Smith', sessionId: SESSION }, undefined);
    expect(body).toMatchObject({ query: 'now John Smith', sessionId: SESSION });
    expect(body).not.toHaveProperty('taskId');
  });

  it("sends the user's answer with the task it continues", () => {
    const run = { goal: 'add patient', sessionId: SESSION, pending: { answer: '1 May 1990' } };
    const body = interactBody(page, run, TASK);
    expect(body).toMatchObject({ taskId: TASK, sessionId: SESSION, answer: '1 May 1990' });
    expect(body).not.toHaveProperty('query');
  });

  it('sends the chosen routine with the request that starts the task, and never after', () => {
    const routineRequest = { routineId: 'r-1', values: { firstName: 'Ann' } };
    const run = { goal: 'Add Ann', routineRequest };
    expect(interactBody(page, run, undefined)).toMatchObject({
      query: 'Add Ann',
      routine: routineRequest,
    });
    expect(interactBody(page, run, TASK)).not.toHaveProperty('routine');
    // With an answer appended the query no longer reads as the template.
    const answered = { ...run, pending: { answer: 'yes' } };
    expect(interactBody(page, answered, undefined)).not.toHaveProperty('routine');
    expect(interactBody(page, { goal: 'Add Ann' }, undefined)).not.toHaveProperty('routine');
  });

  it('adds the answer to the goal when the question came with no task to continue', () => {
    const run = { goal: 'add patient', sessionId: SESSION, pending: { answer: '1 May 1990' } };
    const body = interactBody(page, run, undefined);
    expect(body.query).toBe('add patient\n\n1 May 1990');
    expect(body).not.toHaveProperty('answer');
  });

  it('carries the report on the last action but not the capture instructions', () => {
    const body = interactBody(
      page,
      {
        goal: 'g',
        pending: {
          lastActionStatus: 'failure',
          lastActionError: 'disabled: element is disabled',
          previousUrl: URL,
          captureMode: 'full',
          snapshotRequest: { mode: 'outline' },
        },
      },
      TASK,
    );
    expect(body).toMatchObject({
      lastActionStatus: 'failure',
      lastActionError: 'disabled: element is disabled',
      previousUrl: URL,
    });
    expect(body).not.toHaveProperty('captureMode');
    expect(body).not.toHaveProperty('snapshotRequest');
    expect(body.domMode).toBe('semantic_v3');
  });
});
