// A merged call's logs: each part's share by its field's size, and amounts that always add up.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallPart } from './usage-event';
import { partFractions, splitUsage, type UsageAmounts } from './usage-shares';

const PLAN: CallPart = { node: 'planning', actionType: 'PLANNING', field: 'plan' };
const AMOUNTS: UsageAmounts = {
  inputTokens: 1000,
  outputTokens: 200,
  cachedInputTokens: 400,
  thinkingTokens: 0,
  totalTokens: 1200,
  costMicroUsd: 999,
};

describe('merged call shares', () => {
  it("gives a part its field's share of the answer, and the caller the rest", () => {
    const output = { source: 'PAGE', plan: { steps: ['Click Save'] } };
    const [fraction] = partFractions(output, [PLAN]);
    expect(fraction).toBeCloseTo(
      JSON.stringify(output.plan).length / JSON.stringify(output).length,
    );
    const [caller, plan] = splitUsage(
      { actionType: 'CONTEXT_ANALYSIS', output, alsoFor: [PLAN] },
      AMOUNTS,
    );
    expect(caller).toMatchObject({ idSuffix: '', actionType: 'CONTEXT_ANALYSIS', partNode: null });
    expect(plan).toMatchObject({
      idSuffix: ':planning',
      actionType: 'PLANNING',
      partNode: 'planning',
    });
    expect(plan?.amounts.outputTokens).toBe(Math.floor(200 * (fraction ?? 0)));
  });

  it('gives a part nothing when its field is null or missing, or the call failed', () => {
    for (const output of [{ source: 'WEB_SEARCH', plan: null }, { source: 'PAGE' }, undefined]) {
      const logs = splitUsage({ actionType: 'CONTEXT_ANALYSIS', output, alsoFor: [PLAN] }, AMOUNTS);
      expect(logs).toEqual([
        { idSuffix: '', actionType: 'CONTEXT_ANALYSIS', partNode: null, amounts: AMOUNTS },
      ]);
    }
  });

  it('logs that always add up to the call, never negative, cached within input (property)', () => {
    const amountsArb = fc
      .record({
        inputTokens: fc.nat(200_000),
        outputTokens: fc.nat(20_000),
        cachedShare: fc.double({ min: 0, max: 1, noNaN: true }),
        thinkingTokens: fc.nat(5_000),
        costMicroUsd: fc.nat(5_000_000),
      })
      .map(({ cachedShare, ...a }) => ({
        ...a,
        cachedInputTokens: Math.floor(a.inputTokens * cachedShare),
        totalTokens: a.inputTokens + a.outputTokens + a.thinkingTokens,
      }));
    const outputArb = fc.record({
      thought: fc.string(),
      outcome: fc.option(fc.record({ description: fc.string() }), { nil: undefined }),
      plan: fc.option(fc.array(fc.string()), { nil: null }),
    });
    const parts: CallPart[] = [
      PLAN,
      { node: 'outcome_prediction', actionType: 'OUTCOME_PREDICTION', field: 'outcome' },
    ];
    fc.assert(
      fc.property(amountsArb, outputArb, (amounts, output) => {
        const logs = splitUsage(
          { actionType: 'ACTION_GENERATION', output, alsoFor: parts },
          amounts,
        );
        expect(logs[0]?.partNode).toBeNull();
        for (const key of Object.keys(amounts) as (keyof UsageAmounts)[]) {
          expect(logs.reduce((n, l) => n + l.amounts[key], 0)).toBe(amounts[key]);
        }
        for (const { amounts: a } of logs) {
          expect(Math.min(...Object.values(a))).toBeGreaterThanOrEqual(0);
          expect(a.cachedInputTokens).toBeLessThanOrEqual(a.inputTokens);
        }
      }),
      { seed: 34, numRuns: 300 },
    );
  });
});
