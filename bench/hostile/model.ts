// The scripted Gemini the hostile suite's server talks to, on loopback through GEMINI_BASE_URL
// (the server's real @google/genai SDK). It adds no model logic of its own: the document
// agent's tool-calling turns are the repo's scripted document model and POST /api/extract's
// calls its scripted extractor (@tandem/extraction/testing), as in the e2e fake Gemini; the
// agent's nodes are bench/tasks' scripted model (a goal it has no script for fails cleanly,
// which is what the fuzz's goals get); embeddings (GEMINI_API_KEY turns them on) are
// @tandem/knowledge's fake vectors, at the size the server asks for. Two
// knobs are the suite's: a delay on document turns (so the fair-share case's runs are still
// going when the other 198 requests arrive), and the prototype-key schema's answer, written as
// JSON text so that `__proto__` reaches the server as a key.
import { modelCallOf, type ModelCall } from '@tandem/agent/testing/model-double';
import { answerFromPrompt, schemaOf } from '@tandem/extraction/testing';
import { geminiTurnResponse, isToolCallingRequest } from '@tandem/documents/testing';
import {
  fakeEmbedding,
  geminiTextResponse,
  readGeminiRequest,
  startGeminiWire,
  type WireRequest,
} from '@tandem/llm/testing';
import { forkModel, forkedAsModel, serveModel } from '../model-process';
import { answer as agentAnswer } from '../tasks/model/answer';
import { exampleJson, namesPrototypeKeys } from './inputs/prototype-keys';

export interface HostileModel {
  url: string;
  /** Calls answered, by node ('document' for tool-calling turns). */
  calls: Record<string, number>;
  /** Delay before each document-agent turn is answered. */
  setDocumentDelay(ms: number): void;
  close(): Promise<void>;
}

/** The model as the suite uses it: in a process of its own (startModelProcess). */
export interface ModelHandle {
  url: string;
  setDocumentDelay(ms: number): Promise<void>;
  close(): Promise<void>;
}

interface EmbedRequest {
  content?: { parts?: { text?: string }[] };
  outputDimensionality?: number;
}

const embedText = (r: EmbedRequest) => (r.content?.parts ?? []).map((p) => p.text ?? '').join('');
const embed = (r: EmbedRequest) => ({
  values: fakeEmbedding(embedText(r), r.outputDimensionality ?? 768),
});

/** `:batchEmbedContents` / `:embedContent` answers, or null for other calls. */
function embeddings(path: string, raw: unknown): string | null {
  if (path.includes(':batchEmbedContents')) {
    const requests = (raw as { requests?: EmbedRequest[] }).requests ?? [];
    return JSON.stringify({ embeddings: requests.map(embed) });
  }
  if (path.includes(':embedContent'))
    return JSON.stringify({ embedding: embed(raw as EmbedRequest) });
  return null;
}

/** The JSON text a node's call is answered with. */
function answerText(call: ModelCall): string {
  if (call.node !== 'extraction') return JSON.stringify(agentAnswer(call));
  const schema = schemaOf(call.prompt);
  if (namesPrototypeKeys(schema)) return `{"data":${exampleJson(schema)}}`;
  try {
    return JSON.stringify(answerFromPrompt(call.prompt));
  } catch {
    // The scripted extractor has limits of its own (odd field names); a model answers anyway.
    return '{"data":null}';
  }
}

export async function startHostileModel(): Promise<HostileModel> {
  const calls: Record<string, number> = {};
  let documentDelayMs = 0;
  const count = (node: string) => (calls[node] = (calls[node] ?? 0) + 1);

  async function generate({ path, body: raw }: WireRequest): Promise<string | object> {
    const embedded = embeddings(path, raw);
    if (embedded !== null) {
      count('embeddings');
      return embedded;
    }
    if (isToolCallingRequest(raw)) {
      count('document');
      if (documentDelayMs > 0) await new Promise((r) => setTimeout(r, documentDelayMs));
      return geminiTurnResponse(raw);
    }
    const request = readGeminiRequest(raw);
    const call = modelCallOf(request);
    count(call.node);
    return geminiTextResponse(answerText(call), request.system.length + request.prompt.length);
  }

  const wire = await startGeminiWire(generate);
  return { ...wire, calls, setDocumentDelay: (ms) => (documentDelayMs = ms) };
}

/** Starts the model in a process of its own (../model-process.ts); the handle talks over IPC. */
export async function startModelProcess(): Promise<ModelHandle> {
  const forked = await forkModel(import.meta.filename);
  return { ...forked, setDocumentDelay: async (ms) => void (await forked.ask({ delay: ms })) };
}

if (forkedAsModel(import.meta.filename)) {
  const model = await startHostileModel();
  serveModel(model, (message) => {
    const { delay } = message as { delay: number };
    model.setDocumentDelay(delay);
    return { delayed: delay };
  });
}
