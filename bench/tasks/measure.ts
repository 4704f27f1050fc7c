// One task run with everything the report reads: the outcome, its calls per graph node with
// the shared prefix measured from the model's requests (the log's slice while it ran: tasks
// run one after another), the faults its calls met and the errors the server logged.
import { countFaults } from './faults/proxy';
import { runBenchTask } from './harness/run-task';
import type { Stack } from './stack';
import type { BenchTask } from './task';
import { nodeRows, serverErrorsIn, type MeasuredOutcome } from './usage/nodes';
import { prefixByActionType } from './usage/prefix';

export async function runMeasured(
  stack: Stack,
  task: BenchTask,
  timeoutMs: number,
  options: { variant?: string } = {},
): Promise<MeasuredOutcome> {
  const requestsFrom = stack.model?.log.length ?? 0;
  const eventsFrom = stack.proxy?.events.length ?? 0;
  const logFrom = stack.server.output().length;
  const outcome = await runBenchTask(
    stack.browser,
    { demo: stack.demo.url, server: stack.server, records: stack.records, timeoutMs },
    task,
    options,
  );
  const requests = stack.model?.log.slice(requestsFrom) ?? [];
  return {
    ...outcome,
    nodes: nodeRows(
      outcome.record?.nodes ?? [],
      prefixByActionType(requests, outcome.record?.calls ?? []),
    ),
    faults: stack.proxy ? countFaults(stack.proxy.events.slice(eventsFrom)) : null,
    serverErrors: serverErrorsIn(stack.server.output().slice(logFrom)),
  };
}

/** The line printed as each run ends. */
export const progressLine = (label: string, outcome: MeasuredOutcome) =>
  `${outcome.success ? 'ok  ' : 'FAIL'} ${label} (${(outcome.wallMs / 1000).toFixed(1)} s)${outcome.success ? '' : `: ${outcome.detail}`}`;
