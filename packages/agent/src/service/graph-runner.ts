// Runs the interact graph for one request: a new task's first run, or a paused task's resume
// with the request's page. Checkpoints are written when a run stops (paused before dispatch,
// or at the end), not after every node: the pause is the only point a later request resumes
// from, and per-node writes were most of a step's cost.

import type { Logger } from '@tandem/observability';
import type { InteractGraph } from '../graph';
import type { InteractRunContext, ResumeInput } from '../nodes/dispatch/node';
import type { InteractStateType, InteractStateUpdate } from '../state';
import { InteractError } from './interact-error';
import type { TaskLocks } from './task-locks';

export interface GraphRunner {
  /** A new task's first run, from complexity_check to its first pause (or its end). */
  start(taskId: string, input: InteractStateUpdate): Promise<InteractStateType>;
  /** A paused task's next run, from dispatch with this request's page. */
  resume(tenantId: string, taskId: string, input: ResumeInput): Promise<InteractStateType>;
}

const runConfig = (taskId: string) => ({
  configurable: { thread_id: taskId },
  recursionLimit: 60,
  durability: 'exit' as const,
});
type RunConfig = ReturnType<typeof runConfig>;

export function createGraphRunner(
  graph: InteractGraph,
  locks: TaskLocks,
  log: Logger,
): GraphRunner {
  return {
    async start(taskId, input) {
      return (await graph.invoke(input, runConfig(taskId))) as InteractStateType;
    },
    async resume(tenantId, taskId, input) {
      // A thread is paused before dispatch unless the previous run threw: a process killed
      // mid-run writes nothing (durability 'exit'), and every refusal in a continuation fails
      // the task. A run that threw checkpoints where it failed and leaves a fork marker, so
      // the common path resumes without first loading the whole checkpoint through getState
      // (15% of a step's CPU). The request's page reaches dispatch as the run's context.
      const config = runConfig(taskId);
      const context: InteractRunContext = { resume: input };
      const forkNeeded = await locks.needsFork(tenantId, taskId);
      try {
        const values = forkNeeded
          ? await forkFromLastPause(graph, config, context)
          : await graph.invoke(null, { ...config, context });
        if (forkNeeded) await locks.clearFork(tenantId, taskId);
        return values as InteractStateType;
      } catch (error) {
        if (!forkNeeded && !(error instanceof InteractError)) {
          await locks.markFork(tenantId, taskId).catch((markError: unknown) => {
            log.error('fork marker write failed', { taskId, error: markError });
          });
        }
        throw error;
      }
    },
  };
}

const pausedAtDispatch = (next: readonly string[]) => next.includes('dispatch');

/**
 * The previous request failed midway (LLM outage, crash) after taking in its page state.
 * Fork from the last checkpoint that was paused before dispatch and replay this request's
 * page there, as if the failed request never happened.
 */
async function forkFromLastPause(
  graph: InteractGraph,
  config: RunConfig,
  context: InteractRunContext,
): Promise<unknown> {
  const snapshot = await graph.getState(config);
  if (pausedAtDispatch(snapshot.next)) return graph.invoke(null, { ...config, context });
  if (snapshot.next.length === 0) throw nothingWaiting();
  for await (const past of graph.getStateHistory(config)) {
    if (pausedAtDispatch(past.next)) {
      return graph.invoke(null, {
        ...past.config,
        recursionLimit: config.recursionLimit,
        durability: config.durability,
        context,
      });
    }
  }
  throw nothingWaiting();
}

const nothingWaiting = () =>
  new InteractError('CONFLICT', 'This task has no step waiting for a result.');
