// The adversarial scenarios as one fast-check arbitrary, and a seeded sample of them: what the
// CI test and the bench draw from.
import fc from 'fast-check';
import { listingScenario } from './adversarial-listing';
import {
  scenarioParams,
  VARIATION_KINDS,
  VARIATIONS,
  type AdversarialScenario,
  type ScenarioParams,
  type VariationKind,
} from './adversarial-pages';
import { tableScenario } from './adversarial-table';

export function buildScenario(params: ScenarioParams): AdversarialScenario {
  return VARIATIONS[params.kind].page === 'table' ? tableScenario(params) : listingScenario(params);
}

/** Page sequences (a learning page 1, then pages 2..n) of the given variation kinds. */
export function adversarialScenario(
  kinds: readonly VariationKind[] = VARIATION_KINDS,
): fc.Arbitrary<AdversarialScenario> {
  return scenarioParams(kinds).map(buildScenario);
}

/**
 * Scenarios drawn with `seed` until they hold at least `pairs` (learning page, later page)
 * pairs; the kinds take turns, so every kind gets its share even in a small sample.
 */
export function sampleScenarios(
  seed: number,
  pairs: number,
  kinds: readonly VariationKind[] = VARIATION_KINDS,
): AdversarialScenario[] {
  // Every scenario has at least one pair, so this many per kind is always enough.
  const perKind = Math.max(1, Math.ceil(pairs / kinds.length));
  const drawn = kinds.map((kind, k) =>
    fc.sample(adversarialScenario([kind]), { seed: (seed + k * 104_729) | 0, numRuns: perKind }),
  );
  const scenarios: AdversarialScenario[] = [];
  let total = 0;
  for (let round = 0; round < perKind && total < pairs; round++) {
    for (const batch of drawn) {
      const scenario = batch[round];
      if (!scenario || total >= pairs) continue;
      scenarios.push(scenario);
      total += scenario.pages.length - 1;
    }
  }
  return scenarios;
}
