import type { Task } from '@tandem/store';
import { describe, expect, it } from 'vitest';
import { continuationRefusal } from './task-gates';

const SESSION = 'session-1';
const task = (extra: Partial<Task> = {}) =>
  ({ id: 'task-1', status: 'executing', sessionId: SESSION, result: null, ...extra }) as Task;

const refusal = (t: Task | null, sessionId = SESSION, answering = false) => {
  const error = continuationRefusal(t, 'task-1', sessionId, answering);
  return error && { code: error.code, status: error.status, message: error.message };
};

describe('continuationRefusal', () => {
  it('lets a live task of this session continue', () => {
    expect(continuationRefusal(task(), 'task-1', SESSION, false)).toBeNull();
    expect(continuationRefusal(task({ status: 'active' }), 'task-1', SESSION, false)).toBeNull();
    // Tasks from before sessions were recorded belong to whoever continues them.
    expect(continuationRefusal(task({ sessionId: null }), 'task-1', 'any', false)).toBeNull();
  });

  it('refuses with the contract’s code for each reason', () => {
    expect(refusal(null)).toEqual({
      code: 'NOT_FOUND',
      status: 404,
      message: 'Task task-1 not found.',
    });
    expect(refusal(task({ status: 'completed' }))).toMatchObject({
      code: 'TASK_COMPLETED',
      status: 409,
    });
    expect(refusal(task({ status: 'failed', result: 'No form' }))).toEqual({
      code: 'TASK_FAILED',
      status: 409,
      message: 'This task has failed: No form; start a new task.',
    });
    expect(refusal(task({ status: 'interrupted' }))).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/interrupted after 30 minutes/),
    });
    expect(refusal(task(), 'other-session')).toMatchObject({
      code: 'CONFLICT',
      message: 'This task belongs to another session.',
    });
    expect(refusal(task({ status: 'cancelled' }))).toEqual({
      code: 'TASK_CANCELLED',
      status: 409,
      message: 'This task was stopped; start a new task.',
    });
  });

  it('a task paused on a question takes only its answer, and only it takes one', () => {
    const waiting = task({ status: 'needs_user_input' });
    expect(continuationRefusal(waiting, 'task-1', SESSION, true)).toBeNull();
    expect(refusal(waiting)).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/waiting for the answer/),
    });
    expect(refusal(task(), SESSION, true)).toMatchObject({
      code: 'CONFLICT',
      message: 'This task is not waiting for an answer.',
    });
    // An ended task says so, answer or not.
    expect(refusal(task({ status: 'cancelled' }), SESSION, true)).toMatchObject({
      code: 'TASK_CANCELLED',
    });
  });
});
