// The one pricing table. Nothing else in Tandem knows what a token costs: the usage service
// asks here, so a provider price change is a one-line edit with a unit test next to it.
//
// Units. Rates are integers in micro-USD per 1,000,000 tokens (µUSD/Mtok), which is the same
// number as "USD per million tokens × 10^6": Gemini 2.5 Flash-Lite's cached input at
// $0.01/Mtok is 10_000, Pro's output at $10/Mtok is 10_000_000. A per-token rate in µUSD would
// be fractional for every model we use (0.01 µUSD/token), and floats would put rounding noise
// into invoices; per-million integers keep every published price exact. A call's cost is
// summed exactly in BigInt (tokens × rate is in pico-USD) and rounded once, half up, to the
// integer micro-USD the TokenUsageLog stores (so one call is off by at most 0.5 µUSD).
//
// Token semantics follow the LLM port: `inputTokens` includes the cached subset
// (`cachedInputTokens`), and `outputTokens` excludes thinking tokens (`thinkingTokens`).
// Google bills thinking at the output rate; it has its own column so a provider that prices it
// differently needs no code change.
//
// Source: https://ai.google.dev/gemini-api/docs/pricing (paid tier, text/image/video input).
// Audio input and context-cache storage per hour are not billed per call and not modelled.

/** Integer micro-USD per 1,000,000 tokens. */
export type MicroUsdPerMillion = number;

export interface TokenRates {
  input: MicroUsdPerMillion;
  output: MicroUsdPerMillion;
  cachedInput: MicroUsdPerMillion;
  thinking: MicroUsdPerMillion;
}

export interface ModelPrice extends TokenRates {
  /**
   * Long-context tier: when a call's prompt (inputTokens) is larger than `aboveInputTokens`,
   * every token of that call is billed at these rates (Gemini Pro models, > 200k prompts).
   */
  longContext?: TokenRates & { aboveInputTokens: number };
}

/** The token counts a price is computed from (structurally the LLM port's LlmUsage). */
export interface PricedUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  thinkingTokens: number;
}

const usd = (dollarsPerMillion: number): MicroUsdPerMillion => Math.round(dollarsPerMillion * 1e6);

const rates = (input: number, output: number, cachedInput: number): TokenRates => ({
  input: usd(input),
  output: usd(output),
  cachedInput: usd(cachedInput),
  // Google: "output price (including thinking tokens)".
  thinking: usd(output),
});

const PRO_THRESHOLD = 200_000;

/**
 * Prices by model id. Keys are matched exactly first, then as the longest prefix of the id
 * the provider reports, so dated or versioned ids ("gemini-2.5-flash-preview-09-2025",
 * "gemini-2.5-flash-lite-001") find their family while -lite never falls back to plain flash.
 */
export const PRICING_TABLE: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'gemini-2.5-pro': {
    ...rates(1.25, 10, 0.125),
    longContext: { ...rates(2.5, 15, 0.25), aboveInputTokens: PRO_THRESHOLD },
  },
  'gemini-2.5-flash': rates(0.3, 2.5, 0.03),
  'gemini-2.5-flash-lite': rates(0.1, 0.4, 0.01),
  'gemini-3-pro': {
    ...rates(2, 12, 0.2),
    longContext: { ...rates(4, 18, 0.4), aboveInputTokens: PRO_THRESHOLD },
  },
  'gemini-3.1-pro': {
    ...rates(2, 12, 0.2),
    longContext: { ...rates(4, 18, 0.4), aboveInputTokens: PRO_THRESHOLD },
  },
  'gemini-3-flash': rates(0.5, 3, 0.05),
  // Embeddings bill input tokens only.
  'gemini-embedding-001': rates(0.15, 0, 0),
  'text-embedding-3-small': rates(0.02, 0, 0),
  'text-embedding-3-large': rates(0.13, 0, 0),
});

/**
 * Unknown models (a new Gemini id, an OpenAI-compatible endpoint we have no price for) are
 * billed at Gemini 2.5 Flash rates, the server's default model: an estimate that keeps
 * per-tenant spend visible instead of silently recording zero. The usage service logs the
 * first unknown occurrence of each model so the table gets updated.
 */
export const DEFAULT_MODEL_PRICE: ModelPrice = PRICING_TABLE['gemini-2.5-flash'] as ModelPrice;

function normalizeModelId(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^models\//, '');
}

export interface ResolvedPrice {
  price: ModelPrice;
  /** The table key that matched, or null when the default price was used. */
  key: string | null;
}

const resolvedCache = new Map<string, ResolvedPrice>();

export function resolveModelPrice(
  model: string,
  table: Readonly<Record<string, ModelPrice>> = PRICING_TABLE,
): ResolvedPrice {
  const cacheable = table === PRICING_TABLE;
  const cached = cacheable ? resolvedCache.get(model) : undefined;
  if (cached) return cached;
  const id = normalizeModelId(model);
  let key: string | null = table[id] ? id : null;
  if (key === null) {
    for (const candidate of Object.keys(table)) {
      const isPrefix = id.startsWith(`${candidate}-`) || id.startsWith(`${candidate}@`);
      if (isPrefix && (key === null || candidate.length > key.length)) key = candidate;
    }
  }
  const resolved: ResolvedPrice = {
    price: key === null ? DEFAULT_MODEL_PRICE : (table[key] as ModelPrice),
    key,
  };
  if (cacheable && resolvedCache.size < 1_000) resolvedCache.set(model, resolved);
  return resolved;
}

/** Per-component cost of one call. Micro-USD values are exact rationals, shown as numbers. */
export interface UsageCost {
  /** What the TokenUsageLog stores: the sum, rounded half up to an integer. */
  costMicroUsd: number;
  /** For LangFuse's cost details (USD floats are fine for a dashboard, not for billing). */
  componentsMicroUsd: {
    input: number;
    cachedInput: number;
    output: number;
    thinking: number;
  };
  /** The table key used, or null for the default price. */
  pricedAs: string | null;
  longContext: boolean;
}

const nonNegativeInt = (n: number): bigint =>
  Number.isFinite(n) && n > 0 ? BigInt(Math.floor(n)) : 0n;

const PICO_PER_MICRO = 1_000_000n;

function roundHalfUpToMicro(pico: bigint): number {
  return Number((pico + PICO_PER_MICRO / 2n) / PICO_PER_MICRO);
}

export function priceUsageDetailed(
  model: string,
  usage: PricedUsage,
  table: Readonly<Record<string, ModelPrice>> = PRICING_TABLE,
): UsageCost {
  const { price, key } = resolveModelPrice(model, table);
  const input = nonNegativeInt(usage.inputTokens);
  const cached = nonNegativeInt(usage.cachedInputTokens);
  const long =
    price.longContext !== undefined && input > BigInt(price.longContext.aboveInputTokens);
  const r: TokenRates = long && price.longContext ? price.longContext : price;
  // Cached tokens are a subset of the prompt; a provider reporting more cached than input
  // tokens is clamped rather than billed twice.
  const cachedBilled = cached > input ? input : cached;
  // tokens × (µUSD per 1M tokens) = pico-USD, exact in BigInt whatever the volume.
  const pico = {
    input: (input - cachedBilled) * BigInt(r.input),
    cachedInput: cachedBilled * BigInt(r.cachedInput),
    output: nonNegativeInt(usage.outputTokens) * BigInt(r.output),
    thinking: nonNegativeInt(usage.thinkingTokens) * BigInt(r.thinking),
  };
  const total = pico.input + pico.cachedInput + pico.output + pico.thinking;
  const micro = (p: bigint) => Number(p) / 1e6;
  return {
    costMicroUsd: roundHalfUpToMicro(total),
    componentsMicroUsd: {
      input: micro(pico.input),
      cachedInput: micro(pico.cachedInput),
      output: micro(pico.output),
      thinking: micro(pico.thinking),
    },
    pricedAs: key,
    longContext: long,
  };
}

/** The integer micro-USD cost of one call (what the TokenUsageLog stores). */
export function priceUsage(model: string, usage: PricedUsage): number {
  return priceUsageDetailed(model, usage).costMicroUsd;
}

/** Integer micro-USD to dollars, for display and LangFuse cost details only. */
export const microUsdToUsd = (microUsd: number): number => microUsd / 1e6;
