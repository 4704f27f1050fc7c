// LangGraph Studio entry configuration: the same LLM settings the server reads, from the
// environment Studio runs with (langgraph.json points its env at the repository's .env).
import type { LlmConfig } from '@tandem/llm';

const read = (name: string): string | undefined => {
  const value = process.env[name];
  return value && value.trim() !== '' ? value : undefined;
};

export function studioLlmConfig(): LlmConfig {
  return {
    geminiApiKey: read('GEMINI_API_KEY'),
    geminiModel: read('GEMINI_MODEL'),
    baseUrl: read('LLM_BASE_URL'),
    apiKey: read('LLM_API_KEY'),
    model: read('LLM_MODEL'),
  };
}

export const studioTavilyKey = (): string | undefined => read('TAVILY_API_KEY');
