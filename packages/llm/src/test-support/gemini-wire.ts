// The Gemini REST API on loopback, for the scripted models of the e2e suite and the benches: the
// real server's real @google/genai SDK calls it through GEMINI_BASE_URL, so what they measure
// and assert comes from real HTTP calls. It holds no model logic: each scenario (e2e, bench
// tasks, soak, attacks, hostile) hands it a handler, so the HTTP plumbing, the request reading
// and the response shape are written once.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the wire received it: its JSON body parsed (undefined when empty). */
export interface WireRequest {
  method: string;
  /** The URL's path, without its query. */
  path: string;
  body: unknown;
}

/** What a handler answers: a JSON-able body, or JSON text sent as it is. */
export type WireReply = string | object;

export type WireHandler = (
  request: WireRequest,
  res: ServerResponse,
) => WireReply | Promise<WireReply>;

export interface GeminiWire {
  /** http://127.0.0.1:PORT: the GEMINI_BASE_URL the server is given. */
  url: string;
  close(): Promise<void>;
}

/** An image part of a request (hybrid mode's screenshot), as sent: base64 data. */
export interface InlineImage {
  mimeType: string;
  data: string;
}

interface GeminiBody {
  systemInstruction?: { parts?: { text?: string }[] };
  contents?: {
    parts?: { text?: string; inlineData?: InlineImage; functionResponse?: { name?: string } }[];
  }[];
  tools?: { functionDeclarations?: { name?: string }[] }[];
}

/** A `generateContent` request as a model reads it: system prompt, prompt text, images. */
export interface GeminiCall {
  system: string;
  prompt: string;
  images: InlineImage[];
  /** The functions it declares: a tool-calling turn's, else none. */
  tools: string[];
  /** The function whose result the request ends with (null: none, a turn's start). */
  answered: string | null;
}

/**
 * Throws on a body without `contents` (an embedding request, say), which the wire then answers
 * with a 500: a scenario that does not serve embeddings turns them down, it does not answer them
 * with text the SDK cannot read.
 */
export function readGeminiRequest(body: unknown): GeminiCall {
  const request = (body ?? {}) as GeminiBody;
  if (!Array.isArray(request.contents)) throw new Error('not a generateContent request');
  const parts = request.contents.flatMap((c) => c.parts ?? []);
  return {
    system: request.systemInstruction?.parts?.map((p) => p.text ?? '').join('\n') ?? '',
    prompt: parts.map((p) => p.text ?? '').join('\n'),
    images: parts.flatMap((p) => (p.inlineData ? [p.inlineData] : [])),
    tools: (request.tools ?? [])
      .flatMap((t) => t.functionDeclarations ?? [])
      .map((d) => d.name ?? ''),
    answered: request.contents.at(-1)?.parts?.at(-1)?.functionResponse?.name ?? null,
  };
}

/**
 * A `generateContent` answer of these parts, its usage estimated at 4 characters a token of
 * what was sent and what is answered.
 */
export function geminiResponse(
  parts: object[],
  sentChars: number,
  answerChars: number,
  model = 'gemini-2.5-flash',
): object {
  const input = Math.ceil(sentChars / 4);
  const output = Math.ceil(answerChars / 4);
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: input,
      candidatesTokenCount: output,
      totalTokenCount: input + output,
    },
    modelVersion: model,
  };
}

/** A `generateContent` answer with `text`. */
export const geminiTextResponse = (text: string, promptChars: number): object =>
  geminiResponse([{ text }], promptChars, text.length);

export async function startGeminiWire(handle: WireHandler): Promise<GeminiWire> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const request: WireRequest = {
          method: req.method ?? 'GET',
          path: new URL(req.url ?? '/', 'http://wire.invalid').pathname,
          body: text === '' ? undefined : (JSON.parse(text) as unknown),
        };
        const reply = await handle(request, res);
        if (res.writableEnded || res.destroyed) return;
        res
          .writeHead(res.statusCode, { 'content-type': 'application/json' })
          .end(typeof reply === 'string' ? reply : JSON.stringify(reply));
      })().catch((error: unknown) => {
        if (res.headersSent) return void res.destroy();
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 500, message: String(error) } }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
