// The outcome mapping over the real embedded store: what each way a run can end writes and
// answers (recordStep's writes included).
import { silentLogger } from '@tandem/observability';
import type { TaskEvent } from '@tandem/contracts';
import { createLibsqlStore, type Store, type Task } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskEventHub } from '../collect/event-hub';
import { DEFAULT_LIMITS } from '../deps';
import { createUnconfiguredLlmClient } from '@tandem/llm';
import { pageWith, pendingOf, stateWith } from '../testing/state';
import { createDisabledWebSearch } from '../web-search/disabled-web-search';
import type { InteractStateType } from '../state';
import type { InteractContext, RequestScope } from './context';
import { answerRun } from './run-answer';
import type { GraphRunner } from './graph-runner';
import type { TaskLocks } from './task-locks';

let store: Store;
let ctx: InteractContext;
let scope: RequestScope;
let events: TaskEvent[];

const unused = <T>(what: string) =>
  new Proxy({} as T & object, {
    get: () => {
      throw new Error(`answerRun must not use the ${what}`);
    },
  });

beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  const tenantId = (await store.tenants.create({ name: 'answer' })).id;
  const session = await store.sessions.create(tenantId, {
    userId: 'user-1',
    url: 'https://a.example/',
  });
  const hub = new TaskEventHub();
  ctx = {
    store,
    deps: {
      llm: createUnconfiguredLlmClient(),
      webSearch: createDisabledWebSearch(),
      log: silentLogger,
      limits: DEFAULT_LIMITS,
    },
    rag: unused('RAG service'),
    events: hub,
    locks: unused<TaskLocks>('task locks'),
    runner: unused<GraphRunner>('graph runner'),
  };
  scope = {
    caller: { tenantId, userId: 'user-1' },
    request: unused('request'),
    page: pageWith(),
    sessionId: session.id,
    requestHash: null,
    started: Date.now(),
    log: silentLogger,
  };
  events = [];
});
afterEach(async () => store.close());

const stateOf = (extra: Partial<InteractStateType>) =>
  stateWith({
    tenantId: scope.caller.tenantId,
    sessionId: scope.sessionId,
    query: 'click Save',
    page: pageWith({ url: 'https://a.example/form' }),
    ...extra,
  });

const follow = (taskId: string) =>
  ctx.events?.subscribe(scope.caller.tenantId, taskId, (event) => events.push(event));

async function existingTask(): Promise<Task> {
  return store.tasks.create(scope.caller.tenantId, {
    userId: 'user-1',
    sessionId: scope.sessionId,
    url: 'https://a.example/form',
    query: 'click Save',
    status: 'executing',
  });
}

describe('answerRun', () => {
  it('records a new task’s first step: task, pending action, message, live step', async () => {
    const state = stateOf({
      status: 'executing',
      stepCount: 1,
      pending: pendingOf('click("1")', { thought: 'Save the form' }),
      outcome: { kind: 'action' },
    });
    follow(state.taskId);
    const response = await answerRun(ctx, scope, state, { existing: null, verifiedActionId: null });
    const tenantId = scope.caller.tenantId;
    expect(response).toMatchObject({
      action: 'click("1")',
      status: 'executing',
      taskId: state.taskId,
    });
    expect(await store.tasks.get(tenantId, state.taskId)).toMatchObject({
      status: 'executing',
      query: 'click Save',
      url: 'https://a.example/form',
      metrics: { totalSteps: 1 },
    });
    expect(await store.taskActions.listByTask(tenantId, state.taskId)).toEqual([
      expect.objectContaining({
        action: 'click("1")',
        status: 'pending',
        thought: 'Save the form',
      }),
    ]);
    expect((await store.messages.list(tenantId, scope.sessionId)).at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Save the form',
      actionString: 'click("1")',
    });
    expect(events).toEqual([
      expect.objectContaining({ event: 'step', action: 'click("1")', status: 'pending' }),
    ]);
  });

  it('a finished continuation writes the verdict on the previous action and ends the session', async () => {
    const task = await existingTask();
    const tenantId = scope.caller.tenantId;
    const previous = await store.taskActions.insert(tenantId, {
      taskId: task.id,
      stepIndex: 0,
      thought: 'Save',
      action: 'click("1")',
      expectedOutcome: null,
      beforeState: null,
      verification: null,
      status: 'pending',
      metrics: null,
    });
    const verdict = {
      success: true,
      confidence: 0.95,
      reason: 'saved',
      actionSucceeded: true,
      taskCompleted: true,
      goalAchieved: true,
      verificationTier: 1 as const,
      tokensSaved: 0,
    };
    const state = stateOf({
      taskId: task.id,
      status: 'completed',
      result: 'Done: Save',
      stepCount: 2,
      lastVerification: verdict,
      pending: pendingOf('finish("Done: Save")', { thought: 'Done: Save' }),
      outcome: { kind: 'action' },
    });
    follow(task.id);
    const response = await answerRun(ctx, scope, state, {
      existing: task,
      verifiedActionId: previous.id,
    });
    expect(response).toMatchObject({ status: 'completed', result: 'Done: Save' });
    expect(await store.taskActions.get(tenantId, previous.id)).toMatchObject({
      status: 'success',
      verification: verdict,
    });
    expect(await store.tasks.get(tenantId, task.id)).toMatchObject({
      status: 'completed',
      result: 'Done: Save',
      metrics: { verificationsPassed: 1 },
    });
    expect(await store.sessions.get(tenantId, scope.sessionId)).toMatchObject({
      status: 'completed',
    });
    expect(events.map((e) => e.event)).toEqual(['step', 'done']);
  });

  it('a refusal that fails the task marks task and session failed and throws its code', async () => {
    const task = await existingTask();
    const state = stateOf({
      taskId: task.id,
      outcome: {
        kind: 'refused',
        code: 'MAX_RETRIES_EXCEEDED',
        message: 'Gave up.',
        failTask: true,
      },
    });
    await expect(
      answerRun(ctx, scope, state, { existing: task, verifiedActionId: null }),
    ).rejects.toMatchObject({ name: 'InteractError', code: 'MAX_RETRIES_EXCEEDED', status: 400 });
    const tenantId = scope.caller.tenantId;
    expect(await store.tasks.get(tenantId, task.id)).toMatchObject({
      status: 'failed',
      result: 'Gave up.',
    });
    expect(await store.sessions.get(tenantId, scope.sessionId)).toMatchObject({ status: 'failed' });
  });

  it('a refusal that keeps the task writes nothing', async () => {
    const task = await existingTask();
    const state = stateOf({
      taskId: task.id,
      outcome: {
        kind: 'refused',
        code: 'LLM_NOT_CONFIGURED',
        message: 'No model.',
        failTask: false,
      },
    });
    await expect(
      answerRun(ctx, scope, state, { existing: task, verifiedActionId: null }),
    ).rejects.toMatchObject({ code: 'LLM_NOT_CONFIGURED', status: 503 });
    expect(await store.tasks.get(scope.caller.tenantId, task.id)).toMatchObject({
      status: 'executing',
    });
  });

  it('a question pauses the task it creates and is kept as the session’s message', async () => {
    const state = stateOf({
      outcome: { kind: 'ask_user', message: 'Which patient?', missingInformation: ['patient'] },
    });
    const response = await answerRun(ctx, scope, state, { existing: null, verifiedActionId: null });
    expect(response).toMatchObject({
      needsUserInput: true,
      message: 'Which patient?',
      taskId: state.taskId,
    });
    const tenantId = scope.caller.tenantId;
    expect(await store.tasks.get(tenantId, state.taskId)).toMatchObject({
      status: 'needs_user_input',
      query: 'click Save',
    });
    expect((await store.messages.list(tenantId, scope.sessionId)).at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Which patient?',
    });
  });

  it('a run that ended without an outcome is our bug, not an answer', async () => {
    await expect(
      answerRun(ctx, scope, stateOf({ outcome: null }), { existing: null, verifiedActionId: null }),
    ).rejects.toThrow(/without an outcome/);
  });
});
