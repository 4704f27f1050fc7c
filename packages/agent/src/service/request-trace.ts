// One LangFuse trace per interact request (`interact-request-{taskId}`), when tracing is on:
// every node span, generation and score of the request hangs under it.
import type { InteractRequest, InteractResponse } from '@tandem/contracts';
import { interactTraceName, type Tracing } from '@tandem/observability';
import type { InteractCaller } from './context';

export function traceRequest(
  tracing: Tracing | undefined,
  input: { caller: InteractCaller; request: InteractRequest; taskId: string },
  answer: () => Promise<InteractResponse>,
): Promise<InteractResponse> {
  if (!tracing?.enabled) return answer();
  const { caller, request, taskId } = input;
  return tracing.startTrace(
    interactTraceName(taskId),
    {
      tenantId: caller.tenantId,
      userId: caller.userId,
      sessionId: request.sessionId ?? null,
      taskId,
      tags: [request.taskId ? 'continuation' : 'new-task'],
      input: { query: request.query ?? null, url: request.url },
    },
    async (trace) => {
      const response = await answer();
      trace.setOutput(
        response.needsUserInput
          ? { needsUserInput: true, message: response.message }
          : { action: response.action ?? null, status: response.status, thought: response.thought },
      );
      return response;
    },
  );
}
