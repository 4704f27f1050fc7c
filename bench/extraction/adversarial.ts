// bench/extraction --adversarial: the generated adversarial suite for the replay of learned
// strategies, at scale. Page sequences (a learning page 1 and pages 2..n that differ from it the
// way real sites do: locales, split-span prices, "Sponsored" look-alikes, badges, wrappers,
// swapped or added table columns, another entity under the same URL pattern, two layouts taking
// turns, sibling sections and path pagination that widen a URL pattern) run through the
// real ExtractionService and store with a scripted model that answers from its prompt alone.
// Per variation kind: pairs, how often page 1 taught a recipe, how often the replay was taken
// and exact, how often it was silently wrong (replayed, wrong, no warning), field precision and
// recall on the later pages, and model tokens per later page with and without the strategy.
//
//   npm run bench:extraction -- --adversarial [--seed N] [--pairs N]   (pairs ≥ 500 by default)
//
// Target once the replay is fixed: 0 silently wrong, with benign pages still replayed.
import { createLibsqlStore } from '@tandem/store';
import {
  adversarialFigures,
  adversarialSummaryLine,
  formatAdversarialFigures,
  runScenarios,
  sampleScenarios,
  type ScenarioOutcome,
} from '@tandem/extraction/testing';

export interface AdversarialOptions {
  seed: number;
  pairs: number;
}

function option(argv: readonly string[], name: string): string | undefined {
  const inline = argv.find((a) => a.startsWith(`--${name}=`));
  if (inline) return inline.slice(name.length + 3);
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : undefined;
}

export function adversarialOptions(argv: readonly string[]): AdversarialOptions {
  const seed = Number(option(argv, 'seed') ?? Math.floor(Math.random() * 2 ** 31));
  const pairs = Number(option(argv, 'pairs') ?? 500);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${seed}`);
  if (!Number.isInteger(pairs) || pairs < 1) throw new Error(`--pairs must be ≥ 1, got ${pairs}`);
  return { seed, pairs };
}

/** One silently wrong page per kind: enough to see what the replay read. */
function examples(outcomes: readonly ScenarioOutcome[]): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const { scenario, later } of outcomes) {
    const wrong = later.find((page) => page.silentlyWrong);
    if (!wrong || seen.has(scenario.kind)) continue;
    seen.add(scenario.kind);
    lines.push(
      `  ${scenario.kind} (${scenario.markup}, ${scenario.locale}) ${wrong.url}: ${wrong.score.correctFields} of ${wrong.score.extractedFields} fields right, ${wrong.score.recalledFields} of ${wrong.score.truthFields} recalled`,
    );
  }
  return lines;
}

export async function adversarialBench(options: AdversarialOptions): Promise<void> {
  console.log(
    `bench/extraction --adversarial: seed ${options.seed}, ≥ ${options.pairs} page pairs (rerun with --seed ${options.seed} --pairs ${options.pairs})`,
  );
  const started = performance.now();
  const store = await createLibsqlStore({ url: ':memory:' });
  const scenarios = sampleScenarios(options.seed, options.pairs);
  const outcomes = await runScenarios(scenarios, { store, modelOnly: true });
  const figures = adversarialFigures(outcomes);
  console.log(
    `\n${scenarios.length} scenarios in ${((performance.now() - started) / 1000).toFixed(1)} s. learned: page 1 taught a recipe; replay: later pages replayed; exact: of those replayed; warned: wrong replays with a warning; tokens/page: model tokens per later page with the strategy, model-only: with none.\n`,
  );
  for (const line of formatAdversarialFigures(figures)) console.log(line);
  console.log(`\nsummary: ${adversarialSummaryLine(figures)}`);
  const wrong = examples(outcomes);
  if (wrong.length > 0) console.log(`\nsilently wrong, one per kind:\n${wrong.join('\n')}`);
  const all = figures.find((f) => f.kind === 'all');
  console.log(
    `\ntarget: ${all?.silentlyWrong === 0 ? 'PASS' : 'FAIL'}  0 silently wrong replays (${all?.silentlyWrong ?? 0})`,
  );
  if (all?.silentlyWrong !== 0) process.exitCode = 1;
}
