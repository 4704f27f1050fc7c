// Which fault, if any, the proxy injects into each model request: a seeded PRNG draw per
// request against cumulative rates, so a run with the same seed and the same calls in the same
// order meets the same faults, and a failure found under faults can be replayed.

// The bench's one seeded PRNG (mulberry32), shared with bench:hostile.
import { prng } from '../../hostile/inputs/words';

/** The faults the proxy can inject, each a shape Gemini's REST API really answers with. */
export const FAULT_KINDS = [
  'http-500',
  'http-503',
  'http-429',
  'hang',
  'malformed-json',
  'truncated-body',
  'max-tokens',
  'safety',
  'empty-candidates',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * About 40 % of calls faulted in all. Transient HTTP errors dominate, as they do against the
 * real API; a hang costs a whole LLM timeout (30 s) per hit, so it is rare enough that a run
 * stays within minutes.
 */
export const DEFAULT_FAULT_RATES: Readonly<Record<FaultKind, number>> = {
  'http-500': 0.07,
  'http-503': 0.07,
  'http-429': 0.06,
  hang: 0.02,
  'malformed-json': 0.05,
  'truncated-body': 0.04,
  'max-tokens': 0.04,
  safety: 0.02,
  'empty-candidates': 0.03,
};

export const DEFAULT_FAULT_SEED = 34;

export interface FaultPlan {
  seed: number;
  rates: Record<FaultKind, number>;
  /** Σ rates: the share of requests that get a fault. */
  total: number;
}

const totalOf = (rates: Readonly<Record<FaultKind, number>>) =>
  FAULT_KINDS.reduce((sum, kind) => sum + rates[kind], 0);

/**
 * The default rates scaled by `scale`, or scaled so they total `rate` (which wins when both are
 * given). The mix between kinds stays the default one either way.
 */
export function faultPlan(options: { seed?: number; rate?: number; scale?: number }): FaultPlan {
  const base = totalOf(DEFAULT_FAULT_RATES);
  const factor = options.rate !== undefined ? options.rate / base : (options.scale ?? 1);
  if (!Number.isFinite(factor) || factor < 0) throw new Error('fault rate/scale must be ≥ 0');
  const rates = Object.fromEntries(
    FAULT_KINDS.map((kind) => [kind, DEFAULT_FAULT_RATES[kind] * factor]),
  ) as Record<FaultKind, number>;
  const total = totalOf(rates);
  if (total > 1 + 1e-9) throw new Error(`fault rates total ${total.toFixed(2)}, more than 1`);
  return { seed: options.seed ?? DEFAULT_FAULT_SEED, rates, total };
}

/** One draw per request: a fault kind, or null to forward the request untouched. */
export function faultPicker(plan: FaultPlan): () => FaultKind | null {
  const random = prng(plan.seed);
  return () => {
    let draw = random();
    for (const kind of FAULT_KINDS) {
      if (draw < plan.rates[kind]) return kind;
      draw -= plan.rates[kind];
    }
    return null;
  };
}
