// The bench's table (Markdown, so a run can be pasted into docs as it is) and its totals,
// with the issue-17 targets for scripted runs: every task succeeds, the critic and the
// re-planner add at most one LLM call per task on average, and chaining sends at least 50%
// fewer round trips than one action per request would (round-trip reduction, docs/specs.md,
// "Metrics and KPIs").
import type { TaskOutcome } from './harness/run-task';

export interface Target {
  name: string;
  value: string;
  target: string;
  met: boolean;
}

export interface Summary {
  tasks: number;
  succeeded: number;
  /** (critic + re-planning calls) / tasks. */
  criticReplanPerTask: number;
  /** 1 − Σ steps / Σ actions sent over every task, and over the form fills only. */
  roundTripReduction: { all: number | null; formFills: number | null };
  targets: Target[];
}

const usd = (micro: number) => `${(micro / 1_000_000).toFixed(6)}`;
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const opt = (n: number | null | undefined) => (n === null || n === undefined ? '–' : String(n));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const percent = (rate: number | null) => (rate === null ? 'n/a' : `${Math.round(rate * 100)}%`);

/** Tasks with a form of several fields: where chaining can save round trips at all. */
export const isFormFill = (o: TaskOutcome) =>
  o.task.script.kind === 'steps' && o.task.script.intents.some((i) => i.kind === 'fill');

/**
 * Round-trip reduction (docs/specs.md, "Metrics and KPIs"): 1 − Σ steps / Σ actions sent (a step is
 * one round trip with an action or chain).
 */
function reduction(outcomes: readonly TaskOutcome[]): number | null {
  const records = outcomes.flatMap((o) => (o.record ? [o.record] : []));
  const actions = sum(records.map((r) => r.actionsSent));
  return actions > 0 ? 1 - sum(records.map((r) => r.steps)) / actions : null;
}

/** `extraTargets`: more targets for the summary (issue 34's efficiency targets). */
export function summarize(
  outcomes: readonly TaskOutcome[],
  extraTargets: readonly Target[] = [],
): Summary {
  const records = outcomes.flatMap((o) => (o.record ? [o.record] : []));
  const succeeded = outcomes.filter((o) => o.success).length;
  const criticReplanPerTask =
    outcomes.length > 0
      ? sum(records.map((r) => r.criticCalls + r.replanningCalls)) / outcomes.length
      : 0;
  const forms = outcomes.filter(isFormFill);
  const roundTripReduction = { all: reduction(outcomes), formFills: reduction(forms) };
  return {
    tasks: outcomes.length,
    succeeded,
    criticReplanPerTask,
    roundTripReduction,
    targets: [
      {
        name: 'success rate',
        value: `${succeeded}/${outcomes.length}`,
        target: '100%',
        met: succeeded === outcomes.length,
      },
      {
        name: 'critic + re-planning LLM calls per task',
        value: criticReplanPerTask.toFixed(2),
        target: '≤ 1',
        met: criticReplanPerTask <= 1,
      },
      {
        name: `round-trip reduction on the ${forms.length} form fills (1 − steps / actions)`,
        value: percent(roundTripReduction.formFills),
        target: '≥ 50%',
        met: roundTripReduction.formFills !== null && roundTripReduction.formFills >= 0.5,
      },
      ...extraTargets,
    ],
  };
}

const HEADER = [
  'task',
  'ok',
  'steps',
  'round trips',
  'actions',
  'LLM calls',
  'critic',
  'replan',
  'tokens',
  'cost $',
  'wall s',
];

function row(o: TaskOutcome): string[] {
  const r = o.record;
  return [
    o.task.id,
    o.success ? 'yes' : 'NO',
    opt(r?.steps),
    opt(r?.roundTrips),
    opt(r?.actionsSent),
    opt(r?.llmCalls),
    opt(r?.criticCalls),
    opt(r?.replanningCalls),
    opt(r?.tokens),
    r ? usd(r.costMicroUsd) : '–',
    seconds(o.wallMs),
  ];
}

function totalRow(outcomes: readonly TaskOutcome[]): string[] {
  const records = outcomes.flatMap((o) => (o.record ? [o.record] : []));
  const total = (pick: (r: (typeof records)[number]) => number | null) => {
    const values = records.map(pick);
    return values.some((v) => v === null) ? '–' : String(sum(values as number[]));
  };
  return [
    `**total (${outcomes.length})**`,
    `${outcomes.filter((o) => o.success).length}/${outcomes.length}`,
    total((r) => r.steps),
    total((r) => r.roundTrips),
    total((r) => r.actionsSent),
    total((r) => r.llmCalls),
    total((r) => r.criticCalls),
    total((r) => r.replanningCalls),
    total((r) => r.tokens),
    usd(sum(records.map((r) => r.costMicroUsd))),
    seconds(sum(outcomes.map((o) => o.wallMs))),
  ];
}

/** The table as Markdown, one row per task and a totals row. */
export function table(outcomes: readonly TaskOutcome[]): string {
  const rows = [HEADER, ...outcomes.map(row), totalRow(outcomes)];
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i < 2 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(HEADER), rule, ...rows.slice(1).map(line)].join('\n');
}

export interface ReportExtras {
  /** Printed between the table and the targets (per-node tables, fault counts). */
  sections?: readonly string[];
  targets?: readonly Target[];
}

/** The table, then the totals against the targets, then each failure with its reason. */
export function report(
  outcomes: readonly TaskOutcome[],
  model: string,
  extras: ReportExtras = {},
): string {
  const summary = summarize(outcomes, extras.targets);
  const failures = outcomes.filter((o) => !o.success);
  return [
    `bench/tasks — ${outcomes.length} goals on the demo sites, model: ${model}`,
    '',
    table(outcomes),
    '',
    ...(extras.sections ?? []).flatMap((s) => [s, '']),
    ...summary.targets.map(
      (t) => `${t.met ? 'PASS' : 'MISS'}  ${t.name}: ${t.value} (target ${t.target})`,
    ),
    `      round-trip reduction over all ${outcomes.length} tasks: ${percent(summary.roundTripReduction.all)} ` +
      '(clicks, navigation and finish() are never chained)',
    ...(failures.length > 0
      ? ['', 'failed:', ...failures.map((o) => `  ${o.task.id}: ${o.detail}`)]
      : []),
  ].join('\n');
}
