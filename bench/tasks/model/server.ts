// The scripted model behind the Gemini REST API on loopback: the real server's real
// @google/genai SDK calls it through GEMINI_BASE_URL, so every figure the bench prints comes
// from the server's own records of real HTTP calls. Token counts are estimated as characters
// / 4 (like the e2e fake); the server prices them as it prices Gemini's.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answer, nodeOf } from './answer';

interface GeminiRequest {
  systemInstruction?: { parts: { text?: string }[] };
  contents: { parts: { text?: string }[] }[];
}

export interface ScriptedModel {
  url: string;
  /** Calls answered per graph node (a cross-check; the bench reports the server's counts). */
  calls: Map<string, number>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += (chunk as Buffer).toString();
  return body;
}

function reply(system: string, prompt: string, calls: Map<string, number>): string {
  const node = nodeOf(system);
  calls.set(node, (calls.get(node) ?? 0) + 1);
  return geminiTextResponse(JSON.stringify(answer(node, prompt)), system.length + prompt.length);
}

/** A Gemini `generateContent` answer with `text`, its usage estimated at 4 characters a token. */
export function geminiTextResponse(text: string, promptChars: number): string {
  const input = Math.ceil(promptChars / 4);
  const output = Math.ceil(text.length / 4);
  return JSON.stringify({
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: input,
      candidatesTokenCount: output,
      totalTokenCount: input + output,
    },
    modelVersion: 'gemini-2.5-flash',
  });
}

export async function startScriptedModel(): Promise<ScriptedModel> {
  const calls = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    readBody(req)
      .then((raw) => {
        const body = JSON.parse(raw) as GeminiRequest;
        const system = body.systemInstruction?.parts.map((p) => p.text ?? '').join('\n') ?? '';
        const prompt = body.contents.flatMap((c) => c.parts.map((p) => p.text ?? '')).join('\n');
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(reply(system, prompt, calls));
      })
      .catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 500, message: String(error) } }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
