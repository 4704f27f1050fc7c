// The interact flow (docs/specs.md, "High-Level Loop") around the graph, read top to bottom as a
// request's story: an idempotent replay when the request was already answered; a trace; the
// request's page and session; then either a new task's first step (start-task.ts) or the next step
// of a paused task (continue-task.ts). Both run the graph (graph-runner.ts) and answer through one
// outcome mapping (run-answer.ts), which records the step (record-step.ts).
import type { Logger } from '@tandem/observability';
import type { CancelTaskResponse, InteractRequest, InteractResponse } from '@tandem/contracts';
import type { Store } from '@tandem/store';
import type { TaskEventHub } from '../collect/event-hub';
import type { AgentDeps } from '../deps';
import { buildInteractGraph, type InteractGraph } from '../graph';
import { htmlOf, pageStateFrom } from '../page/page-state';
import type { RagService } from '../rag/port';
import { cancelTask } from './cancel-task';
import { continueTask } from './continue-task';
import type { InteractCaller, InteractContext } from './context';
import { createGraphRunner } from './graph-runner';
import { replayIdempotent, requestHash } from './idempotent-replay';
import { traceRequest } from './request-trace';
import { openSession } from './session';
import { provisionalTaskId, sessionOfFailedStart, startTask } from './start-task';
import { idempotencyTaskLocks } from './task-locks';

export { InteractError } from './interact-error';
export type { InteractCaller } from './context';

export interface InteractServiceOptions {
  store: Store;
  deps: AgentDeps;
  rag: RagService;
  /** Live step/done events for the SSE route (the popup's live view); absent: none sent. */
  events?: TaskEventHub;
  /** Lock lease: a crashed request frees its task after this long. */
  lockTtlMs?: number;
  /**
   * Digests a full DOM the extension sent (up to 5 M characters of untrusted HTML) off the
   * request's thread: the server's parse pool. By default on the calling thread.
   */
  digestHtml?: (tenantId: string, html: string) => Promise<string>;
}

export interface InteractService {
  interact(
    caller: InteractCaller,
    request: InteractRequest,
    log?: Logger,
  ): Promise<InteractResponse>;
  /** Stop: the task is cancelled; a request of it still running answers TASK_CANCELLED. */
  cancel(caller: InteractCaller, taskId: string): Promise<CancelTaskResponse>;
  readonly graph: InteractGraph;
}

export function createInteractService(options: InteractServiceOptions): InteractService {
  const { store } = options;
  // Routines are read from the task's own store unless the caller gives another source.
  const deps = { routines: store.routines, ...options.deps };
  const graph = buildInteractGraph(deps, store.checkpointer);
  const locks = idempotencyTaskLocks(store.idempotency, { lockTtlMs: options.lockTtlMs });
  const ctx: InteractContext = {
    store,
    deps,
    rag: options.rag,
    ...(options.events ? { events: options.events } : {}),
    locks,
    runner: createGraphRunner(graph, locks, deps.log),
    ...(options.digestHtml ? { digestHtml: options.digestHtml } : {}),
  };
  return {
    graph,
    interact: (caller, request, log = deps.log) =>
      replayIdempotent(store.idempotency, caller.tenantId, request, () => {
        // A new task gets its provisional id here, so the trace carries it from the first span.
        const taskId = request.taskId ?? provisionalTaskId(caller.tenantId, request.idempotencyKey);
        return traceRequest(deps.tracing, { caller, request, taskId }, () =>
          answer(ctx, { caller, request, log, taskId }),
        );
      }),
    cancel: (caller, taskId) =>
      cancelTask(store, options.events, { tenantId: caller.tenantId, taskId }),
  };
}

/** The request's page and session, then a new task's first step or a paused task's next. */
async function answer(
  ctx: InteractContext,
  input: { caller: InteractCaller; request: InteractRequest; log: Logger; taskId: string },
): Promise<InteractResponse> {
  const { caller, request, log, taskId } = input;
  const started = Date.now();
  const html = htmlOf(request);
  const digest =
    html !== null && ctx.digestHtml ? await ctx.digestHtml(caller.tenantId, html) : undefined;
  const page = pageStateFrom(request, digest);
  const hash = request.idempotencyKey ? requestHash(request) : null;
  // A first request sent again after its run threw goes on in the session it began in.
  const sessionId =
    (!request.taskId && !request.sessionId
      ? await sessionOfFailedStart(ctx, caller.tenantId, taskId, hash)
      : null) ?? (await openSession(ctx.store, caller, request));
  const scope = { caller, request, page, sessionId, requestHash: hash, started, log };
  return request.taskId ? continueTask(ctx, scope, taskId) : startTask(ctx, scope, taskId);
}
