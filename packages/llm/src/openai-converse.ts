// OpenAI-compatible tool calling for LlmClient.converse: the conversation as chat messages
// (assistant `tool_calls`, `tool` messages), the tools as `function` tools with JSON Schema
// parameters, and the answer's tool calls read back, arguments that are not JSON included.
import { jsonDataProblem } from '@tandem/contracts';
import type OpenAI from 'openai';
import { readOpenAiChoice, toProviderError } from './openai-compatible-provider';
import type { LlmMessage, LlmToolCall } from './port';
import type { ProviderConverseRequest, ProviderConverseResponse } from './provider';

export async function openAiConverse(
  client: OpenAI,
  request: ProviderConverseRequest,
  apiKey: string | undefined,
  temperature: number | undefined,
): Promise<ProviderConverseResponse> {
  let completion: OpenAI.Chat.ChatCompletion;
  try {
    completion = await client.chat.completions.create(
      {
        model: request.model,
        messages: [
          ...(request.system !== '' ? [{ role: 'system' as const, content: request.system }] : []),
          ...request.messages.map(openAiMessage),
        ],
        tools: request.tools.map((tool) => ({
          type: 'function' as const,
          function: {
            name: tool.name,
            description: tool.description,
            parameters: { ...tool.jsonSchema },
          },
        })),
        tool_choice: 'auto',
        ...(temperature !== undefined ? { temperature } : {}),
      },
      { signal: request.signal },
    );
  } catch (error) {
    throw toProviderError(error, request.signal, apiKey);
  }
  const { message, usage } = readOpenAiChoice(completion, apiKey);
  const toolCalls = (message?.tool_calls ?? []).flatMap((call) =>
    call.type === 'function' ? [readToolCall(call.id, call.function)] : [],
  );
  return {
    text: message?.content ?? '',
    toolCalls,
    usage,
    model: completion.model || request.model,
  };
}

function openAiMessage(message: LlmMessage): OpenAI.Chat.ChatCompletionMessageParam {
  if (message.role === 'user') return { role: 'user', content: message.text };
  if (message.role === 'tool') {
    // No error flag in the chat format: the content says so.
    return {
      role: 'tool',
      tool_call_id: message.toolCallId,
      content: message.isError ? `Error: ${message.content}` : message.content,
    };
  }
  return {
    role: 'assistant',
    content: message.text === '' ? null : message.text,
    ...(message.toolCalls.length > 0
      ? {
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          })),
        }
      : {}),
  };
}

/** Arguments arrive as JSON text; a model can get that wrong, and then hears about it. */
function readToolCall(id: string, fn: { name: string; arguments: string }): LlmToolCall {
  const raw = fn.arguments.trim();
  if (raw === '') return { id, name: fn.name, args: {} };
  try {
    const args: unknown = JSON.parse(raw);
    if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
      // Arguments no copy can keep (a "__proto__" key, nesting past the bound) are sent back
      // as {} with the reason: kept, they would overflow the next turn's serialisation.
      const problem = jsonDataProblem(args);
      if (problem !== null) return { id, name: fn.name, args: {}, argsError: problem };
      return { id, name: fn.name, args: args as Record<string, unknown> };
    }
    return { id, name: fn.name, args: {}, argsError: 'The arguments must be a JSON object.' };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      id,
      name: fn.name,
      args: {},
      argsError: `The arguments were not valid JSON (${detail}).`,
    };
  }
}
