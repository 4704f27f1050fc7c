// The scripted Gemini the hostile suite's server talks to, on loopback through GEMINI_BASE_URL
// (the server's real @google/genai SDK). It adds no model logic of its own: the document
// agent's tool-calling turns are the repo's scripted document model and POST /api/extract's
// calls its scripted extractor (@tandem/extraction/testing), as in the e2e fake Gemini; the
// agent's nodes are bench/tasks' scripted model (a goal it has no script for fails cleanly,
// which is what the fuzz's goals get); embeddings (GEMINI_API_KEY turns them on) are the
// double's fake vectors, at the size the server asks for. Two
// knobs are the suite's: a delay on document turns (so the fair-share case's runs are still
// going when the other 198 requests arrive), and the prototype-key schema's answer, written as
// JSON text so that `__proto__` reaches the server as a key.
import { JsonText, startModelDouble } from '@tandem/agent/testing/model-double';
import { answerFromPrompt, schemaOf } from '@tandem/extraction/testing';
import { geminiTurnResponse } from '@tandem/documents/testing';
import { forkModel, forkedAsModel, serveModel } from '../model-process';
import { answer as agentAnswer } from '../tasks/model/answer';
import { exampleJson, namesPrototypeKeys } from './inputs/prototype-keys';

export interface HostileModel {
  url: string;
  /** Calls answered, by node ('document_extraction' for tool-calling turns). */
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

/** The extraction sub-agent's answer. */
function extract(prompt: string): unknown {
  const schema = schemaOf(prompt);
  if (namesPrototypeKeys(schema)) return new JsonText(`{"data":${exampleJson(schema)}}`);
  try {
    return answerFromPrompt(prompt);
  } catch {
    // The scripted extractor has limits of its own (odd field names); a model answers anyway.
    return { data: null };
  }
}

export async function startHostileModel(): Promise<HostileModel> {
  let documentDelayMs = 0;
  const model = await startModelDouble(agentAnswer, {
    extract,
    converse: geminiTurnResponse,
    embeddings: true,
    before: async ({ node }) => {
      if (node === 'document_extraction' && documentDelayMs > 0)
        await new Promise((r) => setTimeout(r, documentDelayMs));
    },
  });
  return { ...model, setDocumentDelay: (ms) => (documentDelayMs = ms) };
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
