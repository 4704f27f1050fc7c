// What every node needs around a model call: its logger, the call's context (who the tokens
// are billed to) and the task's running token totals.
import type { AgentDeps, AgentLogger } from '../deps';
import type { LlmCallContext, LlmResult } from '../llm/port';
import type { GraphNode } from '@tandem/contracts';
import { priceUsage } from '@tandem/observability';
import type { InteractStateType } from '../state';

export const logFor = (deps: AgentDeps, state: InteractStateType, node: GraphNode): AgentLogger =>
  deps.log.child({ taskId: state.taskId, node });

export const llmContext = (state: InteractStateType): LlmCallContext => ({
  tenantId: state.tenantId,
  userId: state.userId,
  sessionId: state.sessionId,
  taskId: state.taskId,
});

/** Adds several calls' tokens and cost (a web search's judge calls) to the task's totals. */
export function withUsageOf(
  state: Pick<InteractStateType, 'tokens'>,
  results: readonly Pick<LlmResult<unknown>, 'usage' | 'model'>[],
): InteractStateType['tokens'] {
  return results.reduce((tokens, result) => withUsage({ tokens }, result), state.tokens);
}

/** Adds one call's tokens and cost (priced as the usage log prices it) to the task's totals. */
export function withUsage(
  state: Pick<InteractStateType, 'tokens'>,
  result: Pick<LlmResult<unknown>, 'usage' | 'model'>,
): InteractStateType['tokens'] {
  return {
    ...state.tokens,
    input: state.tokens.input + result.usage.inputTokens,
    output: state.tokens.output + result.usage.outputTokens,
    calls: state.tokens.calls + 1,
    costMicroUsd: (state.tokens.costMicroUsd ?? 0) + priceUsage(result.model, result.usage),
  };
}
