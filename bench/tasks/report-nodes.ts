// The per-node part of the report: for each graph node (usage action type), over every task
// and per task, calls, input/output/cached tokens and the shared prefix with the previous call,
// each as baseline → this run when a baseline is there; then the efficiency targets of issue 34.
import {
  baselineEfficiency,
  efficiencyOf,
  type Baseline,
  type BaselineNode,
  type Efficiency,
} from './efficiency';
import type { Target } from './report';
import { sumNodeRows, totalRow, type MeasuredOutcome, type NodeRow } from './usage/nodes';
import { prefixShare } from './usage/prefix';

const HEADER = ['task', 'node', 'calls', 'input tok', 'output tok', 'cached in', 'shared prefix'];

const pct = (share: number | null | undefined) =>
  share === null || share === undefined ? '–' : `${Math.round(share * 100)}%`;

/** `before → after`, or just `after` with no baseline at all. */
function change(before: string | undefined, after: string, hasBaseline: boolean): string {
  return hasBaseline ? `${before ?? '–'} → ${after}` : after;
}

function cells(
  task: string,
  node: string,
  row: NodeRow | undefined,
  before: BaselineNode | undefined,
  hasBaseline: boolean,
): string[] {
  const num = (pick: (r: NodeRow) => number) => (row ? String(pick(row)) : '–');
  const was = (pick: (b: BaselineNode) => number) => (before ? String(pick(before)) : undefined);
  return [
    task,
    node,
    change(
      was((b) => b.calls),
      num((r) => r.calls),
      hasBaseline,
    ),
    change(
      was((b) => b.inputTokens),
      num((r) => r.inputTokens),
      hasBaseline,
    ),
    change(
      was((b) => b.outputTokens),
      num((r) => r.outputTokens),
      hasBaseline,
    ),
    num((r) => r.cachedInputTokens),
    change(
      before ? pct(before.prefixShare) : undefined,
      pct(row && prefixShare(row.prefix)),
      hasBaseline,
    ),
  ];
}

/** Baseline nodes summed like the run's rows (the share re-weighted from its terms). */
function sumBaselineNodes(
  nodes: readonly Record<string, BaselineNode>[],
): Record<string, BaselineNode> {
  const out: Record<string, BaselineNode> = {};
  for (const [type, n] of nodes.flatMap((r) => Object.entries(r))) {
    const seen = out[type];
    const shared = (seen?.prefixChars.shared ?? 0) + n.prefixChars.shared;
    const input = (seen?.prefixChars.input ?? 0) + n.prefixChars.input;
    out[type] = {
      calls: (seen?.calls ?? 0) + n.calls,
      inputTokens: (seen?.inputTokens ?? 0) + n.inputTokens,
      outputTokens: (seen?.outputTokens ?? 0) + n.outputTokens,
      prefixShare: input > 0 ? shared / input : null,
      prefixChars: { shared, input },
    };
  }
  return out;
}

/** One task's (or the run's) rows: every node of either side, then the total. */
function section(
  task: string,
  rows: readonly NodeRow[],
  before: Record<string, BaselineNode> | null,
) {
  const types = [...new Set([...rows.map((r) => r.actionType), ...Object.keys(before ?? {})])];
  const has = before !== null;
  const lines = types.map((t) =>
    cells(
      task,
      t,
      rows.find((r) => r.actionType === t),
      before?.[t],
      has,
    ),
  );
  // Every node of the baseline summed into one: each node as its own record under one key.
  const beforeTotal = sumBaselineNodes(Object.values(before ?? {}).map((n) => ({ all: n }))).all;
  lines.push(cells(task, '(all nodes)', totalRow(rows), beforeTotal, has));
  return lines;
}

function markdown(rows: readonly string[][]): string {
  const widths = HEADER.map((_, i) =>
    Math.max(...[HEADER, ...rows].map((r) => (r[i] ?? '').length)),
  );
  const line = (c: readonly string[]) =>
    `| ${c.map((v, i) => (i < 2 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => `${'-'.repeat(w + 1)}${i < 2 ? '-' : ':'}`).join('|')}|`;
  return [line(HEADER), rule, ...rows.map(line)].join('\n');
}

/** The per-node tables: all tasks summed, then each task. */
export function nodeTables(
  outcomes: readonly MeasuredOutcome[],
  baseline: Baseline | null,
): string {
  const beforeOf = (id: string) => (baseline ? (baseline.tasks[id]?.nodes ?? {}) : null);
  const all = section(
    `all ${outcomes.length}`,
    sumNodeRows(outcomes.map((o) => o.nodes)),
    baseline ? sumBaselineNodes(outcomes.map((o) => beforeOf(o.task.id) ?? {})) : null,
  );
  const perTask = outcomes.flatMap((o) => section(o.task.id, o.nodes, beforeOf(o.task.id)));
  return [
    `per graph node${baseline ? ` (baseline → this run; baseline ${baseline.commit.slice(0, 10)}, ${baseline.recordedAt})` : ''}:`,
    "shared prefix = shared prefix with the previous call of the same task, ÷ this call's input",
    '(characters; the scripted model counts tokens as characters / 4). cached in: provider-cached input tokens.',
    '',
    markdown(all),
    '',
    markdown(perTask),
  ].join('\n');
}

const fixed = (n: number | null, digits: number) => (n === null ? 'n/a' : n.toFixed(digits));

/** The issue-34 targets: calls per step, tokens per task against the baseline, shared prefix. */
export function efficiencyTargets(
  outcomes: readonly MeasuredOutcome[],
  baseline: Baseline | null,
): { now: Efficiency; before: Efficiency | null; targets: Target[] } {
  // A task the server has no record of spent nothing we can count: both sides leave it out.
  const recorded = outcomes.filter((o) => o.record !== null);
  const now = efficiencyOf(recorded);
  const ids = recorded.map((o) => o.task.id);
  const before = baseline ? baselineEfficiency(baseline, ids) : null;
  const cut =
    before?.tokensPerTask && now.tokensPerTask !== null
      ? 1 - now.tokensPerTask / before.tokensPerTask
      : null;
  // One decimal: a cut of 34.7 % must not print as the 35 % it misses.
  const signed =
    cut === null ? 'n/a' : `${cut >= 0 ? '−' : '+'}${Math.abs(cut * 100).toFixed(1)} %`;
  return {
    now,
    before,
    targets: [
      {
        name: 'model calls per step',
        value: `${fixed(now.callsPerStep, 2)} (baseline ${fixed(before?.callsPerStep ?? null, 2)})`,
        target: '≤ 1.2',
        met: now.callsPerStep !== null && now.callsPerStep <= 1.2,
      },
      {
        name: 'tokens per task',
        value: `${fixed(now.tokensPerTask, 0)} (baseline ${fixed(before?.tokensPerTask ?? null, 0)}, ${signed})`,
        target: '≥ 35 % below baseline',
        met: cut !== null && cut >= 0.35,
      },
      {
        name: 'shared prefix with the previous call',
        value: `${pct(now.prefixShare)} (baseline ${pct(before?.prefixShare)})`,
        target: '≥ 60 %',
        met: now.prefixShare !== null && now.prefixShare >= 0.6,
      },
    ],
  };
}
