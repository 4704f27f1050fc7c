// The only place the server reads process.env. Everything is validated once, with defaults
// that let a fresh checkout start with no configuration at all (embedded libSQL, no keys).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The repository root (where pnpm-workspace.yaml is), so the CLI and the server share .data/. */
function workspaceRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyToUndefined, z.url().optional());
const positiveInt = (fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(fallback));

export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Port the server listens on (npm start passes it to next start). */
  PORT: positiveInt(3000),
  /** Where the embedded libSQL database lives when MONGODB_URI is unset. */
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
  /** When set, MongoDB (mongoose) is the store instead of embedded libSQL. */
  MONGODB_URI: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
      .optional(),
  ),
  /** If set, start ensures a dev tenant owning exactly this API key exists. */
  TANDEM_DEV_API_KEY: z.preprocess(
    emptyToUndefined,
    z.string().min(20, 'must be at least 20 characters').optional(),
  ),
  /** Requests per minute per tenant for POST /api/agent/interact (spec 003: 10). */
  RATE_LIMIT_INTERACT_PER_MIN: positiveInt(10),
  /** Requests per minute per tenant for every other authenticated route. */
  RATE_LIMIT_DEFAULT_PER_MIN: positiveInt(120),
  /** Largest accepted request body in bytes (a full DOM can be a few MB). */
  MAX_BODY_BYTES: positiveInt(8 * 1024 * 1024),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),

  // --- language model (optional: SIMPLE commands work without one) ---
  /** Google Gemini API key: selects Gemini. */
  GEMINI_API_KEY: optionalString,
  /** Gemini model for every node (default gemini-2.5-flash). */
  GEMINI_MODEL: optionalString,
  /** Gemini model for planning only (e.g. a Pro model). */
  GEMINI_PLANNING_MODEL: optionalString,
  /** Override the Gemini API endpoint (proxies, tests). */
  GEMINI_BASE_URL: optionalUrl,
  /** OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp), used when GEMINI_API_KEY is unset. */
  LLM_BASE_URL: optionalUrl,
  /** Model name on LLM_BASE_URL (required with it). */
  LLM_MODEL: optionalString,
  LLM_API_KEY: optionalString,
  /** Per-attempt LLM timeout in ms. */
  LLM_TIMEOUT_MS: positiveInt(30_000),
  /** Retries of 429/5xx/timeouts per LLM call. */
  LLM_MAX_RETRIES: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(10).default(3),
  ),

  // --- web search (optional) ---
  /** Tavily API key: enables WEB_SEARCH and googleSearch(). */
  TAVILY_API_KEY: optionalString,
  TAVILY_BASE_URL: optionalUrl,

  // --- observability (optional: LangFuse for LLM traces, Sentry for exceptions) ---
  /** LangFuse project keys; tracing is on only when both are set. */
  LANGFUSE_PUBLIC_KEY: optionalString,
  LANGFUSE_SECRET_KEY: optionalString,
  /** https://cloud.langfuse.com (EU, default), https://us.cloud.langfuse.com, or self-hosted. */
  LANGFUSE_BASE_URL: optionalUrl,
  /** Per-request timeout of span exports and score batches; LangFuse down never delays us. */
  LANGFUSE_TIMEOUT_MS: positiveInt(3_000),
  /** Sentry DSN; exceptions (5xx, crashes) are reported only when set. */
  SENTRY_DSN: optionalUrl,
  /** Environment name on Sentry events and LangFuse traces (default: NODE_ENV). */
  SENTRY_ENVIRONMENT: optionalString,
  /** Release on Sentry events and LangFuse traces (default: the server's package version). */
  SENTRY_RELEASE: optionalString,

  // --- agent limits ---
  /** Spec 003 MAX_STEPS_PER_TASK. */
  MAX_STEPS_PER_TASK: positiveInt(50),
});

export type Env = z.infer<typeof EnvSchema> & { DATA_DIR: string };

export class EnvError extends Error {
  override readonly name = 'EnvError';
}

/** Parses an environment (process.env by default) into a typed, defaulted Env. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const dataDir = parsed.data.DATA_DIR ?? path.join(workspaceRoot(process.cwd()), '.data');
  return { ...parsed.data, DATA_DIR: path.resolve(dataDir) };
}

let cached: Env | undefined;

/** The process environment, parsed once. */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
