// A new task (docs/specs.md, "High-Level Loop"): the user's goal as the session's message, RAG for
// it, and the graph's first run from complexity_check to its first pause. The task row is written
// only once the run decided an action (a question creates no task).
import { taskSites, type InteractResponse } from '@tandem/contracts';
import { withPageData } from '../engines/site-data';
import { inferCollectLimit } from '../collect/extraction-goal';
import type { InteractContext, RequestScope } from './context';
import { conversationFor } from './conversation';
import { ragContextFor } from './rag-context';
import { modelRefusal } from './interact-error';
import { answerRun } from './run-answer';

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
  // What was said before this goal (a follow-up such as "now do the same for John Smith"
  // refers to it); the goal itself is the state's query.
  const conversation = request.sessionId
    ? await conversationFor(ctx.store, caller.tenantId, sessionId)
    : '';
  await ctx.store.messages.append(caller.tenantId, { sessionId, role: 'user', content: query });
  const ragContext = await ragContextFor(ctx.rag, {
    tenantId: caller.tenantId,
    url: request.url,
    query,
  });
  const state = await ctx.runner
    .start(taskId, {
      taskId,
      tenantId: caller.tenantId,
      userId: caller.userId,
      sessionId,
      query,
      page,
      ragContext,
      conversation,
      requestCount: 1,
      collectLimit: request.collectLimit ?? inferCollectLimit(query),
      // What the task may do, fixed when it starts (nodes/action-policy.ts).
      sites: taskSites(request.url, request.sites ?? []),
      secrets: request.secrets ?? [],
      siteData: { ...withPageData({}, page) },
    })
    .catch((error: unknown) => {
      const refusal = modelRefusal(error);
      if (!refusal) throw error;
      log.warn('model refused', { error });
      throw refusal;
    });
  return answerRun(ctx, { ...scope, log }, state, { existing: null, verifiedActionId: null });
}
