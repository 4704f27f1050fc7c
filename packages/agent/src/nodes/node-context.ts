// What every node needs around a model call: its logger, the call's context (who the tokens
// are billed to) and the task's running token totals.
import type { AgentDeps } from '../deps';
import type { LlmCallContext, LlmResult } from '@tandem/llm';
import type { GraphNode } from '@tandem/contracts';
import { priceUsage, type Logger } from '@tandem/observability';
import type { InteractStateType } from '../state';

export const logFor = (deps: AgentDeps, state: InteractStateType, node: GraphNode): Logger =>
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
  return withSpent(state, {
    input: result.usage.inputTokens,
    output: result.usage.outputTokens,
    calls: 1,
    costMicroUsd: priceUsage(result.model, result.usage),
  });
}

/** Adds calls already priced elsewhere (an extraction's chunk calls) to the task's totals. */
export function withSpent(
  state: Pick<InteractStateType, 'tokens'>,
  spent: { input: number; output: number; calls: number; costMicroUsd: number },
): InteractStateType['tokens'] {
  return {
    ...state.tokens,
    input: state.tokens.input + spent.input,
    output: state.tokens.output + spent.output,
    calls: state.tokens.calls + spent.calls,
    costMicroUsd: (state.tokens.costMicroUsd ?? 0) + spent.costMicroUsd,
  };
}

/**
 * A node that went on without its model call (the critic, the final answer) says so where
 * people look: a note for the step's thought, and a score on the request's trace.
 */
export function fellBack(deps: AgentDeps, node: GraphNode, note: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  if (deps.tracing?.enabled)
    deps.tracing.score({
      name: 'model_fallback',
      value: 1,
      dataType: 'BOOLEAN',
      comment: `${node}: ${note} (${reason})`,
    });
  return `(${note}: its model call failed.)`;
}
