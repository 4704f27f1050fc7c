// One tool-calling turn through the client's policies (converse on the LlmClient port): the
// tools' JSON Schemas converted once, the same retries and timeout as generate, and exactly one
// usage event whose input is the conversation so far, so LangFuse shows what the model read.
import { z } from 'zod';
import { withRetries, type RetrySettings } from './complete-with-retries';
import { callFailure, startCall, usageEventOf } from './llm-call';
import type { UsageEvent } from '@tandem/observability';
import type { LlmConverseRequest, LlmConverseResult, LlmMessage, LlmRequest } from './port';
import { addUsage, type ModelProvider, type ProviderTool } from './provider';
import { toProviderJsonSchema } from './structured-output';

const TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;

/** The turn's output has no schema of its own: the caller checks each tool call's arguments. */
const ANY_OUTPUT = z.unknown();

export function providerTools(request: LlmConverseRequest): ProviderTool[] {
  return request.tools.map((tool) => {
    if (!TOOL_NAME.test(tool.name)) throw new Error(`Invalid tool name: ${tool.name}`);
    return {
      name: tool.name,
      description: tool.description,
      jsonSchema: toProviderJsonSchema(tool.schema),
    };
  });
}

/** The conversation as the trace shows it: one block per turn. */
export function transcript(messages: readonly LlmMessage[]): string {
  return messages
    .map((message) => {
      if (message.role === 'user') return `user: ${message.text}`;
      if (message.role === 'tool') {
        return `tool ${message.name}${message.isError ? ' (error)' : ''}: ${message.content}`;
      }
      const calls = message.toolCalls.map((c) => `${c.name}(${JSON.stringify(c.args)})`);
      return `assistant: ${[message.text, ...calls].filter((part) => part !== '').join('\n')}`;
    })
    .join('\n\n');
}

export async function converseWithRetries(
  provider: ModelProvider,
  request: LlmConverseRequest,
  settings: RetrySettings,
  maxRetries: number,
  emit: (event: UsageEvent) => void,
): Promise<LlmConverseResult> {
  // The call's bookkeeping (model, tokens, retry budget, usage event) is generate's; its
  // request stands for the conversation in the trace.
  const asTraced: LlmRequest<typeof ANY_OUTPUT> = {
    node: request.node,
    actionType: request.actionType,
    system: request.system,
    prompt: transcript(request.messages),
    schema: ANY_OUTPUT,
    context: request.context,
    ...(request.signal !== undefined ? { signal: request.signal } : {}),
  };
  const call = startCall(provider, asTraced, maxRetries);
  try {
    const converse = provider.converse?.bind(provider);
    if (converse === undefined) {
      throw callFailure(call, `${provider.name} does not support tool calling.`, false);
    }
    const tools = providerTools(request);
    const response = await withRetries(call, settings, (signal) =>
      converse({
        node: request.node,
        model: call.model,
        system: request.system,
        messages: request.messages,
        tools,
        context: request.context,
        signal,
        origin: request,
      }),
    );
    call.usage = addUsage(call.usage, response.usage);
    call.model = response.model;
    const latencyMs = performance.now() - call.started;
    emit(
      usageEventOf(call, latencyMs, {
        output: { text: response.text, toolCalls: response.toolCalls },
      }),
    );
    return {
      text: response.text,
      toolCalls: response.toolCalls,
      ...(response.providerState !== undefined ? { providerState: response.providerState } : {}),
      usage: call.usage,
      model: call.model,
      provider: provider.name,
      latencyMs,
      generationId: call.generationId,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    emit(usageEventOf(call, performance.now() - call.started, { error: message }));
    throw error;
  }
}
