// A typed scripted model for the extraction port (the model is the external boundary): it
// answers from the prompt's text alone (read-content.ts), counts tokens by length, and can be
// told to fail a given call the way providers do.
import { randomUUID } from 'node:crypto';
import { ownData } from '@tandem/contracts';
import type { z } from 'zod';
import type { ExtractionLlm, ExtractionLlmRequest, ExtractionLlmResult } from '../llm';
import { answerFromPrompt } from './read-content';

export interface ScriptedCall {
  index: number;
  actionType: string;
  system: string;
  prompt: string;
}

/** What to do with call `index`: answer faithfully (null), fail, or answer something else. */
export type ScriptedFault = (call: ScriptedCall) => Error | { answer: unknown } | null;

export interface ScriptedExtractionLlm extends ExtractionLlm {
  readonly calls: ScriptedCall[];
}

/** ~4 characters a token, like the usual English-text estimate. */
const tokens = (text: string) => Math.ceil(text.length / 4);

export function scriptedExtractionLlm(
  options: { fault?: ScriptedFault; model?: string; delayMs?: number } = {},
): ScriptedExtractionLlm {
  const calls: ScriptedCall[] = [];
  return {
    calls,
    async generate<S extends z.ZodType>(
      request: ExtractionLlmRequest<S>,
    ): Promise<ExtractionLlmResult<z.output<S>>> {
      const call = {
        index: calls.length,
        actionType: request.actionType,
        system: request.system,
        prompt: request.prompt,
      };
      calls.push(call);
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      const fault = options.fault?.(call) ?? null;
      if (fault instanceof Error) throw fault;
      const answer = fault ? fault.answer : answerFromPrompt(request.prompt);
      // The port validates every answer against the request's schema; so does this one.
      const parsed = request.schema.safeParse(ownData(answer));
      if (!parsed.success) {
        throw new Error(`SCRIPTED call for extraction: the answer did not match the schema`);
      }
      const text = JSON.stringify(answer);
      return {
        output: parsed.data as z.output<S>,
        usage: {
          inputTokens: tokens(request.system) + tokens(request.prompt),
          outputTokens: tokens(text),
          cachedInputTokens: 0,
          thinkingTokens: 0,
          totalTokens: tokens(request.system) + tokens(request.prompt) + tokens(text),
        },
        model: options.model ?? 'scripted-extractor',
        provider: 'SCRIPTED',
        latencyMs: options.delayMs ?? 0,
        generationId: randomUUID(),
      };
    },
  };
}
