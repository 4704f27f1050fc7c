// The adversarial suite's figures per variation kind: how often the replay was taken, how
// often it was silently wrong, field precision/recall and model tokens on the later pages.
// The CI test and the bench print the same table, so a fix can be compared figure for figure.
import type { VariationKind, VariationLabel } from './adversarial-pages';
import type { PageOutcome, ScenarioOutcome } from './adversarial-runner';

export interface KindFigures {
  kind: VariationKind | 'all';
  label: VariationLabel | 'mixed';
  scenarios: number;
  /** Page 1 left a replay recipe. */
  learned: number;
  /** (learning page, later page) pairs. */
  pairs: number;
  replayTaken: number;
  /** Replayed and exactly the ground truth. */
  replayExact: number;
  silentlyWrong: number;
  /** Replayed, wrong, with a warning or isPartial. */
  wrongWithWarning: number;
  precision: number;
  recall: number;
  /** Model tokens per later page, with the strategy to replay. */
  tokensPerPage: number;
  /** Model tokens per later page with no strategy (when the run measured it), else null. */
  modelOnlyTokensPerPage: number | null;
  /** Later pages the model path alone answered exactly (when measured), else null. */
  modelOnlyExact: number | null;
}

function figuresOf(
  kind: KindFigures['kind'],
  label: KindFigures['label'],
  outcomes: readonly ScenarioOutcome[],
): KindFigures {
  const pages: PageOutcome[] = outcomes.flatMap((o) => o.later);
  const sum = (pick: (page: PageOutcome) => number) => pages.reduce((s, p) => s + pick(p), 0);
  const extracted = sum((p) => p.score.extractedFields);
  const truth = sum((p) => p.score.truthFields);
  const measured = pages.filter((p) => p.modelOnly !== null);
  const perPage = (total: number, count: number) => (count === 0 ? 0 : total / count);
  return {
    kind,
    label,
    scenarios: outcomes.length,
    learned: outcomes.filter((o) => o.learned).length,
    pairs: pages.length,
    replayTaken: pages.filter((p) => p.replayed).length,
    replayExact: pages.filter((p) => p.replayed && p.exact).length,
    silentlyWrong: pages.filter((p) => p.silentlyWrong).length,
    wrongWithWarning: pages.filter((p) => p.replayed && !p.exact && !p.silentlyWrong).length,
    // Nothing extracted where nothing was there is right: precision 1, recall 1.
    precision: extracted === 0 ? 1 : sum((p) => p.score.correctFields) / extracted,
    recall: truth === 0 ? 1 : sum((p) => p.score.recalledFields) / truth,
    tokensPerPage: perPage(
      sum((p) => p.tokens),
      pages.length,
    ),
    modelOnlyTokensPerPage:
      measured.length === 0
        ? null
        : perPage(
            measured.reduce((s, p) => s + (p.modelOnly?.tokens ?? 0), 0),
            measured.length,
          ),
    modelOnlyExact:
      measured.length === 0 ? null : measured.filter((p) => p.modelOnly?.exact).length,
  };
}

/** Figures per variation kind (in the order first seen), then one row for everything. */
export function adversarialFigures(outcomes: readonly ScenarioOutcome[]): KindFigures[] {
  const byKind = new Map<VariationKind, ScenarioOutcome[]>();
  for (const outcome of outcomes) {
    const list = byKind.get(outcome.scenario.kind) ?? [];
    list.push(outcome);
    byKind.set(outcome.scenario.kind, list);
  }
  const rows = [...byKind.entries()].map(([kind, list]) =>
    figuresOf(kind, list[0]?.scenario.label ?? 'benign', list),
  );
  return [...rows, figuresOf('all', 'mixed', outcomes)];
}

const pct = (part: number, whole: number) =>
  whole === 0 ? '   -' : `${((100 * part) / whole).toFixed(0).padStart(3)}%`;

/** The figures as a fixed-width table, one line per kind and a total line. */
export function formatFigures(rows: readonly KindFigures[]): string[] {
  const header =
    'kind                label    pairs  learned  replay  exact  silently-wrong  warned  precision  recall  tokens/page  model-only';
  const lines = rows.map((r) =>
    [
      r.kind.padEnd(19),
      r.label.padEnd(8),
      String(r.pairs).padStart(5),
      pct(r.learned, r.scenarios).padStart(8),
      pct(r.replayTaken, r.pairs).padStart(7),
      pct(r.replayExact, r.replayTaken).padStart(6),
      String(r.silentlyWrong).padStart(15),
      String(r.wrongWithWarning).padStart(7),
      r.precision.toFixed(3).padStart(10),
      r.recall.toFixed(3).padStart(7),
      r.tokensPerPage.toFixed(0).padStart(12),
      (r.modelOnlyTokensPerPage === null ? '-' : r.modelOnlyTokensPerPage.toFixed(0)).padStart(11),
    ].join(' '),
  );
  return [header, ...lines];
}

/** One line: what the fix has to bring to zero, and what it must not lose. */
export function summaryLine(rows: readonly KindFigures[]): string {
  const all = rows.find((r) => r.kind === 'all');
  const benign = rows.filter((r) => r.label === 'benign');
  const hostile = rows.filter((r) => r.label === 'hostile');
  const total = (list: KindFigures[], pick: (r: KindFigures) => number) =>
    list.reduce((s, r) => s + pick(r), 0);
  return [
    `${all?.pairs ?? 0} pairs`,
    `replay taken ${pct(all?.replayTaken ?? 0, all?.pairs ?? 0).trim()}`,
    `silently wrong ${all?.silentlyWrong ?? 0} (hostile ${total(hostile, (r) => r.silentlyWrong)}, benign ${total(benign, (r) => r.silentlyWrong)})`,
    `benign replay taken ${pct(
      total(benign, (r) => r.replayTaken),
      total(benign, (r) => r.pairs),
    ).trim()}`,
    `precision ${(all?.precision ?? 0).toFixed(3)}, recall ${(all?.recall ?? 0).toFixed(3)}`,
  ].join('; ');
}
