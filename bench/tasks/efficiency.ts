// The run's efficiency figures and the baseline they are held against (issue 34): model calls
// per step, tokens per task and the shared-prefix share, recorded once on the code before the
// change (baseline.json, `--write-baseline`) so one run prints before and after.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sumNodeRows, totalRow, type MeasuredOutcome } from './usage/nodes';
import { prefixShare } from './usage/prefix';

export const BASELINE_PATH = path.resolve(import.meta.dirname, 'baseline.json');

export interface BaselineNode {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Shared prefix with the previous call (null: no call of this node after a task's first). */
  prefixShare: number | null;
  /** The share's terms, so a subset of tasks can be re-weighted exactly. */
  prefixChars: { shared: number; input: number };
}

export interface BaselineTask {
  success: boolean;
  steps: number;
  calls: number;
  tokens: number;
  nodes: Record<string, BaselineNode>;
}

export interface Efficiency {
  tasks: number;
  succeeded: number;
  steps: number;
  calls: number;
  tokens: number;
  callsPerStep: number | null;
  tokensPerTask: number | null;
  /** Input-weighted over every call after a task's first. */
  prefixShare: number | null;
  prefixChars: { shared: number; input: number };
}

export interface Baseline {
  recordedAt: string;
  /** The commit the baseline's code was on (uncommitted changes are not captured). */
  commit: string;
  model: string;
  tasks: Record<string, BaselineTask>;
  totals: Efficiency;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

function efficiencyOfParts(
  parts: readonly Omit<BaselineTask, 'nodes'>[],
  shared: number,
  input: number,
): Efficiency {
  const sum = (pick: (t: Omit<BaselineTask, 'nodes'>) => number) =>
    parts.reduce((n, t) => n + pick(t), 0);
  const [steps, calls, tokens] = [sum((t) => t.steps), sum((t) => t.calls), sum((t) => t.tokens)];
  return {
    tasks: parts.length,
    succeeded: parts.filter((t) => t.success).length,
    steps,
    calls,
    tokens,
    callsPerStep: ratio(calls, steps),
    tokensPerTask: ratio(tokens, parts.length),
    prefixShare: ratio(shared, input),
    prefixChars: { shared, input },
  };
}

export function efficiencyOf(outcomes: readonly MeasuredOutcome[]): Efficiency {
  const prefix = totalRow(sumNodeRows(outcomes.map((o) => o.nodes))).prefix;
  return efficiencyOfParts(outcomes.map(taskPart), prefix.sharedChars, prefix.inputChars);
}

/** The baseline's figures over the given tasks only, so `--only` compares like with like. */
export function baselineEfficiency(baseline: Baseline, ids: readonly string[]): Efficiency | null {
  const tasks = ids.flatMap((id) => (baseline.tasks[id] ? [baseline.tasks[id]] : []));
  if (tasks.length === 0) return null;
  const nodes = tasks.flatMap((t) => Object.values(t.nodes));
  const shared = nodes.reduce((n, node) => n + node.prefixChars.shared, 0);
  const input = nodes.reduce((n, node) => n + node.prefixChars.input, 0);
  return efficiencyOfParts(tasks, shared, input);
}

function taskPart(o: MeasuredOutcome): Omit<BaselineTask, 'nodes'> {
  return {
    success: o.success,
    steps: o.record?.steps ?? 0,
    calls: o.record?.llmCalls ?? 0,
    tokens: o.record?.tokens ?? 0,
  };
}

function baselineTask(o: MeasuredOutcome): BaselineTask {
  const nodes = Object.fromEntries(
    o.nodes.map((n) => [
      n.actionType,
      {
        calls: n.calls,
        inputTokens: n.inputTokens,
        outputTokens: n.outputTokens,
        prefixShare: prefixShare(n.prefix),
        prefixChars: { shared: n.prefix.sharedChars, input: n.prefix.inputChars },
      },
    ]),
  );
  return { ...taskPart(o), nodes };
}

function currentCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export function readBaseline(file = BASELINE_PATH): Baseline | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Baseline) : null;
}

export function writeBaseline(
  outcomes: readonly MeasuredOutcome[],
  model: string,
  file = BASELINE_PATH,
) {
  const baseline: Baseline = {
    recordedAt: new Date().toISOString(),
    commit: currentCommit(),
    model,
    tasks: Object.fromEntries(outcomes.map((o) => [o.task.id, baselineTask(o)])),
    totals: efficiencyOf(outcomes),
  };
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
}
