// The only place the server reads process.env. Everything is validated once, with defaults
// that let a fresh checkout start with no configuration at all (embedded libSQL, no keys).
import fs from 'node:fs';
import path from 'node:path';
import {
  INPUT_LIMITS,
  KNOWLEDGE_LIMITS,
  type InputLimitName,
  type InputLimits,
} from '@tandem/contracts';
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
const optionalUrl = z.preprocess(
  emptyToUndefined,
  z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
);
const wholeNumber = (min: number, rule: string) =>
  z.coerce.number({ error: rule }).int({ error: rule }).min(min, { error: rule });
const positiveInt = (fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    wholeNumber(1, 'must be a whole number greater than 0').default(fallback),
  );
/** Every input budget (contracts' INPUT_LIMITS) is a setting of its own, with its default. */
type InputLimitSetting = (typeof INPUT_LIMITS)[InputLimitName]['setting'];
const inputLimitSettings = Object.fromEntries(
  Object.values(INPUT_LIMITS).map((spec) => [spec.setting, positiveInt(spec.default)]),
) as Record<InputLimitSetting, ReturnType<typeof positiveInt>>;

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

export const EnvSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    oneOf(['development', 'production', 'test']).default('development'),
  ),
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
  /**
   * When set, background jobs (crawls) run on BullMQ over this Redis (the scale path: several
   * web and worker processes); unset, on the embedded queue in the store (one machine).
   */
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional(),
  ),
  /**
   * Whether this web process runs background jobs (crawls) itself. `false`: it queues them and
   * leaves them to worker processes (`npm run worker`), so requests never share its CPU with a
   * crawl. A worker runs jobs whatever this says.
   */
  RUN_JOBS: z.preprocess(
    emptyToUndefined,
    oneOf(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
  ),
  /** If set, start ensures a dev tenant owning exactly this API key exists. */
  TANDEM_DEV_API_KEY: z.preprocess(
    emptyToUndefined,
    z.string().min(20, 'must be at least 20 characters').optional(),
  ),
  /**
   * Requests per minute per tenant for POST /api/agent/interact. The spec says 10 (docs/specs.md,
   * "the 10 req/min rate limit"), which a single task exceeds: the extension sends one request per
   * step and waits at least 500 ms for the page to settle between them, so one tab at full speed
   * sends ~100/min. 300 leaves room for a few tabs or users at once and still stops a runaway
   * client at 5 req/s.
   */
  RATE_LIMIT_INTERACT_PER_MIN: positiveInt(300),
  /**
   * Requests per minute per tenant for every other authenticated route: a task's event stream
   * (one per popup or side panel opening), the CSV download, active-task look-ups, cancel and
   * the admin API. A user's heaviest use is a few dozen a minute.
   */
  RATE_LIMIT_DEFAULT_PER_MIN: positiveInt(120),
  /** Largest accepted request body in bytes (a full DOM can be a few MB). */
  MAX_BODY_BYTES: positiveInt(8 * 1024 * 1024),
  /**
   * Requests one API key may have in the server at once, counted before routing (an event
   * stream counts until it starts). Every request costs milliseconds of CPU before any route
   * refuses it, so a key sending hundreds at once would hold every other tenant's requests;
   * past this it gets 429 at once. The extension sends one or two at a time per tab.
   */
  REQUESTS_IN_FLIGHT_PER_KEY: positiveInt(8),
  /**
   * Failed authentications (missing, unknown or revoked key) per client address per minute.
   * Past it the address is refused with 429 for AUTH_BLOCK_SECONDS, before any key is looked
   * up: a key cannot be guessed, but every guess costs a hash and a database read.
   */
  AUTH_FAILURES_PER_MIN: positiveInt(20),
  AUTH_BLOCK_SECONDS: positiveInt(300),
  /**
   * Reverse proxies in front of the server whose X-Forwarded-For entries are trusted (0: none,
   * the client address is the connection's). Set it to the number of proxies, never more: an
   * address a client writes itself would then pick its own rate-limit bucket.
   */
  TRUST_PROXY_HOPS: z.preprocess(
    emptyToUndefined,
    wholeNumber(0, 'must be a whole number, 0 or more').default(0),
  ),
  /**
   * What one tenant may spend on models per UTC day (every user and key of it together): past
   * either, requests that would call a model answer 429 DAILY_LIMIT_EXCEEDED until midnight UTC.
   * 0 turns a limit off. At Gemini 2.5 Flash prices 10 M tokens are a few dollars.
   */
  TENANT_DAILY_TOKEN_LIMIT: z.preprocess(
    emptyToUndefined,
    wholeNumber(0, 'must be a whole number of tokens, 0 (no limit) or more').default(10_000_000),
  ),
  TENANT_DAILY_COST_LIMIT_USD: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be an amount in US dollars, 0 (no limit) or more' })
      .min(0, { error: 'must be an amount in US dollars, 0 (no limit) or more' })
      .default(20),
  ),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    oneOf(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  ),

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
  /**
   * Whether the model reads images (hybrid mode sends it screenshots): auto judges by the
   * model's name for LLM_BASE_URL models (every Gemini model does).
   */
  LLM_VISION: z.preprocess(emptyToUndefined, oneOf(['auto', 'true', 'false']).default('auto')),
  /** Per-attempt LLM timeout in ms. */
  LLM_TIMEOUT_MS: positiveInt(30_000),
  /** Retries of 429/5xx/timeouts per LLM call. */
  LLM_MAX_RETRIES: z.preprocess(
    emptyToUndefined,
    wholeNumber(0, 'must be a whole number from 0 to 10')
      .max(10, { error: 'must be a whole number from 0 to 10' })
      .default(3),
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
  /** MAX_STEPS_PER_TASK (docs/specs.md, "limits fail the task with a 400"). */
  MAX_STEPS_PER_TASK: positiveInt(50),

  // --- structured extraction (docs/specs.md, "extraction overhaul") ---
  /** Chunks of one extraction sent to the model at once. */
  EXTRACTION_CONCURRENCY: positiveInt(3),
  /** Largest chunk in characters; content up to it is one model call. */
  EXTRACTION_MAX_CHUNK_CHARS: positiveInt(20_000),
  /**
   * A learned recipe's first replay, then every Nth, is cross-checked by the model on a slice of
   * the page (billed as EXTRACTION_CHECK); a disagreement retires the recipe.
   */
  EXTRACTION_REPLAY_CHECK_EVERY: positiveInt(10),

  // --- knowledge ---
  /**
   * Embeddings for hybrid retrieval. auto: EMBEDDINGS_BASE_URL when set, else Gemini when
   * GEMINI_API_KEY is set, else none (lexical retrieval only). off: never embed.
   */
  EMBEDDINGS: z.preprocess(emptyToUndefined, oneOf(['auto', 'off']).default('auto')),
  /** An OpenAI-compatible embeddings endpoint (OpenAI, Ollama, vLLM); needs EMBEDDINGS_MODEL. */
  EMBEDDINGS_BASE_URL: optionalUrl,
  EMBEDDINGS_API_KEY: optionalString,
  /** Default for Gemini: gemini-embedding-001. */
  EMBEDDINGS_MODEL: optionalString,
  /**
   * Vector size asked of the model. Unset: 768 for Gemini, the model's own size for an
   * OpenAI-compatible endpoint (local models have one size and may reject the parameter).
   */
  EMBEDDINGS_DIMENSIONS: z.preprocess(
    emptyToUndefined,
    wholeNumber(1, 'must be a whole number greater than 0').optional(),
  ),
  /**
   * A Gotenberg service (docker compose --profile office) that converts office documents
   * (DOC, RTF, ODT, PPT/PPTX, XLS/XLSX…) to PDF for ingestion; unset, they are refused.
   */
  GOTENBERG_URL: optionalUrl,
  /** Per-tenant quotas of stored knowledge. */
  KNOWLEDGE_QUOTA_DOCUMENTS: positiveInt(KNOWLEDGE_LIMITS.defaultQuotaDocuments),
  KNOWLEDGE_QUOTA_MB: positiveInt(KNOWLEDGE_LIMITS.defaultQuotaBytes / 1024 / 1024),
  /** Crawl politeness: requests in flight per job, and the pause between requests to a host. */
  KNOWLEDGE_CRAWL_CONCURRENCY: positiveInt(2),
  KNOWLEDGE_CRAWL_DELAY_MS: z.preprocess(
    emptyToUndefined,
    wholeNumber(0, 'must be a whole number of milliseconds, 0 or more').default(250),
  ),
  /**
   * Let crawls fetch loopback and private-network addresses (an intranet's docs). Off by
   * default: a crawl URL is user input, and the server must not become a way into its network.
   */
  KNOWLEDGE_ALLOW_PRIVATE_URLS: z.preprocess(
    emptyToUndefined,
    oneOf(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
  ),

  // --- untrusted input (docs/security-operations.md) ---
  /**
   * Worker threads that parse documents and big pages, off the event loop that answers
   * requests. Each tenant may use half of them at once, so one tenant's files never hold all.
   */
  PARSE_WORKERS: positiveInt(2),
  /** Heap of each parse thread; a file or page that needs more is refused (422). */
  PARSE_WORKER_HEAP_MB: positiveInt(512),
  /** Time one file or page may take to parse; past it the thread is stopped (422). */
  PARSE_TIMEOUT_SECONDS: positiveInt(60),
  /** Document-extraction runs one tenant may have going at once (429 beyond). */
  DOCUMENT_RUNS_PER_TENANT: positiveInt(2),
  /** Unfinished crawl jobs one tenant may have (429 beyond). */
  KNOWLEDGE_CRAWLS_PER_TENANT: positiveInt(2),
  /** Uploads one tenant may have being read at once, knowledge and documents (429 beyond). */
  INGESTIONS_PER_TENANT: positiveInt(2),
  /**
   * How long POST /api/knowledge/ingest waits for its ingestion job to end before it answers 202
   * with the job (to follow at /api/knowledge/jobs/{id}) instead of the stored document.
   */
  KNOWLEDGE_INGEST_WAIT_SECONDS: positiveInt(60),
  /**
   * How long POST /api/documents waits for its reading job to end before it answers 202 with
   * the document still `processing` (to follow at /api/documents/{id}).
   */
  DOCUMENT_UPLOAD_WAIT_SECONDS: positiveInt(60),
  ...inputLimitSettings,
});

export type Env = z.infer<typeof EnvSchema> & { DATA_DIR: string };

/** The input budgets from their settings. */
export function inputLimitsFrom(env: Env): InputLimits {
  return Object.fromEntries(
    (Object.keys(INPUT_LIMITS) as InputLimitName[]).map((name) => [
      name,
      env[INPUT_LIMITS[name].setting],
    ]),
  ) as InputLimits;
}

type Variable = keyof typeof EnvSchema.shape;

/**
 * Variables whose value may be printed back in an error: numbers and fixed choices. Every other
 * variable can hold a key, a password, or a URL with credentials in it (MONGODB_URI,
 * SENTRY_DSN, a proxy's LLM_BASE_URL), so its value never reaches a log or a terminal.
 */
const VALUE_SHOWN: ReadonlySet<string> = new Set<Variable>([
  'NODE_ENV',
  'PORT',
  'LOG_LEVEL',
  'RATE_LIMIT_INTERACT_PER_MIN',
  'RATE_LIMIT_DEFAULT_PER_MIN',
  'MAX_BODY_BYTES',
  'REQUESTS_IN_FLIGHT_PER_KEY',
  'AUTH_FAILURES_PER_MIN',
  'AUTH_BLOCK_SECONDS',
  'TRUST_PROXY_HOPS',
  'TENANT_DAILY_TOKEN_LIMIT',
  'TENANT_DAILY_COST_LIMIT_USD',
  'LLM_TIMEOUT_MS',
  'LLM_MAX_RETRIES',
  'LLM_VISION',
  'LANGFUSE_TIMEOUT_MS',
  'MAX_STEPS_PER_TASK',
  'EXTRACTION_CONCURRENCY',
  'EXTRACTION_MAX_CHUNK_CHARS',
  'EXTRACTION_REPLAY_CHECK_EVERY',
  'EMBEDDINGS',
  'EMBEDDINGS_DIMENSIONS',
  'KNOWLEDGE_QUOTA_DOCUMENTS',
  'KNOWLEDGE_QUOTA_MB',
  'KNOWLEDGE_CRAWL_CONCURRENCY',
  'KNOWLEDGE_CRAWL_DELAY_MS',
  'KNOWLEDGE_ALLOW_PRIVATE_URLS',
  'RUN_JOBS',
  'PARSE_WORKERS',
  'PARSE_WORKER_HEAP_MB',
  'PARSE_TIMEOUT_SECONDS',
  'DOCUMENT_RUNS_PER_TENANT',
  'KNOWLEDGE_CRAWLS_PER_TENANT',
  'INGESTIONS_PER_TENANT',
  'KNOWLEDGE_INGEST_WAIT_SECONDS',
  'DOCUMENT_UPLOAD_WAIT_SECONDS',
  ...Object.values(INPUT_LIMITS).map((spec) => spec.setting),
]);

/** How to fix a variable, where the rule alone does not say it. */
const FIX: Partial<Record<Variable, string>> = {
  MONGODB_URI:
    'use mongodb://host:27017/tandem (or mongodb+srv://...), or leave it empty to use the embedded libSQL store',
  TANDEM_DEV_API_KEY:
    'use 20 or more random characters (e.g. the output of `openssl rand -hex 24`), or leave it empty to have a key generated and printed on first start',
  EMBEDDINGS_MODEL:
    'name the embeddings model EMBEDDINGS_BASE_URL serves (e.g. nomic-embed-text), or unset EMBEDDINGS_BASE_URL',
  LLM_MODEL:
    'name the model LLM_BASE_URL serves (for Ollama e.g. qwen2.5:7b-instruct), or unset LLM_BASE_URL',
};

/** One invalid variable: what is wrong and how to fix it. */
export interface EnvIssue {
  variable: string;
  /** The rule it breaks, plus its value only when that cannot be a secret. */
  problem: string;
  fix: string;
}

const ENV_HELP =
  'Set them in your shell or in apps/server/.env.local (empty means unset); .env.example at the ' +
  'repository root documents every variable and its default.';

function formatEnvIssues(issues: readonly EnvIssue[]): string {
  const count =
    issues.length === 1
      ? '1 environment variable is'
      : `${issues.length} environment variables are`;
  return [
    `Tandem cannot start: ${count} invalid.`,
    '',
    ...issues.flatMap((i) => [`  ${i.variable}: ${i.problem}`, `    fix: ${i.fix}.`]),
    '',
    ENV_HELP,
  ].join('\n');
}

export class EnvError extends Error {
  override readonly name = 'EnvError';
  constructor(readonly issues: readonly EnvIssue[]) {
    super(formatEnvIssues(issues));
  }
}

function fixFor(variable: string): string {
  const specific = FIX[variable as Variable];
  if (specific) return specific;
  const schema = EnvSchema.shape[variable as Variable] as z.ZodType | undefined;
  const fallback = schema?.safeParse(undefined);
  return fallback?.success && fallback.data !== undefined
    ? `correct it, or leave it empty for the default (${String(fallback.data)})`
    : 'correct it, or leave it empty to turn it off';
}

function shownValue(variable: string, source: Record<string, string | undefined>): string {
  if (!VALUE_SHOWN.has(variable)) return ' (value not shown)';
  const value = source[variable] ?? '';
  return ` (got ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)})`;
}

const isSet = (value: string | undefined) => value !== undefined && value.trim() !== '';

/** Rules across variables, checked on the raw values so they are reported with the rest. */
function crossRules(source: Record<string, string | undefined>): [string, string][] {
  const rules: [string, string][] = [];
  if (isSet(source.LLM_BASE_URL) && !isSet(source.GEMINI_API_KEY) && !isSet(source.LLM_MODEL))
    rules.push(['LLM_MODEL', 'must be set when LLM_BASE_URL is set']);
  if (isSet(source.EMBEDDINGS_BASE_URL) && !isSet(source.EMBEDDINGS_MODEL))
    rules.push(['EMBEDDINGS_MODEL', 'must be set when EMBEDDINGS_BASE_URL is set']);
  return rules;
}

/** Every broken rule, grouped by variable, in schema order. */
function envIssues(
  broken: Iterable<[string, string]>,
  source: Record<string, string | undefined>,
): EnvIssue[] {
  const rules = new Map<string, string[]>();
  for (const [variable, message] of broken) {
    const list = rules.get(variable) ?? [];
    if (!list.includes(message)) list.push(message);
    rules.set(variable, list);
  }
  const order = Object.keys(EnvSchema.shape);
  return [...rules]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([variable, messages]) => ({
      variable,
      problem: messages.join('; ') + shownValue(variable, source),
      fix: fixFor(variable),
    }));
}

/** Parses an environment (process.env by default) into a typed, defaulted Env. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  const broken: [string, string][] = [
    ...(parsed.error?.issues ?? []).map((i): [string, string] => [
      String(i.path[0] ?? 'environment'),
      i.message,
    ]),
    ...crossRules(source),
  ];
  if (!parsed.success || broken.length > 0) throw new EnvError(envIssues(broken, source));
  const dataDir = parsed.data.DATA_DIR ?? path.join(workspaceRoot(process.cwd()), '.data');
  return { ...parsed.data, DATA_DIR: path.resolve(dataDir) };
}

let cached: Env | undefined;

/** The process environment, parsed once. */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
