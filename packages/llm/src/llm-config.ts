// Choosing the LLM client from configuration. The server's env.ts fills LlmConfig from the
// environment; nothing here reads it, so the choice is testable with plain objects.
import {
  createLlmClient,
  DEFAULT_LLM_MAX_RETRIES,
  DEFAULT_LLM_TIMEOUT_MS,
  type CreateLlmClientOptions,
} from './create-llm-client';
import { createGeminiProvider } from './gemini-provider';
import { createOpenAiCompatibleProvider } from './openai-compatible-provider';
import type { LlmClient, LlmNode } from './port';
import { createUnconfiguredLlmClient } from './unconfigured-client';

export interface LlmConfig {
  /** Set: Gemini is used (it wins over an OpenAI-compatible endpoint). */
  geminiApiKey?: string;
  geminiBaseUrl?: string;
  /** Default Gemini model (gemini-2.5-flash when absent). */
  geminiModel?: string;
  /** Per-node Gemini models, e.g. a Pro model for planning only. */
  geminiModels?: Partial<Record<LlmNode, string>>;
  /** Set (and no Gemini key): an OpenAI-compatible endpoint, e.g. http://localhost:11434/v1. */
  baseUrl?: string;
  apiKey?: string;
  /** Required with baseUrl: local servers have no sensible default model. */
  model?: string;
  models?: Partial<Record<LlmNode, string>>;
  /** Per-attempt timeout. Default 30 000. */
  timeoutMs?: number;
  /** Retries of transient failures per call. Default 3. */
  maxRetries?: number;
  /** First backoff delay. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Omitted: the provider's default. */
  temperature?: number;
  /**
   * Whether the models read images (hybrid mode's screenshot). Omitted: yes for Gemini; for
   * an OpenAI-compatible endpoint, judged by the model's name (llava, qwen2.5-vl, gpt-4o…).
   */
  vision?: boolean;
}

/** The configuration can't produce a working client; the message says what to set. */
export class LlmConfigError extends Error {
  override readonly name = 'LlmConfigError';
}

export type LlmClientHooks = Pick<CreateLlmClientOptions, 'usageHook' | 'onHookError'>;

export function createLlmClientFromConfig(
  config: LlmConfig,
  hooks: LlmClientHooks = {},
): LlmClient {
  const clientOptions: CreateLlmClientOptions = {
    ...hooks,
    timeoutMs: config.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    maxRetries: config.maxRetries ?? DEFAULT_LLM_MAX_RETRIES,
    ...(config.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: config.retryBaseDelayMs } : {}),
  };
  // What both providers take the same way.
  const shared = {
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.vision !== undefined ? { vision: config.vision } : {}),
  };

  if (isSet(config.geminiApiKey)) {
    return createLlmClient(
      createGeminiProvider({
        apiKey: config.geminiApiKey,
        ...(isSet(config.geminiBaseUrl) ? { baseUrl: config.geminiBaseUrl } : {}),
        ...(isSet(config.geminiModel) ? { model: config.geminiModel } : {}),
        ...(config.geminiModels !== undefined ? { models: config.geminiModels } : {}),
        ...shared,
      }),
      clientOptions,
    );
  }

  if (isSet(config.baseUrl)) {
    if (!isSet(config.model)) {
      throw new LlmConfigError(
        'LLM_BASE_URL is set but LLM_MODEL is not: name the model the OpenAI-compatible ' +
          'endpoint should run (for Ollama, e.g. "qwen2.5:7b-instruct").',
      );
    }
    try {
      new URL(config.baseUrl);
    } catch {
      throw new LlmConfigError(
        `LLM_BASE_URL is not a valid URL: "${config.baseUrl}" (e.g. http://localhost:11434/v1).`,
      );
    }
    return createLlmClient(
      createOpenAiCompatibleProvider({
        baseUrl: config.baseUrl,
        model: config.model,
        ...(isSet(config.apiKey) ? { apiKey: config.apiKey } : {}),
        ...(config.models !== undefined ? { models: config.models } : {}),
        ...shared,
      }),
      clientOptions,
    );
  }

  return createUnconfiguredLlmClient();
}

/** Empty strings count as unset: `GEMINI_API_KEY=` in a .env file means "none". */
function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}
