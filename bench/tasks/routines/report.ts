// The routines mode's tables (Markdown, like the bench's main table): first against second run
// per task with the totals, then the site variants, then the targets.
import type { Target } from '../report';
import type { PairTotals, RunFigures, TaskPair, VariantFigures } from './figures';

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const perStep = (n: number | null) => (n === null ? '–' : n.toFixed(2));
const yes = (b: boolean) => (b ? 'yes' : 'NO');

/** Left-aligns the first `left` columns, right-aligns the rest. */
function markdown(header: string[], rows: string[][], left: number): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i < left ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i < left ? `${'-'.repeat(w + 2)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

const PAIR_HEADER = [
  'task',
  'routine',
  'ok 1',
  'ok 2',
  'rerun',
  'calls 1',
  'calls 2',
  'calls/step 1',
  'calls/step 2',
  'tokens 1',
  'tokens 2',
  'wall s 1',
  'wall s 2',
];

const pairCells = (first: RunFigures, second: RunFigures) => [
  String(first.calls),
  String(second.calls),
  perStep(first.callsPerStep),
  perStep(second.callsPerStep),
  String(first.tokens),
  String(second.tokens),
  seconds(first.wallMs),
  seconds(second.wallMs),
];

export function pairTable(pairs: readonly TaskPair[], totals: PairTotals): string {
  const rows = pairs.map((p) => [
    p.id,
    p.routine ? `v${p.routine.version}` : '–',
    yes(p.first.success),
    yes(p.second.success),
    p.routineUsed ? 'yes' : 'no',
    ...pairCells(p.first, p.second),
  ]);
  const total = [
    `**total (${totals.tasks})**`,
    `${totals.routinesSaved} saved`,
    `${totals.first.succeeded}/${totals.tasks}`,
    `${totals.second.succeeded}/${totals.tasks}`,
    `${totals.routinesUsed}/${totals.tasks}`,
    String(totals.first.calls),
    String(totals.second.calls),
    perStep(totals.first.callsPerStep),
    perStep(totals.second.callsPerStep),
    String(totals.first.tokens),
    String(totals.second.tokens),
    seconds(totals.first.wallMs),
    seconds(totals.second.wallMs),
  ];
  return markdown(PAIR_HEADER, [...rows, total], 2);
}

const VARIANT_HEADER = [
  'variant',
  'change',
  'ok',
  'rerun',
  'calls',
  'routine calls',
  'changed steps',
  'calls/changed step',
  'new version',
  'declined',
  'tokens',
  'wall s',
];

export function variantTable(
  variants: readonly VariantFigures[],
  changes: ReadonlyMap<string, string>,
): string {
  const rows = variants.map((v) => [
    v.id,
    changes.get(v.id) ?? '',
    yes(v.run.success),
    v.reran ? 'yes' : 'no',
    String(v.run.calls),
    String(v.run.routineCalls),
    String(v.changedSteps),
    perStep(v.callsPerChangedStep),
    v.expect === 'heal' ? (v.hadRoutine ? (v.newVersion ? 'yes' : 'no') : 'no routine') : '–',
    v.declined === null ? '–' : v.declined ? 'yes' : 'no',
    String(v.run.tokens),
    seconds(v.run.wallMs),
  ]);
  return markdown(VARIANT_HEADER, rows, 2);
}

export const targetLines = (targets: readonly Target[]) =>
  targets.map((t) => `${t.met ? 'PASS' : 'MISS'}  ${t.name}: ${t.value} (target ${t.target})`);
