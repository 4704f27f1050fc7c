// The issue-17 task benchmark (bench/tasks) in CI: every goal of its catalogue, one test each,
// through the real extension and a real server of its own whose model is the bench's scripted
// model (the goals' scripts, answered from each prompt's element list). A task passes when its
// run completed and its check reads the demo site's state as the goal wants; the checks are
// themselves checked to fail on the untouched pages. The bench's table is printed at the end;
// `npm run bench:tasks` runs the same catalogue with a real model when one is configured.
import { BENCH_TASKS } from '../bench/tasks/catalogue/index';
import { serverRecords, type ServerRecords } from '../bench/tasks/harness/records';
import {
  checksPassingUntouched,
  runBenchTask,
  type TaskOutcome,
} from '../bench/tasks/harness/run-task';
import type { ModelDouble } from '@tandem/agent/testing/model-double';
import { startScriptedModel } from '../bench/tasks/model/answer';
import { isFormFill, report, summarize } from '../bench/tasks/report';
import { expect, test, type Extension } from './support/fixtures';
import { useServer } from './support/flow';
import { startTandemServer, type TandemServer } from './support/tandem-server';

let model: ModelDouble | undefined;
let server: TandemServer | undefined;
let records: ServerRecords | undefined;
const outcomes: TaskOutcome[] = [];

function bench() {
  if (!server || !records) throw new Error('the bench server did not start');
  return { server, records };
}

const handle = (ext: Extension) => ({ context: ext.context, extensionId: ext.id });

test.beforeAll(async () => {
  model = await startScriptedModel();
  server = await startTandemServer({ gemini: model.url });
  records = await serverRecords(server);
});

test.afterAll(async ({ extWorker }) => {
  // The spec files after this one talk to the suite's server again.
  await useServer(extWorker, { url: extWorker.env.server, apiKey: extWorker.env.apiKey });
  if (outcomes.length > 0) console.log(`\n${report(outcomes, 'scripted (e2e)')}\n`);
  await records?.close();
  await server?.close();
  await model?.close();
});

for (const task of BENCH_TASKS) {
  test(`bench task ${task.id}: "${task.goal}"`, async ({ ext }) => {
    const { server, records } = bench();
    await useServer(ext, server);
    const outcome = await runBenchTask(
      handle(ext),
      { demo: ext.env.demo, server, records, timeoutMs: 90_000 },
      task,
    );
    outcomes.push(outcome);
    expect(outcome.success, `${task.id}: ${outcome.detail}`).toBe(true);
  });
}

test('bench tasks: every check fails on its untouched start page', async ({ ext }) => {
  const { server } = bench();
  const passing = await checksPassingUntouched(
    handle(ext),
    { demo: ext.env.demo, server },
    BENCH_TASKS,
  );
  expect(passing).toEqual([]);
});

test('bench tasks: the critic and re-planning add at most 1 LLM call per task; form fills chain', () => {
  expect(outcomes.length, 'the task tests ran first').toBeGreaterThan(0);
  const summary = summarize(outcomes);
  expect(summary.criticReplanPerTask).toBeLessThanOrEqual(1);
  // Every multi-field form went out as a chain: fewer round trips than actions.
  for (const outcome of outcomes.filter(isFormFill)) {
    const record = outcome.record;
    expect(record, outcome.task.id).not.toBeNull();
    expect(record?.steps ?? 0, outcome.task.id).toBeLessThan(record?.actionsSent ?? 0);
  }
});
