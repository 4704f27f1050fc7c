// Per graph node (the usage log's action type): the server's figures for the task (calls,
// tokens, cached tokens) next to the prefix share measured from the model's requests.
import type { FaultKind } from '../faults/plan';
import type { NodeUsage } from '../harness/records';
import type { TaskOutcome } from '../harness/run-task';
import { addPrefix, NO_PREFIX, type PrefixStats } from './prefix';

export interface NodeRow extends NodeUsage {
  /** Shared prefix with the previous call of the task, for this node's calls after a first. */
  prefix: PrefixStats;
}

const EMPTY_USAGE = { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };

/**
 * The usage log's rows with the prefix stats added; a node the model saw but the log lacks
 * (a call whose usage was never written) still gets a row, with zero calls logged.
 */
export function nodeRows(
  usage: readonly NodeUsage[],
  prefix: ReadonlyMap<string, PrefixStats>,
): NodeRow[] {
  const rows: NodeRow[] = usage.map((u) => ({
    ...u,
    prefix: prefix.get(u.actionType) ?? NO_PREFIX,
  }));
  for (const [actionType, stats] of prefix) {
    if (!rows.some((r) => r.actionType === actionType))
      rows.push({ actionType, ...EMPTY_USAGE, prefix: stats });
  }
  return rows;
}

/** Rows of several tasks summed per node, in the order nodes first appear. */
export function sumNodeRows(tasks: readonly (readonly NodeRow[])[]): NodeRow[] {
  const out = new Map<string, NodeRow>();
  for (const row of tasks.flat()) {
    const seen = out.get(row.actionType);
    out.set(
      row.actionType,
      seen
        ? {
            actionType: row.actionType,
            calls: seen.calls + row.calls,
            inputTokens: seen.inputTokens + row.inputTokens,
            outputTokens: seen.outputTokens + row.outputTokens,
            cachedInputTokens: seen.cachedInputTokens + row.cachedInputTokens,
            prefix: addPrefix(seen.prefix, row.prefix),
          }
        : { ...row },
    );
  }
  return [...out.values()];
}

/** All of a task's (or a run's) nodes as one row. */
export function totalRow(rows: readonly NodeRow[], label = 'total'): NodeRow {
  return rows.reduce<NodeRow>(
    (sum, row) => ({
      actionType: label,
      calls: sum.calls + row.calls,
      inputTokens: sum.inputTokens + row.inputTokens,
      outputTokens: sum.outputTokens + row.outputTokens,
      cachedInputTokens: sum.cachedInputTokens + row.cachedInputTokens,
      prefix: addPrefix(sum.prefix, row.prefix),
    }),
    { actionType: label, ...EMPTY_USAGE, prefix: NO_PREFIX },
  );
}

/** A task's outcome with its per-node figures and the faults its calls met (faults mode). */
export interface MeasuredOutcome extends TaskOutcome {
  nodes: NodeRow[];
  /** Faults injected while the task ran, by kind; null outside faults mode. */
  faults: Record<FaultKind, number> | null;
  /** The errors and warnings the server logged while the task ran (their messages). */
  serverErrors: string[];
}

/** The message of each WARN/ERROR line of the server's log (its JSON `error.message`). */
export function serverErrorsIn(log: string): string[] {
  return log
    .split('\n')
    .filter((line) => / (WARN|ERROR) /.test(line))
    .map((line) => {
      const message = /"message":"((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
      const what = / (?:WARN|ERROR) (.*?) requestId=/.exec(line)?.[1] ?? '';
      return message !== undefined
        ? `${what}: ${message.replace(/\\"/g, '"')}`
        : line.slice(0, 300);
    });
}
