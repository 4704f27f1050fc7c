// bench/tasks: the goal catalogue run end to end — the demo sites, the real server
// (production build), the real built extension in Chromium driven through its popup — with
// the model the environment configures (GEMINI_API_KEY, or LLM_BASE_URL + LLM_MODEL), else the
// scripted model behind a local fake Gemini. Prints per task: success, steps, round trips,
// actions, LLM calls, critic + re-planning calls, tokens, cost and wall time, all read from
// the server's records; then totals and the targets. Exits 1 when a scripted task fails.
//
//   npm run bench:tasks                          # builds server + extension, then runs
//   npm run bench:tasks -- --only form-request,modal-confirm --scripted --json out.json
import { writeFileSync } from 'node:fs';
import { startDemoSites } from '@tandem/demo-sites';
import { BENCH_TASKS } from './catalogue/index';
import { modelChoice, serverEnv } from './env';
import { launchExtension } from './harness/browser';
import { serverRecords } from './harness/records';
import { runBenchTask, type TaskOutcome } from './harness/run-task';
import { startServer } from './harness/server';
import { startScriptedModel, type ScriptedModel } from './model/answer';
import { report, summarize } from './report';

function args(argv: string[]) {
  const value = (name: string) =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ??
    (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
  return {
    scripted: argv.includes('--scripted'),
    only: value('only')?.split(',').filter(Boolean) ?? [],
    json: value('json'),
  };
}

async function main() {
  const options = args(process.argv.slice(2));
  const tasks = options.only.length
    ? BENCH_TASKS.filter((t) => options.only.includes(t.id))
    : BENCH_TASKS;
  if (tasks.length === 0) throw new Error(`no task matches --only ${options.only.join(',')}`);
  const model = modelChoice({ forceScripted: options.scripted });

  const demo = await startDemoSites();
  let scripted: ScriptedModel | null = null;
  if (model.kind === 'scripted') scripted = await startScriptedModel();
  const modelEnv =
    model.kind === 'real'
      ? model.env
      : { GEMINI_API_KEY: 'scripted', GEMINI_BASE_URL: scripted?.url ?? '', LLM_MAX_RETRIES: '0' };
  const server = await startServer((own) => serverEnv(modelEnv, own));
  const browser = await launchExtension(server);
  const records = await serverRecords(server);
  const outcomes: TaskOutcome[] = [];
  try {
    for (const task of tasks) {
      const outcome = await runBenchTask(
        browser,
        {
          demo: demo.url,
          server,
          records,
          timeoutMs: model.kind === 'scripted' ? 90_000 : 300_000,
        },
        task,
      );
      outcomes.push(outcome);
      console.log(
        `${outcome.success ? 'ok  ' : 'FAIL'} ${task.id} (${(outcome.wallMs / 1000).toFixed(1)} s)${outcome.success ? '' : `: ${outcome.detail}`}`,
      );
    }
  } finally {
    // A scripted task that fails is a bug somewhere: the server's last words help find it.
    if (model.kind === 'scripted' && outcomes.some((o) => !o.success)) {
      const tail = server.output().trim().split('\n').slice(-20);
      console.log(
        `\nserver output (last 20 lines):\n${tail.map((l) => l.slice(0, 300)).join('\n')}`,
      );
    }
    await records.close();
    await browser.close();
    await server.close();
    await scripted?.close();
    await demo.close();
  }

  console.log(`\n${report(outcomes, model.label)}`);
  if (options.json) {
    const rows = outcomes.map(({ task, ...rest }) => ({ id: task.id, goal: task.goal, ...rest }));
    writeFileSync(
      options.json,
      JSON.stringify({ model: model.label, summary: summarize(outcomes), rows }, null, 2),
    );
  }
  const failed = outcomes.filter((o) => !o.success).length;
  if (model.kind === 'scripted' && failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
