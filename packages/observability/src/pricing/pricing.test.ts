import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MODEL_PRICE,
  PRICING_TABLE,
  priceUsage,
  priceUsageDetailed,
  resolveModelPrice,
  type PricedUsage,
} from './pricing';

const usage = (u: Partial<PricedUsage>): PricedUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  thinkingTokens: 0,
  ...u,
});

describe('pricing table', () => {
  it('stores every rate as an integer micro-USD per million tokens', () => {
    for (const [model, price] of Object.entries(PRICING_TABLE)) {
      const all = [price, ...(price.longContext ? [price.longContext] : [])];
      for (const r of all) {
        for (const v of [r.input, r.output, r.cachedInput, r.thinking]) {
          expect(Number.isSafeInteger(v), `${model} ${v}`).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
        }
        // Every model bills its input; embedding models bill nothing else (no output tokens).
        expect(r.input, model).toBeGreaterThan(0);
        if (!model.includes('embedding')) expect(r.output, model).toBeGreaterThan(0);
      }
    }
  });

  it('has the published Gemini rates', () => {
    expect(PRICING_TABLE['gemini-2.5-flash']).toMatchObject({
      input: 300_000,
      output: 2_500_000,
      cachedInput: 30_000,
      thinking: 2_500_000,
    });
    expect(PRICING_TABLE['gemini-2.5-flash-lite']).toMatchObject({
      input: 100_000,
      output: 400_000,
      cachedInput: 10_000,
    });
    expect(PRICING_TABLE['gemini-2.5-pro']).toMatchObject({ input: 1_250_000, output: 10_000_000 });
    expect(PRICING_TABLE['gemini-3-flash']).toMatchObject({ input: 500_000, output: 3_000_000 });
    expect(PRICING_TABLE['gemini-3-pro']?.longContext).toMatchObject({
      input: 4_000_000,
      output: 18_000_000,
      aboveInputTokens: 200_000,
    });
  });
});

describe('resolveModelPrice', () => {
  it('matches exact ids, the models/ prefix and case', () => {
    expect(resolveModelPrice('gemini-2.5-pro').key).toBe('gemini-2.5-pro');
    expect(resolveModelPrice('models/Gemini-2.5-Flash').key).toBe('gemini-2.5-flash');
  });

  it('matches dated and versioned ids by the longest prefix', () => {
    expect(resolveModelPrice('gemini-2.5-flash-lite-preview-06-17').key).toBe(
      'gemini-2.5-flash-lite',
    );
    expect(resolveModelPrice('gemini-2.5-flash-preview-09-2025').key).toBe('gemini-2.5-flash');
    expect(resolveModelPrice('gemini-3-flash-preview').key).toBe('gemini-3-flash');
    expect(resolveModelPrice('gemini-3-pro-preview').key).toBe('gemini-3-pro');
    expect(resolveModelPrice('gemini-2.5-pro-001').key).toBe('gemini-2.5-pro');
  });

  it('does not match a different family that merely shares characters', () => {
    // "gemini-2.5-flashy" is not a gemini-2.5-flash variant.
    expect(resolveModelPrice('gemini-2.5-flashy').key).toBeNull();
    expect(resolveModelPrice('qwen2.5:7b-instruct').key).toBeNull();
    expect(resolveModelPrice('qwen2.5:7b-instruct').price).toBe(DEFAULT_MODEL_PRICE);
  });
});

describe('priceUsage', () => {
  it('prices a plain flash call exactly', () => {
    // 1,500 in at $0.30/M = 450 µUSD; 500 out at $2.50/M = 1,250 µUSD.
    expect(priceUsage('gemini-2.5-flash', usage({ inputTokens: 1500, outputTokens: 500 }))).toBe(
      1700,
    );
  });

  it('bills cached input at the cached rate and thinking at the thinking rate', () => {
    const detailed = priceUsageDetailed(
      'gemini-2.5-pro',
      usage({
        inputTokens: 11_500,
        cachedInputTokens: 10_000,
        outputTokens: 1000,
        thinkingTokens: 10_000,
      }),
    );
    // 1,500 × 1.25 + 10,000 × 0.125 + 1,000 × 10 + 10,000 × 10 (µUSD per token × 1e-6 × 1e6)
    expect(detailed.componentsMicroUsd).toEqual({
      input: 1875,
      cachedInput: 1250,
      output: 10_000,
      thinking: 100_000,
    });
    expect(detailed.costMicroUsd).toBe(113_125);
    expect(detailed.longContext).toBe(false);
  });

  it('keeps sub-micro prices exact and rounds the sum once, half up', () => {
    // Flash-lite cached input is 0.01 µUSD per token: 49 tokens = 0.49 µUSD -> 0, 50 -> 1.
    const lite = (cachedInputTokens: number) =>
      priceUsage(
        'gemini-2.5-flash-lite',
        usage({ inputTokens: cachedInputTokens, cachedInputTokens }),
      );
    expect(lite(49)).toBe(0);
    expect(lite(50)).toBe(1);
    // Summing before rounding: 3 input tokens at 0.1 + 3 output at 0.4 = 1.5 µUSD -> 2,
    // where rounding each part first would give 0 + 1 = 1.
    expect(priceUsage('gemini-2.5-flash-lite', usage({ inputTokens: 3, outputTokens: 3 }))).toBe(2);
  });

  it('switches Pro models to long-context rates above 200k prompt tokens', () => {
    const at = priceUsageDetailed(
      'gemini-2.5-pro',
      usage({ inputTokens: 200_000, outputTokens: 1000 }),
    );
    const above = priceUsageDetailed(
      'gemini-2.5-pro',
      usage({ inputTokens: 200_001, outputTokens: 1000 }),
    );
    expect(at.longContext).toBe(false);
    expect(at.costMicroUsd).toBe(250_000 + 10_000);
    expect(above.longContext).toBe(true);
    expect(above.costMicroUsd).toBe(Math.round(200_001 * 2.5) + 15_000);
  });

  it('prices unknown models at the default rates and says so', () => {
    const d = priceUsageDetailed(
      'my-local-model',
      usage({ inputTokens: 1000, outputTokens: 1000 }),
    );
    expect(d.pricedAs).toBeNull();
    expect(d.costMicroUsd).toBe(300 + 2500);
  });

  it('treats nonsense counts as zero and never bills cached tokens beyond the prompt', () => {
    expect(
      priceUsage(
        'gemini-2.5-flash',
        usage({ inputTokens: -5, outputTokens: Number.NaN, thinkingTokens: Infinity }),
      ),
    ).toBe(0);
    expect(
      priceUsage('gemini-2.5-flash', usage({ inputTokens: 100, cachedInputTokens: 1000 })),
    ).toBe(priceUsage('gemini-2.5-flash', usage({ inputTokens: 100, cachedInputTokens: 100 })));
  });

  it('stays exact for very large volumes (beyond float-safe products)', () => {
    // 10^9 output tokens on 3 Pro long context: 10^9 × 18 µUSD = 1.8e10 µUSD; tokens × rate
    // alone is 1.8e16, past Number.MAX_SAFE_INTEGER.
    const cost = priceUsage(
      'gemini-3-pro',
      usage({ inputTokens: 300_000, outputTokens: 1_000_000_000 }),
    );
    expect(cost).toBe(300_000 * 4 + 1_000_000_000 * 18);
  });

  it('is a non-negative integer, monotonic in output and thinking tokens', () => {
    const counts = fc.integer({ min: 0, max: 150_000 });
    const arb = fc.record({
      inputTokens: counts,
      outputTokens: counts,
      cachedInputTokens: counts,
      thinkingTokens: counts,
    });
    const model = fc.constantFrom(...Object.keys(PRICING_TABLE), 'unknown-model');
    fc.assert(
      fc.property(model, arb, fc.integer({ min: 1, max: 1000 }), (m, u, extra) => {
        const base = priceUsage(m, u);
        expect(Number.isSafeInteger(base)).toBe(true);
        expect(base).toBeGreaterThanOrEqual(0);
        expect(
          priceUsage(m, { ...u, outputTokens: u.outputTokens + extra }),
        ).toBeGreaterThanOrEqual(base);
        expect(
          priceUsage(m, { ...u, thinkingTokens: u.thinkingTokens + extra }),
        ).toBeGreaterThanOrEqual(base);
      }),
    );
  });
});
