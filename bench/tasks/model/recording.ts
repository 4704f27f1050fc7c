// The scripted model (answer.ts) behind the Gemini wire, keeping a log of every request it
// receives: the prefix-share figure is measured offline from what the provider actually saw,
// not from what the agent meant to send, so the log is taken at the wire.
import { modelCallOf } from '@tandem/agent/testing/model-double';
import { answeringWith, startGeminiWire, type GeminiCall } from '@tandem/llm/testing';
import { answer, type ScriptedModel } from './answer';

export interface ModelRequest {
  /** The graph node the system prompt names (the double's reading, e.g. `context_analysis`). */
  node: string;
  /** The request as the provider reads it: system instruction, then the contents' text. */
  text: string;
  /** When it arrived (ms since the epoch): matches it to the call the server logged. */
  at: number;
}

export interface RecordingModel extends ScriptedModel {
  /** Every request answered so far, in arrival order; tasks run one after another. */
  readonly requests: readonly ModelRequest[];
}

/** The provider's order: the system instruction precedes the contents in the prompt it builds. */
const requestText = (call: GeminiCall) => `${call.system}\n${call.prompt}`;

/**
 * `latencyMs`: how long each answer takes, as a real model's would (≈ 1 s for a small
 * structured answer from a fast model): without it a scripted call is free, and wall time
 * shows only the round trips, never what fewer model calls save a user.
 */
export async function startRecordingModel(latencyMs = 0): Promise<RecordingModel> {
  const calls: Record<string, number> = {};
  const requests: ModelRequest[] = [];
  const answering = answeringWith((request) => {
    const call = modelCallOf(request);
    calls[call.node] = (calls[call.node] ?? 0) + 1;
    requests.push({ node: call.node, text: requestText(request), at: Date.now() });
    return answer(call);
  });
  const wire = await startGeminiWire(async (request, res) => {
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return answering(request, res);
  });
  return { ...wire, calls, requests };
}
