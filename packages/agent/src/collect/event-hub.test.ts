import type { TaskEvent } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { TaskEventHub, isTaskEventHubFullError } from './event-hub';

const TASK = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const OTHER = '4f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0d';

const step = (stepIndex: number, taskId = TASK): TaskEvent => ({
  event: 'step',
  taskId,
  stepIndex,
  action: 'click("3")',
  status: 'pending',
  thought: `step ${stepIndex}`,
  at: '2026-01-01T00:00:00.000Z',
});

describe('TaskEventHub', () => {
  it('delivers events to the listeners of that tenant and task only', () => {
    const hub = new TaskEventHub();
    const mine: TaskEvent[] = [];
    const otherTask: TaskEvent[] = [];
    const otherTenant: TaskEvent[] = [];
    hub.subscribe('t1', TASK, (e) => mine.push(e));
    hub.subscribe('t1', OTHER, (e) => otherTask.push(e));
    hub.subscribe('t2', TASK, (e) => otherTenant.push(e));
    expect(hub.publish('t1', TASK, step(0))).toBe(1);
    expect(mine).toStrictEqual([step(0)]);
    expect(otherTask).toStrictEqual([]);
    expect(otherTenant).toStrictEqual([]);
  });

  it('unsubscribes by the returned function (idempotently) and by an AbortSignal', () => {
    const hub = new TaskEventHub({ recentPerTask: 0 });
    const seen: number[] = [];
    const off = hub.subscribe('t1', TASK, (e) => seen.push(e.event === 'step' ? e.stepIndex : -1));
    const controller = new AbortController();
    hub.subscribe('t1', TASK, () => seen.push(100), { signal: controller.signal });
    expect(hub.listenerCount('t1', TASK)).toBe(2);
    hub.publish('t1', TASK, step(1));
    off();
    off();
    controller.abort();
    expect(hub.listenerCount()).toBe(0);
    hub.publish('t1', TASK, step(2));
    expect(seen).toStrictEqual([1, 100]);
    // Nothing is kept for a task nobody listens to when recent events are off.
    expect(hub.taskCount).toBe(0);
  });

  it('does not subscribe with an already aborted signal', () => {
    const hub = new TaskEventHub();
    const controller = new AbortController();
    controller.abort();
    hub.subscribe('t1', TASK, () => {}, { signal: controller.signal });
    expect(hub.listenerCount()).toBe(0);
  });

  it('keeps one failing listener from starving the others', () => {
    const hub = new TaskEventHub();
    const seen: string[] = [];
    hub.subscribe('t1', TASK, () => {
      throw new Error('stream closed');
    });
    hub.subscribe('t1', TASK, (e) => seen.push(e.event));
    expect(hub.publish('t1', TASK, step(0))).toBe(1);
    expect(seen).toStrictEqual(['step']);
  });

  it('counts the same function subscribed twice as two listeners', () => {
    const hub = new TaskEventHub();
    let calls = 0;
    const listener = () => (calls += 1);
    const off = hub.subscribe('t1', TASK, listener);
    hub.subscribe('t1', TASK, listener);
    off();
    hub.publish('t1', TASK, step(0));
    expect(calls).toBe(1);
  });

  it('refuses listeners over the per-task and total limits', () => {
    const hub = new TaskEventHub({ maxSubscribersPerTask: 2, maxSubscribers: 3 });
    hub.subscribe('t1', TASK, () => {});
    const off = hub.subscribe('t1', TASK, () => {});
    let error: unknown;
    try {
      hub.subscribe('t1', TASK, () => {});
    } catch (caught) {
      error = caught;
    }
    expect(isTaskEventHubFullError(error)).toBe(true);
    expect((error as Error).message).toMatch(/already has 2 live listeners \(at most 2\)/);
    hub.subscribe('t1', OTHER, () => {});
    expect(() => hub.subscribe('t2', TASK, () => {})).toThrow(/at most 3/);
    off();
    expect(() => hub.subscribe('t2', TASK, () => {})).not.toThrow();
  });

  it('keeps the last events per task for late listeners, bounded', () => {
    const hub = new TaskEventHub({ recentPerTask: 3 });
    for (let i = 0; i < 5; i++) hub.publish('t1', TASK, step(i));
    expect(hub.recent('t1', TASK).map((e) => (e.event === 'step' ? e.stepIndex : -1))).toEqual([
      2, 3, 4,
    ]);
    expect(hub.recent('t2', TASK)).toStrictEqual([]);
  });

  it('forgets the least recently published idle tasks beyond maxTasks', () => {
    const hub = new TaskEventHub({ maxTasks: 2 });
    hub.subscribe('t1', 'listened', () => {});
    hub.publish('t1', 'listened', step(0, 'listened'));
    hub.publish('t1', 'a', step(0, 'a'));
    hub.publish('t1', 'b', step(0, 'b'));
    hub.publish('t1', 'c', step(0, 'c'));
    expect(hub.taskCount).toBe(2);
    // The task with a listener survives; of the idle ones, only the newest is kept.
    expect(hub.recent('t1', 'listened')).toHaveLength(1);
    expect(hub.recent('t1', 'a')).toStrictEqual([]);
    expect(hub.recent('t1', 'b')).toStrictEqual([]);
    expect(hub.recent('t1', 'c')).toHaveLength(1);
  });
});
