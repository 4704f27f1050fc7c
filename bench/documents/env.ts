// The one place bench/documents reads the environment: a real model to measure, from the same
// variables the server reads (apps/server/src/env.ts). Keys are never printed.
import { createLlmClientFromConfig, type LlmClient, type UsageHook } from '@tandem/llm';

export function realModelFromEnv(usageHook: UsageHook): { label: string; llm: LlmClient } | null {
  const env = process.env;
  const set = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const gemini = set('GEMINI_API_KEY');
  const baseUrl = set('LLM_BASE_URL');
  const model = set('LLM_MODEL');
  if (!gemini && !(baseUrl && model)) return null;
  const llm = createLlmClientFromConfig(
    {
      geminiApiKey: gemini,
      geminiBaseUrl: set('GEMINI_BASE_URL'),
      geminiModel: set('GEMINI_MODEL'),
      baseUrl,
      apiKey: set('LLM_API_KEY'),
      model,
    },
    { usageHook },
  );
  const label = gemini
    ? `Gemini ${set('GEMINI_MODEL') ?? 'gemini-2.5-flash'}`
    : `OpenAI-compatible ${model}`;
  return { label, llm };
}
