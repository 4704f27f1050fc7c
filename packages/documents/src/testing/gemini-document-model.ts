// The scripted document model behind a loopback Gemini API (route tests, the e2e server, the
// benchmark): a generateContent body in, the model's turn as Gemini's response out, so the
// server's real @google/genai SDK sends function declarations, calls and responses over HTTP.
import { geminiResponse } from '@tandem/llm/testing';
import type { Json, ModelMessage, ModelTurn } from './document-model';
import { documentModelTurn, stackModelTurn } from './document-scenarios';

interface GeminiPart {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name?: string; args?: Json };
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

const declared = (body: GeminiToolRequest) =>
  (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
/** Whether a generateContent body is a tool-calling turn (it declares functions). */
export const isToolCallingRequest = (body: unknown): body is GeminiToolRequest =>
  typeof body === 'object' && body !== null && declared(body as GeminiToolRequest).length > 0;

/** Gemini contents as the conversation the scripted model reads (thoughts left out). */
const messagesOf = (body: GeminiToolRequest): ModelMessage[] =>
  (body.contents ?? []).flatMap(({ role, parts = [] }): ModelMessage[] => {
    if (role === 'model') {
      const text = parts
        .map((p) => (typeof p.text === 'string' && !p.thought ? p.text : ''))
        .join('');
      const calls = parts.flatMap(({ functionCall: f }) =>
        f?.name ? [{ name: f.name, args: f.args ?? {} }] : [],
      );
      return [{ role: 'assistant', text, toolCalls: calls }];
    }
    return parts.flatMap(({ text, functionResponse: f }): ModelMessage[] => {
      if (!f) return typeof text === 'string' ? [{ role: 'user', text }] : [];
      const { output, error } = f.response ?? {};
      const [isError, name] = [error !== undefined, f.name ?? ''];
      return [{ role: 'tool', name, content: String(isError ? error : (output ?? '')), isError }];
    });
  });

/** The scripted model's turn for a Gemini request: a stack's or a document's, by the tools. */
export function scriptedTurnForGemini(body: GeminiToolRequest): ModelTurn {
  const stack = declared(body).some((d) => d.name === 'extract_row');
  return (stack ? stackModelTurn : documentModelTurn)(messagesOf(body));
}

/** A generateContent response carrying `turn` (by default the scripted model's). */
export function geminiTurnResponse(
  body: GeminiToolRequest,
  turn: ModelTurn = scriptedTurnForGemini(body),
  model?: string,
) {
  const calls = (turn.toolCalls ?? []).map(({ name, args }, index) => ({
    functionCall: { id: `fc-${index}-${name}`, name, args },
  }));
  const parts: GeminiPart[] = [...(turn.text ? [{ text: turn.text }] : []), ...calls];
  const sent = JSON.stringify(body.contents ?? []) + JSON.stringify(body.systemInstruction ?? '');
  return geminiResponse(parts, sent.length, JSON.stringify(parts).length, model);
}
