// The tasks and task actions repositories' query documents, evaluated by mingo on stored-shape
// documents.
import { describe, expect, it } from 'vitest';
import type { TaskPatch } from './record';
import { encodeCursor } from '../../shared';
import type { TaskActionDoc, TaskDoc } from './mongo-schema';
import { MingoCollection } from '../../mongo/queries/mingo-collection';
import {
  actionsByTaskQuery,
  actionsByTasksQuery,
  actionUpdate,
  activeTaskQuery,
  expireStaleUpdate,
  lastActionQuery,
  taskFilter,
  taskListQuery,
  taskUpdate,
} from './mongo-queries';

const at = (iso: string) => new Date(iso);

function task(over: Partial<TaskDoc> & { id: string }): TaskDoc {
  return {
    tenantId: 't1',
    userId: 'u1',
    sessionId: 's1',
    url: 'https://app.example/',
    query: 'do it',
    status: 'active',
    complexity: null,
    plan: null,
    hierarchicalPlan: null,
    currentStepIndex: 0,
    corrections: [],
    metrics: null,
    lastChain: null,
    webSearchResult: null,
    result: null,
    collectLimit: null,
    consecutiveFailures: 0,
    consecutiveSuccessWithoutTaskComplete: 0,
    version: 0,
    createdAt: at('2025-03-01T10:00:00Z'),
    updatedAt: at('2025-03-01T10:00:00Z'),
    ...over,
  };
}

describe('task update', () => {
  it('sets whitelisted fields, bumps the version, and compares the version when asked', () => {
    const tasks = new MingoCollection([task({ id: 'a', version: 3 })]);
    const now = at('2025-03-02T00:00:00Z');
    const patch = {
      status: 'executing',
      plan: { goal: 'g', steps: [{ description: 'x', extra: undefined }] },
      // Not patchable: never written, whatever the object holds at run time.
      tenantId: 'evil',
      version: 99,
    } as unknown as TaskPatch;
    const updated = tasks.findOneAndUpdate(taskUpdate('t1', 'a', patch, 3, now));
    expect(updated).toMatchObject({
      tenantId: 't1',
      status: 'executing',
      version: 4,
      updatedAt: now,
      plan: { goal: 'g', steps: [{ description: 'x' }] },
    });
    // A second writer that read version 3 loses.
    expect(tasks.findOneAndUpdate(taskUpdate('t1', 'a', { status: 'failed' }, 3, now))).toBeNull();
    // Another tenant's id is not this task.
    expect(
      tasks.findOneAndUpdate(taskUpdate('t2', 'a', { status: 'failed' }, undefined, now)),
    ).toBeNull();
    expect(tasks.findOne({ filter: taskFilter('t1', 'a') })?.status).toBe('executing');
  });
});

describe('task list', () => {
  const docs = [
    task({ id: 'a', createdAt: at('2025-03-01T10:00:00Z'), status: 'completed' }),
    task({ id: 'b', createdAt: at('2025-03-01T11:00:00Z'), userId: 'u2' }),
    task({ id: 'c', createdAt: at('2025-03-01T11:00:00Z') }),
    task({ id: 'd', createdAt: at('2025-03-02T09:00:00Z'), sessionId: 's2' }),
    task({ id: 'x', tenantId: 't2', createdAt: at('2025-03-02T09:00:00Z') }),
  ];
  const tasks = new MingoCollection(docs);
  const ids = (found: TaskDoc[]) => found.map((t) => t.id);

  it('newest first, ties by id, one extra row to tell a next page', () => {
    expect(ids(tasks.find(taskListQuery('t1', {}, 2)))).toEqual(['d', 'c', 'b']);
  });

  it('pages on the (createdAt, id) cursor within a window', () => {
    const cursor = encodeCursor(['2025-03-01T11:00:00.000Z', 'c']);
    expect(ids(tasks.find(taskListQuery('t1', { cursor }, 10)))).toEqual(['b', 'a']);
    const window = taskListQuery(
      't1',
      { cursor, createdFrom: '2025-03-01T10:30:00Z', createdTo: '2025-03-02T00:00:00Z' },
      10,
    );
    expect(ids(tasks.find(window))).toEqual(['b']);
  });

  it('filters by status, user and session', () => {
    expect(ids(tasks.find(taskListQuery('t1', { status: ['completed'] }, 10)))).toEqual(['a']);
    expect(ids(tasks.find(taskListQuery('t1', { userId: 'u2' }, 10)))).toEqual(['b']);
    expect(ids(tasks.find(taskListQuery('t1', { sessionId: 's2' }, 10)))).toEqual(['d']);
  });
});

describe('active task and the stale sweep', () => {
  it("finds the session's newest live task, a question included, on the url when given", () => {
    const tasks = new MingoCollection([
      task({ id: 'old', createdAt: at('2025-03-01T09:00:00Z'), status: 'needs_user_input' }),
      task({ id: 'done', createdAt: at('2025-03-01T12:00:00Z'), status: 'completed' }),
      task({ id: 'other', createdAt: at('2025-03-01T11:00:00Z'), url: 'https://b.example/' }),
    ]);
    expect(tasks.findOne(activeTaskQuery('t1', { sessionId: 's1' }))?.id).toBe('other');
    expect(
      tasks.findOne(activeTaskQuery('t1', { sessionId: 's1', url: 'https://app.example/' }))?.id,
    ).toBe('old');
    expect(tasks.findOne(activeTaskQuery('t1', { sessionId: 's9' }))).toBeNull();
  });

  it('interrupts live tasks untouched since the cut-off, bumping their version', () => {
    const tasks = new MingoCollection([
      task({ id: 'stale', updatedAt: at('2025-03-01T08:00:00Z') }),
      task({ id: 'fresh', updatedAt: at('2025-03-01T12:00:00Z') }),
      task({ id: 'done', updatedAt: at('2025-03-01T08:00:00Z'), status: 'completed' }),
      task({ id: 'elsewhere', updatedAt: at('2025-03-01T08:00:00Z'), sessionId: 's2' }),
    ]);
    const now = at('2025-03-01T12:30:00Z');
    const sweep = expireStaleUpdate(
      't1',
      { olderThan: '2025-03-01T10:00:00Z', sessionId: 's1' },
      now,
    );
    expect(tasks.updateMany(sweep).modifiedCount).toBe(1);
    expect(tasks.docs.map((t) => [t.id, t.status, t.version])).toEqual([
      ['stale', 'interrupted', 1],
      ['fresh', 'active', 0],
      ['done', 'completed', 0],
      ['elsewhere', 'active', 0],
    ]);
  });
});

describe('task actions', () => {
  const action = (
    id: string,
    taskId: string,
    stepIndex: number,
    createdAt: string,
  ): TaskActionDoc => ({
    id,
    tenantId: 't1',
    taskId,
    stepIndex,
    thought: '',
    action: `click(${id})`,
    expectedOutcome: null,
    beforeState: null,
    verification: null,
    status: 'pending',
    metrics: null,
    createdAt: at(createdAt),
  });
  // Inserted in this order: a and b share step and time, so insertion (_id) orders them.
  const actions = new MingoCollection([
    action('c', 'task-1', 1, '2025-01-01T00:00:02Z'),
    action('a', 'task-1', 0, '2025-01-01T00:00:01Z'),
    action('b', 'task-1', 0, '2025-01-01T00:00:01Z'),
    action('z', 'task-0', 5, '2025-01-01T00:00:00Z'),
  ]);

  it('in step order, insertion order breaking ties; the last one; across tasks by task', () => {
    expect(actions.find(actionsByTaskQuery('t1', 'task-1')).map((a) => a.id)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(actions.findOne(lastActionQuery('t1', 'task-1'))?.id).toBe('c');
    expect(
      actions.find(actionsByTasksQuery('t1', ['task-1', 'task-0', 'task-1'])).map((a) => a.id),
    ).toEqual(['z', 'a', 'b', 'c']);
    expect(actions.findOneAndUpdate(actionUpdate('t1', 'b', { status: 'success' }))?.status).toBe(
      'success',
    );
    expect(actions.findOneAndUpdate(actionUpdate('t2', 'b', { status: 'failed' }))).toBeNull();
  });
});
