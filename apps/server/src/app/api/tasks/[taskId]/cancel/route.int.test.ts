// POST /api/tasks/{taskId}/cancel through the real routes and store: tenant-scoped, idempotent,
// and final: the task's next interact request answers 409 TASK_CANCELLED.
import { CancelTaskResponse, ErrorResponse, InteractResponse } from '@tandem/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../../server/runtime';
import { request, tenantWithKey, testRuntime } from '../../../../../test/harness';
import { POST as interact } from '../../../agent/interact/route';
import { POST as cancel } from './route';

let runtime: Runtime;
let key: string;

const tree = [{ i: '7', r: 'link', n: 'Logout' }];

async function startTask(): Promise<{ taskId: string; sessionId: string }> {
  const res = await interact.withRuntime(runtime)(
    request('/api/agent/interact', {
      method: 'POST',
      key,
      body: { url: 'https://app.example/', query: 'click Logout', interactiveTree: tree },
    }),
  );
  const body = InteractResponse.parse(await res.json());
  if (body.needsUserInput || !body.taskId) throw new Error('expected an action');
  return { taskId: body.taskId, sessionId: body.sessionId };
}

const cancelAs = (taskId: string, as = key) =>
  cancel.withRuntime(runtime)(request(`/api/tasks/${taskId}/cancel`, { method: 'POST', key: as }), {
    params: Promise.resolve({ taskId }),
  });

const continueTask = (task: { taskId: string; sessionId: string }) =>
  interact.withRuntime(runtime)(
    request('/api/agent/interact', {
      method: 'POST',
      key,
      body: {
        url: 'https://app.example/',
        interactiveTree: [],
        taskId: task.taskId,
        sessionId: task.sessionId,
        lastActionStatus: 'success',
      },
    }),
  );

beforeEach(async () => {
  runtime = await testRuntime();
  ({ key } = await tenantWithKey(runtime.store));
});
afterEach(async () => runtime.store.close());

describe('POST /api/tasks/{taskId}/cancel', () => {
  it('cancels a running task, again without error, and refuses its next step with 409', async () => {
    const task = await startTask();
    const first = await cancelAs(task.taskId);
    expect(first.status).toBe(200);
    expect(CancelTaskResponse.parse(await first.json())).toEqual({
      taskId: task.taskId,
      status: 'cancelled',
    });
    // Safe to retry: the extension may send it twice.
    expect((await cancelAs(task.taskId)).status).toBe(200);

    const next = await continueTask(task);
    expect(next.status).toBe(409);
    expect(ErrorResponse.parse(await next.json()).error).toEqual({
      code: 'TASK_CANCELLED',
      message: 'This task was stopped; start a new task.',
    });
    const stored = await runtime.store.tasks.get((await tenantOf(key)) ?? '', task.taskId);
    expect(stored).toMatchObject({ status: 'cancelled', result: 'Stopped by the user.' });
  });

  it('is tenant-scoped: another tenant’s task, like an unknown one, is 404', async () => {
    const task = await startTask();
    const other = await tenantWithKey(runtime.store);
    const foreign = await cancelAs(task.taskId, other.key);
    expect(foreign.status).toBe(404);
    expect(ErrorResponse.parse(await foreign.json()).error.code).toBe('NOT_FOUND');
    expect((await cancelAs(crypto.randomUUID())).status).toBe(404);
    // The foreign attempt changed nothing.
    expect((await cancelAs(task.taskId)).status).toBe(200);
  });

  it('a task that already ended cannot be cancelled', async () => {
    const task = await startTask();
    const done = await interact.withRuntime(runtime)(
      request('/api/agent/interact', {
        method: 'POST',
        key,
        body: {
          url: 'https://app.example/login',
          interactiveTree: [{ i: '9', r: 'btn', n: 'Sign in' }],
          taskId: task.taskId,
          sessionId: task.sessionId,
          lastActionStatus: 'success',
        },
      }),
    );
    expect(InteractResponse.parse(await done.json())).toMatchObject({ status: 'completed' });
    const late = await cancelAs(task.taskId);
    expect(late.status).toBe(409);
    expect(ErrorResponse.parse(await late.json()).error.code).toBe('TASK_COMPLETED');
  });

  it('401 without a key', async () => {
    const res = await cancel.withRuntime(runtime)(
      request(`/api/tasks/${crypto.randomUUID()}/cancel`, { method: 'POST' }),
      { params: Promise.resolve({ taskId: crypto.randomUUID() }) },
    );
    expect(res.status).toBe(401);
  });
});

async function tenantOf(apiKey: string): Promise<string | null> {
  return (await runtime.store.apiKeys.findByPlaintext(apiKey))?.tenantId ?? null;
}
