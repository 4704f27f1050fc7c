// A new task (docs/specs.md, "High-Level Loop"): the user's goal as the session's message, RAG for
// it, and the graph's first run from complexity_check to its first pause. The task row is written
// only once the run decided an action (a question creates no task), or when the model failed the
// run: its calls are billed to the task's id, and every billed call belongs to a task record.
import { withoutMarkers } from '../routines/parameters';
import { createHash, randomUUID } from 'node:crypto';
import { taskSites, type InteractResponse } from '@tandem/contracts';
import { LlmCallError } from '@tandem/llm';
import type { Task } from '@tandem/store';
import { withPageData } from '../engines/site-data';
import { inferCollectLimit } from '../collect/extraction-goal';
import type { InteractStateType } from '../state';
import type { InteractContext, RequestScope } from './context';
import { conversationFor } from './conversation';
import { ragContextFor } from './rag-context';
import { InteractError, modelRefusal } from './interact-error';
import { answerRun } from './run-answer';

/** The graph's first run of a new task, from a clean thread. */
async function firstRun(
  ctx: InteractContext,
  scope: RequestScope,
  taskId: string,
  goalSaid: boolean,
): Promise<InteractStateType> {
  const { caller, request, page, sessionId } = scope;
  const query = (request.query ?? '').trim();
  // An earlier attempt of this request may have left its graph thread: this run starts clean.
  if (request.idempotencyKey) await ctx.store.checkpointer.deleteThread(taskId);
  // What was said before this goal (a follow-up such as "now do the same for John Smith"
  // refers to it); the goal itself is the state's query.
  const conversation = request.sessionId
    ? await conversationFor(ctx.store, caller.tenantId, sessionId)
    : '';
  if (!goalSaid)
    await ctx.store.messages.append(caller.tenantId, { sessionId, role: 'user', content: query });
  const ragContext = await ragContextFor(ctx.rag, {
    tenantId: caller.tenantId,
    url: request.url,
    query,
  });
  return ctx.runner.start(
    taskId,
    {
      taskId,
      tenantId: caller.tenantId,
      userId: caller.userId,
      sessionId,
      // The model reads the goal without `{{…}}` markers; routines read it as typed.
      query: withoutMarkers(query),
      goalAsTyped: query,
      page,
      ragContext,
      conversation,
      requestCount: 1,
      collectLimit: request.collectLimit ?? inferCollectLimit(query),
      // What the task may do, fixed when it starts (nodes/action-policy.ts).
      sites: taskSites(request.url, request.sites ?? []),
      secrets: request.secrets ?? [],
      routineRequest: request.routine ?? null,
      siteData: { ...withPageData({}, page) },
    },
    scope.requestHash,
  );
}

/**
 * A new task's id. A first request sent again under its idempotency key (the extension resends a
 * request the server failed) gets the same id, so the model calls of every attempt are billed to
 * the one task that the attempt which succeeds records (or that a failed one leaves, failed).
 */
export function provisionalTaskId(tenantId: string, idempotencyKey: string | undefined): string {
  if (!idempotencyKey) return randomUUID();
  const hex = createHash('sha256').update(`${tenantId}\n${idempotencyKey}`).digest('hex');
  // Shaped as a version-4 UUID (version and variant bits set), like the random ids beside it.
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The result of a first attempt the model failed, which a resend of the request may revive. */
export const FAILED_START =
  'The language model failed to answer before the first step; the request can be sent again.';

/**
 * The record an earlier attempt of this request left when the model failed it, revived by this
 * one; null when there is none. One the model refused stays failed (a resend will not change
 * it); any other task under this id means the key was reused for another goal.
 */
async function earlierAttempt(
  ctx: InteractContext,
  tenantId: string,
  taskId: string,
  query: string,
): Promise<Task | null> {
  const earlier = await ctx.store.tasks.get(tenantId, taskId);
  if (!earlier) return null;
  const firstAttempt = earlier.query === query && earlier.metrics.totalSteps === 0;
  if (firstAttempt && earlier.status === 'failed' && earlier.result === FAILED_START)
    return earlier;
  if (firstAttempt && earlier.status === 'failed')
    throw new InteractError('TASK_FAILED', earlier.result ?? 'This task failed.');
  throw new InteractError('CONFLICT', 'idempotencyKey was already used for a different request.');
}

/** A first attempt the model failed: its task, failed, so that the calls it made have a record. */
async function recordFailedStart(
  ctx: InteractContext,
  scope: RequestScope,
  taskId: string,
  earlier: Task | null,
  result: string,
): Promise<void> {
  const { caller, request, sessionId } = scope;
  const failed = { status: 'failed' as const, result };
  try {
    if (earlier) await ctx.store.tasks.update(caller.tenantId, taskId, failed);
    else
      await ctx.store.tasks.create(caller.tenantId, {
        ...failed,
        id: taskId,
        userId: caller.userId,
        sessionId,
        url: request.url,
        query: (request.query ?? '').trim(),
      });
  } catch (error) {
    // The request's own error is what the client must see; this one is only logged.
    scope.log.error('failed first attempt not recorded', { taskId, error });
  }
}

/**
 * The session of this request's first attempt when that attempt's run threw and left a node to
 * run again: the resend goes on in it (a request that names no session would otherwise open a
 * new one, apart from the run it resumes). Null otherwise.
 */
export async function sessionOfFailedStart(
  ctx: InteractContext,
  tenantId: string,
  taskId: string,
  requestHash: string | null,
): Promise<string | null> {
  if (requestHash === null) return null;
  const earlier = await ctx.store.tasks.get(tenantId, taskId);
  if (earlier?.status !== 'failed' || earlier.result !== FAILED_START || !earlier.sessionId)
    return null;
  return (await ctx.runner.failedOn(tenantId, taskId, requestHash)) ? earlier.sessionId : null;
}

/** `taskId` is provisional until the first step is recorded: logs and traces carry it already. */
export async function startTask(
  ctx: InteractContext,
  scope: RequestScope,
  taskId: string,
): Promise<InteractResponse> {
  const { caller, request, page, sessionId } = scope;
  const query = (request.query ?? '').trim();
  const log = scope.log.child({ taskId });
  log.info('new task', { query, sessionId, elements: page.tree.length });
  const failedBefore = await earlierAttempt(ctx, caller.tenantId, taskId, query);
  // The first attempt said the goal in this session already.
  const goalSaid = failedBefore?.sessionId === sessionId;
  // The same request as the attempt whose run threw: that run goes on from the node that threw.
  const again = goalSaid && (await ctx.runner.failedOn(caller.tenantId, taskId, scope.requestHash));
  // Revived into this attempt's session (a request without one opens a new session each time,
  // unless it resumes its first attempt's run).
  const earlier = failedBefore
    ? await ctx.store.tasks.update(caller.tenantId, taskId, {
        sessionId,
        status: 'executing',
        result: null,
      })
    : null;
  const run =
    again && scope.requestHash !== null
      ? ctx.runner.startAgain(caller.tenantId, taskId, scope.requestHash)
      : firstRun(ctx, { ...scope, log }, taskId, goalSaid);
  const state = await run.catch(async (error: unknown) => {
    if (!(error instanceof LlmCallError)) throw error;
    const refusal = modelRefusal(error);
    if (refusal) log.warn('model refused', { error });
    await recordFailedStart(
      ctx,
      { ...scope, log },
      taskId,
      earlier,
      refusal?.message ?? FAILED_START,
    );
    throw refusal ?? error;
  });
  return answerRun(ctx, { ...scope, log }, state, { existing: earlier, verifiedActionId: null });
}
