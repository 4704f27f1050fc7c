// Runs the interact graph for one request: a new task's first run, or a paused task's resume
// with the request's page. Checkpoints are written when a run stops (paused before dispatch,
// at the end, or where it threw), not after every node: per-node writes were most of a step's
// cost. A later request resumes from the pause, or, when it is the request that threw sent
// again, from the node that threw.

import type { Logger } from '@tandem/observability';
import type { InteractGraph } from '../graph';
import type { InteractRunContext, ResumeInput } from '../nodes/dispatch/node';
import type { InteractStateType, InteractStateUpdate } from '../state';
import { InteractError } from './interact-error';
import type { TaskLocks } from './task-locks';

export interface GraphRunner {
  /**
   * A new task's first run, from complexity_check to its first pause (or its end). A run that
   * throws leaves a fork marker naming `requestHash`, the request's (null: it had no key).
   */
  start(
    taskId: string,
    input: InteractStateUpdate & { tenantId: string },
    requestHash: string | null,
  ): Promise<InteractStateType>;
  /** Whether the task's last run threw on this same request and left a node to run again. */
  failedOn(tenantId: string, taskId: string, requestHash: string | null): Promise<boolean>;
  /** A first run that threw, run on from the node that failed (see failedOn). */
  startAgain(tenantId: string, taskId: string, requestHash: string): Promise<InteractStateType>;
  /** A paused task's next run, from dispatch with this request's page. */
  resume(
    tenantId: string,
    taskId: string,
    input: ResumeInput,
    requestHash: string | null,
  ): Promise<InteractStateType>;
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
  /**
   * `run`, leaving the fork marker of a run that threw (named by the request that failed) and
   * clearing the marker of one that succeeded. A refusal (InteractError) is no failed run.
   */
  async function marked(
    tenantId: string,
    taskId: string,
    requestHash: string | null,
    markedBefore: boolean,
    run: () => Promise<unknown>,
  ): Promise<InteractStateType> {
    try {
      const values = await run();
      if (markedBefore) await locks.clearFork(tenantId, taskId);
      return values as InteractStateType;
    } catch (error) {
      if (!(error instanceof InteractError)) {
        await locks.markFork(tenantId, taskId, requestHash).catch((markError: unknown) => {
          log.error('fork marker write failed', { taskId, error: markError });
        });
      }
      throw error;
    }
  }
  return {
    start(taskId, input, requestHash) {
      // A marker an earlier run of the task left is read by the next resume, which clears it.
      return marked(input.tenantId, taskId, requestHash, false, () =>
        graph.invoke(input, runConfig(taskId)),
      );
    },
    async failedOn(tenantId, taskId, requestHash) {
      if (requestHash === null) return false;
      if ((await locks.fork(tenantId, taskId))?.requestHash !== requestHash) return false;
      return (await graph.getState(runConfig(taskId))).next.length > 0;
    },
    startAgain(tenantId, taskId, requestHash) {
      // The checkpoint a throwing run leaves holds every node's output up to the one that
      // failed: the same request sent again asks the model only from there on.
      return marked(tenantId, taskId, requestHash, true, () =>
        graph.invoke(null, runConfig(taskId)),
      );
    },
    async resume(tenantId, taskId, input, requestHash) {
      // A thread is paused before dispatch unless the previous run threw: a process killed
      // mid-run writes nothing (durability 'exit'), and every refusal in a continuation fails
      // the task. A run that threw checkpoints where it failed and leaves a fork marker, so
      // the common path resumes without first loading the whole checkpoint through getState
      // (15% of a step's CPU). The request's page reaches dispatch as the run's context.
      const config = runConfig(taskId);
      const context: InteractRunContext = { resume: input };
      const fork = await locks.fork(tenantId, taskId);
      // The request that threw, sent again (same key and body, so the same page): its run
      // took in this page already and goes on from the node that threw, asking the model only
      // from there. Another request (a page captured anew) replays from the last pause.
      const sameRequest = fork !== null && requestHash !== null && fork.requestHash === requestHash;
      return marked(tenantId, taskId, requestHash, fork !== null, () =>
        fork === null || sameRequest
          ? graph.invoke(null, { ...config, context })
          : forkFromLastPause(graph, config, context),
      );
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
