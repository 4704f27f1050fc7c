import type { HierarchicalPlan } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { planOf } from '../testing/state';
import {
  absorbRest,
  buildHierarchy,
  endsSubTask,
  labelSteps,
  subTaskNote,
  syncSubTasks,
} from './sub-tasks';

const drafts = [
  { name: 'A', description: 'add the patient', outputs: ['patient saved'] },
  { name: 'B', description: 'book a visit', inputs: ['the patient'] },
];
const steps = (names: (string | null)[]) =>
  names.map((subTaskName, index) => ({ index, subTaskName }));

describe('buildHierarchy', () => {
  it('groups contiguous steps into sub-tasks with their contracts, the first active', () => {
    expect(buildHierarchy(steps(['A', 'A', 'B']), drafts)).toEqual({
      currentSubTaskIndex: 0,
      subTasks: [
        {
          id: 'sub-1',
          name: 'A',
          description: 'add the patient',
          inputs: [],
          outputs: ['patient saved'],
          status: 'active',
          stepIndexes: [0, 1],
        },
        {
          id: 'sub-2',
          name: 'B',
          description: 'book a visit',
          inputs: ['the patient'],
          outputs: [],
          status: 'pending',
          stepIndexes: [2],
        },
      ],
    });
  });

  it('keeps a plan flat when it has no clean parts', () => {
    expect(buildHierarchy(steps(['A', 'B', 'A']), drafts)).toBeNull(); // not contiguous
    expect(buildHierarchy(steps(['A', null]), drafts)).toBeNull(); // a step outside
    expect(buildHierarchy(steps(['A', 'C']), drafts)).toBeNull(); // an unknown name
    expect(buildHierarchy(steps(['A', 'A']), drafts)).toBeNull(); // one part used
    expect(buildHierarchy(steps(['A']), [drafts[0] as (typeof drafts)[0]])).toBeNull();
    expect(buildHierarchy(steps(['A', 'B']), null)).toBeNull();
  });
});

describe('moving through sub-tasks', () => {
  const hierarchy = buildHierarchy(steps(['A', 'A', 'B', 'B']), drafts) as HierarchicalPlan;

  it('labels plan steps and knows where a sub-task ends', () => {
    const labelled = labelSteps(planOf(['1', '2', '3', '4']).steps, hierarchy);
    expect(labelled.map((s) => s.subTask?.name)).toEqual(['A', 'A', 'B', 'B']);
    expect([0, 1, 2, 3].map((i) => endsSubTask(hierarchy, i))).toEqual([false, true, false, false]);
  });

  it('syncSubTasks completes the sub-tasks the plan moved past and activates the next', () => {
    expect(syncSubTasks(hierarchy, 1).completed).toEqual([]);
    const moved = syncSubTasks(hierarchy, 2);
    expect(moved.completed.map((t) => t.name)).toEqual(['A']);
    expect(moved.hierarchy.currentSubTaskIndex).toBe(1);
    expect(moved.hierarchy.subTasks.map((t) => t.status)).toEqual(['completed', 'active']);
    expect(syncSubTasks(moved.hierarchy, 3).completed).toEqual([]);
  });

  it('a note keeps what a finished sub-task promised', () => {
    expect(subTaskNote(hierarchy.subTasks[0] as never, 0, 'the record is saved')).toBe(
      'Sub-task 1 "A" completed (the record is saved); outputs: patient saved.',
    );
  });

  it('a regenerated rest of the plan is the current sub-task’s, which takes over later promises', () => {
    const merged = absorbRest(hierarchy, [1, 2, 3, 4]);
    expect(merged.subTasks).toHaveLength(1);
    expect(merged.subTasks[0]).toMatchObject({
      name: 'A',
      description: 'add the patient; then book a visit',
      stepIndexes: [0, 1, 2, 3, 4],
    });
  });
});
