// A scripted model for the extraction port (the model is the external boundary): @tandem/llm's
// scripted LLM, behind the real client, answering every call from the prompt's text alone
// (read-content.ts), counting tokens by length, and told to fail a given call the way providers
// do. `calls` are the requests, one per call.
import { createScriptedLlm, type ScriptedLlm, type ScriptedValue } from '@tandem/llm/testing';
import { answerFromPrompt } from './read-content';

export interface ScriptedCall {
  index: number;
  actionType: string;
  system: string;
  prompt: string;
}

/** What to do with call `index`: answer faithfully (null), fail, or answer something else. */
export type ScriptedFault = (call: ScriptedCall) => Error | { answer: unknown } | null;

export type ScriptedExtractionLlm = ScriptedLlm;

export function scriptedExtractionLlm(
  options: { fault?: ScriptedFault; model?: string; delayMs?: number } = {},
): ScriptedExtractionLlm {
  const llm = createScriptedLlm([], {
    modelFor: () => options.model ?? 'scripted-extractor',
    ...(options.delayMs ? { latencyMs: options.delayMs } : { zeroLatency: true }),
    fallback: ({ origin, repairReason }) => {
      // A fault's Error is no ProviderError: the client throws it to the caller, untried again.
      // An answer the schema rejects fails its call likewise, rather than being repaired.
      if (repairReason !== null) {
        return {
          error: new Error('SCRIPTED call for extraction: the answer did not match the schema'),
        };
      }
      const { actionType, system, prompt } = origin;
      const index = llm.calls.lastIndexOf(origin);
      const fault = options.fault?.({ index, actionType, system, prompt }) ?? null;
      if (fault instanceof Error) return { error: fault };
      return { output: (fault ? fault.answer : answerFromPrompt(prompt)) as ScriptedValue };
    },
  });
  return llm;
}
