// The scripted document model behind a loopback Gemini API (route tests, the e2e server, the
// benchmark): a generateContent request body in, the model's turn as Gemini's response out.
// The server's real @google/genai SDK talks to it, so function declarations, calls, responses
// and usage all cross a real HTTP boundary.
import {
  documentModelTurn,
  stackModelTurn,
  type ModelMessage,
  type ModelTurn,
} from './document-model';

interface GeminiPart {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  functionResponse?: {
    id?: string;
    name?: string;
    response?: { output?: unknown; error?: unknown };
  };
}

export interface GeminiToolRequest {
  systemInstruction?: { parts?: { text?: string }[] };
  contents?: { role?: string; parts?: GeminiPart[] }[];
  tools?: { functionDeclarations?: { name?: string }[] }[];
}

/** Whether a generateContent body is a tool-calling turn (it declares functions). */
export const isToolCallingRequest = (body: unknown): body is GeminiToolRequest =>
  typeof body === 'object' &&
  body !== null &&
  ((body as GeminiToolRequest).tools ?? []).some((t) => (t.functionDeclarations ?? []).length > 0);

/** Gemini contents as the conversation the scripted model reads. */
export function messagesOfGemini(body: GeminiToolRequest): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const content of body.contents ?? []) {
    const parts = content.parts ?? [];
    if (content.role === 'model') {
      messages.push({
        role: 'assistant',
        text: parts
          .filter((p) => typeof p.text === 'string' && !p.thought)
          .map((p) => p.text)
          .join(''),
        toolCalls: parts.flatMap((p) =>
          p.functionCall?.name
            ? [{ name: p.functionCall.name, args: p.functionCall.args ?? {} }]
            : [],
        ),
      });
      continue;
    }
    for (const part of parts) {
      if (part.functionResponse) {
        const response = part.functionResponse.response ?? {};
        const isError = response.error !== undefined;
        messages.push({
          role: 'tool',
          name: part.functionResponse.name ?? '',
          content: String(isError ? response.error : (response.output ?? '')),
          isError,
        });
      } else if (typeof part.text === 'string') {
        messages.push({ role: 'user', text: part.text });
      }
    }
  }
  return messages;
}

/** The scripted model's turn for a Gemini request: stacks or single documents, by the tools declared. */
export function scriptedTurnForGemini(body: GeminiToolRequest): ModelTurn {
  const declared = (body.tools ?? [])
    .flatMap((t) => t.functionDeclarations ?? [])
    .map((d) => d.name);
  const messages = messagesOfGemini(body);
  return declared.includes('extract_row') ? stackModelTurn(messages) : documentModelTurn(messages);
}

/** A generateContent response carrying `turn`, with usage at about four characters a token. */
export function geminiTurnResponse(
  body: GeminiToolRequest,
  turn: ModelTurn,
  model = 'gemini-2.5-flash',
) {
  const parts: GeminiPart[] = [
    ...(turn.text ? [{ text: turn.text }] : []),
    ...(turn.toolCalls ?? []).map((call, index) => ({
      functionCall: { id: `fc-${index}-${call.name}`, name: call.name, args: call.args },
    })),
  ];
  const promptChars =
    JSON.stringify(body.contents ?? []).length +
    JSON.stringify(body.systemInstruction ?? '').length;
  const promptTokenCount = Math.ceil(promptChars / 4);
  const candidatesTokenCount = Math.ceil(JSON.stringify(parts).length / 4);
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount,
      candidatesTokenCount,
      totalTokenCount: promptTokenCount + candidatesTokenCount,
    },
    modelVersion: model,
  };
}
