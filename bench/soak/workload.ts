// What the soak sends: tasks as the extension runs them, one request per step, each continuing
// the task the previous answer named. SIMPLE: "click Logout" (resolved without a model), then the
// step that verifies it and finishes. COMPLEX: a paging goal (context analysis, a 10-step plan,
// outcome predictions from the scripted model), started and continued three times.
import { randomUUID } from 'node:crypto';
import type { SemanticNodeV3 } from '@tandem/contracts';

/** A 32-element page: enough for realistic resolution and hashing work, like a small app view. */
export const tree = (n: string): SemanticNodeV3[] => [
  { i: `next-${n}`, r: 'btn', n: 'Next' },
  { i: `logout-${n}`, r: 'link', n: 'Logout' },
  ...Array.from({ length: 30 }, (_, k) => ({ i: `l${n}-${k}`, r: 'link', n: `Item ${k}` })),
];

export type TaskKind = 'SIMPLE' | 'COMPLEX';

/** Requests a task of each kind sends (the first starts it). */
export const REQUESTS_PER_TASK: Record<TaskKind, number> = { SIMPLE: 2, COMPLEX: 4 };

export interface TaskRun {
  kind: TaskKind;
  /** Unique per soak run, in URLs and element ids. */
  name: string;
  tenant: number;
  taskId?: string;
  sessionId?: string;
  /** Requests answered so far. */
  answered: number;
}

/** The body of the task's next request. */
export function nextBody(task: TaskRun): Record<string, unknown> {
  const step = task.answered;
  const common = { idempotencyKey: randomUUID() };
  if (step === 0) {
    return task.kind === 'SIMPLE'
      ? {
          ...common,
          url: `https://app.example/${task.name}`,
          query: 'click Logout',
          interactiveTree: tree(task.name),
        }
      : {
          ...common,
          url: `https://list.example/${task.name}`,
          query: 'page through the whole list',
          interactiveTree: tree(task.name),
        };
  }
  const continued = {
    ...common,
    taskId: task.taskId,
    sessionId: task.sessionId,
    lastActionStatus: 'success',
    clientObservations: { didUrlChange: true, didDomMutate: true },
  };
  return task.kind === 'SIMPLE'
    ? {
        ...continued,
        url: `https://app.example/${task.name}/signed-out`,
        interactiveTree: [{ i: `signin-${task.name}`, r: 'btn', n: 'Sign in' }],
      }
    : {
        ...continued,
        url: `https://list.example/${task.name}/p${step + 1}`,
        interactiveTree: tree(`${task.name}-p${step + 1}`),
      };
}
