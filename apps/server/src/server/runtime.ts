// The process-wide runtime: validated env, the store, rate limiters and the logger. Built once
// and cached on globalThis, because Next.js may load route modules and instrumentation as
// separate module instances in one process.
import {
  createDisabledWebSearch,
  createInteractService,
  createLlmClientFromConfig,
  createRagService,
  createTavilyWebSearch,
  createUsageRecorder,
  DEFAULT_LIMITS,
  type InteractService,
  type LlmClient,
  type LlmConfig,
} from '@tandem/agent';
import { createStore, type Store } from '@tandem/store';
import { env as processEnv, type Env } from '../env';
import { createLogger, type Logger } from './logger';
import { createRateLimiters, type RateLimiters } from './rate-limit';
import packageJson from '../../package.json' with { type: 'json' };

export interface Runtime {
  env: Env;
  store: Store;
  rateLimiters: RateLimiters;
  llm: LlmClient;
  agent: InteractService;
  log: Logger;
  startedAt: number;
  version: string;
}

/** The LLM configuration from the validated env (the agent package never reads env). */
export function llmConfigFrom(env: Env): LlmConfig {
  return {
    geminiApiKey: env.GEMINI_API_KEY,
    geminiBaseUrl: env.GEMINI_BASE_URL,
    geminiModel: env.GEMINI_MODEL,
    ...(env.GEMINI_PLANNING_MODEL ? { geminiModels: { planning: env.GEMINI_PLANNING_MODEL } } : {}),
    baseUrl: env.LLM_BASE_URL,
    apiKey: env.LLM_API_KEY,
    model: env.LLM_MODEL,
    timeoutMs: env.LLM_TIMEOUT_MS,
    maxRetries: env.LLM_MAX_RETRIES,
  };
}

export async function createRuntime(options: {
  env: Env;
  store?: Store;
  log?: Logger;
  /** Tests pass a scripted client; otherwise chosen from env. */
  llm?: LlmClient;
}): Promise<Runtime> {
  const { env } = options;
  const log = options.log ?? createLogger(env.LOG_LEVEL);
  const store =
    options.store ?? (await createStore({ mongodbUri: env.MONGODB_URI, dataDir: env.DATA_DIR }));
  const usageHook = createUsageRecorder({ store, log });
  const llm =
    options.llm ??
    createLlmClientFromConfig(llmConfigFrom(env), {
      usageHook,
      onHookError: (error) => log.error('usage hook failed', { error }),
    });
  const webSearch = env.TAVILY_API_KEY
    ? createTavilyWebSearch({ apiKey: env.TAVILY_API_KEY, baseUrl: env.TAVILY_BASE_URL })
    : createDisabledWebSearch();
  const agent = createInteractService({
    store,
    rag: createRagService(store),
    deps: {
      llm,
      webSearch,
      log,
      limits: { ...DEFAULT_LIMITS, maxStepsPerTask: env.MAX_STEPS_PER_TASK },
    },
  });
  return {
    env,
    store,
    log,
    llm,
    agent,
    rateLimiters: createRateLimiters(store.rateLimits, {
      interact: env.RATE_LIMIT_INTERACT_PER_MIN,
      default: env.RATE_LIMIT_DEFAULT_PER_MIN,
    }),
    startedAt: Date.now(),
    version: packageJson.version,
  };
}

const globalRuntime = globalThis as typeof globalThis & {
  __tandemRuntime?: Promise<Runtime>;
};

/** The shared runtime of this server process. */
export function getRuntime(): Promise<Runtime> {
  globalRuntime.__tandemRuntime ??= createRuntime({ env: processEnv() }).catch((error: unknown) => {
    // Let the next request try again instead of caching a failure forever.
    globalRuntime.__tandemRuntime = undefined;
    throw error;
  });
  return globalRuntime.__tandemRuntime;
}
