// Gemini function calling for LlmClient.converse: the conversation as `contents` (the model's
// turns replayed verbatim, thought signatures included, which Gemini requires back with its
// function calls), the tools as function declarations with JSON Schema parameters, and the
// answer read back into text and tool calls.
import {
  FunctionCallingConfigMode,
  type Content,
  type GenerateContentParameters,
  type Part,
} from '@google/genai';
import { geminiNoOutput, readGeminiCandidate, type GeminiResponse } from './gemini-answer';
import type { GeminiRequestOptions } from './gemini-request';
import type { LlmMessage, LlmToolCall } from './port';
import type { ProviderConverseRequest, ProviderConverseResponse } from './provider';

/**
 * Ids we made up for calls Gemini sent without one. Gemini pairs such a call with its response
 * by name and order, so the response goes back without an id, as the call came.
 */
const LOCAL_ID = 'gemini-local-';

/** What a Gemini model turn keeps for its replay. */
interface GeminiTurnState {
  provider: 'GOOGLE';
  content: Content;
}

const isGeminiState = (value: unknown): value is GeminiTurnState =>
  typeof value === 'object' &&
  value !== null &&
  (value as { provider?: unknown }).provider === 'GOOGLE' &&
  typeof (value as { content?: unknown }).content === 'object';

function modelTurn(message: Extract<LlmMessage, { role: 'assistant' }>): Content {
  if (isGeminiState(message.providerState)) return message.providerState.content;
  const parts: Part[] = [
    ...(message.text !== '' ? [{ text: message.text }] : []),
    ...message.toolCalls.map((call) => ({
      functionCall: {
        ...(call.id.startsWith(LOCAL_ID) ? {} : { id: call.id }),
        name: call.name,
        args: call.args,
      },
    })),
  ];
  return { role: 'model', parts };
}

function functionResponse(message: Extract<LlmMessage, { role: 'tool' }>): Part {
  return {
    functionResponse: {
      ...(message.toolCallId.startsWith(LOCAL_ID) ? {} : { id: message.toolCallId }),
      name: message.name,
      // Gemini's convention: `output` for a result, `error` for a failure the model can fix.
      response: message.isError ? { error: message.content } : { output: message.content },
    },
  };
}

/** The conversation as Gemini contents; the responses to one turn's calls share one content. */
export function geminiContents(messages: readonly LlmMessage[]): Content[] {
  const contents: Content[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      contents.push({ role: 'user', parts: [{ text: message.text }] });
    } else if (message.role === 'assistant') {
      contents.push(modelTurn(message));
    } else {
      const last = contents[contents.length - 1];
      const part = functionResponse(message);
      if (last?.role === 'user' && last.parts?.every((p) => p.functionResponse !== undefined)) {
        last.parts.push(part);
      } else {
        contents.push({ role: 'user', parts: [part] });
      }
    }
  }
  return contents;
}

export function geminiConverseRequest(
  request: ProviderConverseRequest,
  options: GeminiRequestOptions,
  fetch: typeof globalThis.fetch,
): GenerateContentParameters {
  return {
    model: request.model,
    contents: geminiContents(request.messages),
    config: {
      ...(request.system !== '' ? { systemInstruction: request.system } : {}),
      tools: [
        {
          functionDeclarations: request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            parametersJsonSchema: tool.jsonSchema,
          })),
        },
      ],
      toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } },
      abortSignal: request.signal,
      httpOptions: { fetch },
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.thinkingBudget !== undefined
        ? { thinkingConfig: { thinkingBudget: options.thinkingBudget } }
        : {}),
    },
  };
}

export function readGeminiTurn(
  response: GeminiResponse,
  requestedModel: string,
): ProviderConverseResponse {
  const { usage, candidate, parts, text, finishReason: reason } = readGeminiCandidate(response);
  const toolCalls: LlmToolCall[] = parts.flatMap((part, index) => {
    const call = part.functionCall;
    if (!call?.name) return [];
    const args = call.args ?? {};
    return [
      {
        id: call.id ?? `${LOCAL_ID}${index}`,
        name: call.name,
        args: typeof args === 'object' && !Array.isArray(args) ? args : {},
      },
    ];
  });
  if (text === '' && toolCalls.length === 0 && reason !== null && reason !== 'STOP') {
    // A malformed call is worth another try; a safety stop gets the one retry of a blocked
    // candidate (see geminiNoOutput).
    throw geminiNoOutput(reason, usage, reason === 'MALFORMED_FUNCTION_CALL');
  }
  const state: GeminiTurnState | undefined = candidate?.content
    ? { provider: 'GOOGLE', content: { role: 'model', parts } }
    : undefined;
  return {
    text,
    toolCalls,
    ...(state ? { providerState: state } : {}),
    usage,
    model: response.modelVersion ?? requestedModel,
  };
}
