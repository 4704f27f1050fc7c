// A loopback embeddings server for tests and the offline benchmark: the real SDKs (openai,
// @google/genai) talk HTTP to it. Its vectors are not a language model's, but they behave
// like one where tests need it: words of one concept group ("throttle", "rate", "limit")
// land on the same dimension, so a paraphrase is near its passage even with no word in
// common, while unrelated text stays far. Everything else is hashed word by word.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeEmbeddingsServer {
  /** Base URL for an OpenAI-compatible client (`…/v1`). */
  openAiUrl: string;
  /** Base URL for the Gemini SDK (`httpOptions.baseUrl`). */
  geminiUrl: string;
  /** Texts embedded so far, per request. */
  readonly requests: Array<{ api: 'openai' | 'gemini'; texts: string[] }>;
  close(): Promise<void>;
}

export interface FakeEmbeddingsOptions {
  dimensions?: number;
  /** Words that mean the same thing to the fake "model". */
  concepts?: string[][];
  /** Answer every request with this HTTP status (provider failures). */
  failWith?: number;
  /** With `failWith`: answer this many requests first, then fail the rest. */
  failAfter?: number;
}

export const DEFAULT_CONCEPTS: string[][] = [
  ['throttle', 'throttled', 'rate', 'limit', 'limits', 'quota', 'requests', 'minute'],
  ['signature', 'signatures', 'signed', 'sign', 'verify', 'hmac', 'authentic', 'tamper'],
  ['cancel', 'cancellation', 'reschedule', 'rescheduled', 'move', 'appointment', 'appointments'],
  ['price', 'pricing', 'plan', 'plans', 'cost', 'costs', 'billing', 'invoice', 'pay'],
  ['patient', 'patients', 'person', 'people', 'record', 'records'],
  ['error', 'errors', 'failure', 'fails', 'wrong', 'problem'],
  ['key', 'keys', 'token', 'tokens', 'credential', 'credentials', 'authenticate', 'login'],
];

const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

function hash(word: string): number {
  let h = 2166136261;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The fake model: concept dimensions first, hashed words in the rest, L2-normalised. */
export function fakeEmbedding(
  text: string,
  dimensions = 64,
  concepts = DEFAULT_CONCEPTS,
): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const conceptOf = new Map<string, number>();
  concepts.forEach((group, index) => group.forEach((w) => conceptOf.set(w, index)));
  for (const word of words(text)) {
    const concept = conceptOf.get(word);
    const index =
      concept !== undefined
        ? concept % dimensions
        : concepts.length + (hash(word) % Math.max(1, dimensions - concepts.length));
    vector[index] = (vector[index] ?? 0) + (concept !== undefined ? 2 : 1);
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

interface GeminiContent {
  parts?: Array<{ text?: string }>;
}
const geminiText = (content: GeminiContent | undefined): string =>
  (content?.parts ?? []).map((p) => p.text ?? '').join('');

export async function startFakeEmbeddingsServer(
  options: FakeEmbeddingsOptions = {},
): Promise<FakeEmbeddingsServer> {
  const dimensions = options.dimensions ?? 64;
  const embed = (text: string) => fakeEmbedding(text, dimensions, options.concepts);
  const requests: FakeEmbeddingsServer['requests'] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      const send = (status: number, payload: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      if (options.failWith && requests.length >= (options.failAfter ?? 0))
        return send(options.failWith, { error: { message: 'fake failure' } });
      const path = req.url ?? '';
      if (path.endsWith('/embeddings')) {
        const input = body.input;
        const texts = Array.isArray(input) ? input.map(String) : [String(input)];
        requests.push({ api: 'openai', texts });
        return send(200, {
          object: 'list',
          model: body.model,
          data: texts.map((t, index) => ({ object: 'embedding', index, embedding: embed(t) })),
          usage: { prompt_tokens: texts.join(' ').length, total_tokens: texts.join(' ').length },
        });
      }
      if (path.includes(':batchEmbedContents')) {
        const texts = ((body.requests as Array<{ content?: GeminiContent }>) ?? []).map((r) =>
          geminiText(r.content),
        );
        requests.push({ api: 'gemini', texts });
        return send(200, { embeddings: texts.map((t) => ({ values: embed(t) })) });
      }
      if (path.includes(':embedContent')) {
        const text = geminiText(body.content as GeminiContent | undefined);
        requests.push({ api: 'gemini', texts: [text] });
        return send(200, { embedding: { values: embed(text) } });
      }
      return send(404, { error: { message: `no fake for ${path}` } });
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    openAiUrl: `http://127.0.0.1:${port}/v1`,
    geminiUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
