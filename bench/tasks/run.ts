// bench/tasks: the goal catalogue run end to end — the demo sites, the real server
// (production build), the real built extension in Chromium driven through its popup — with
// the model the environment configures (GEMINI_API_KEY, or LLM_BASE_URL + LLM_MODEL), else the
// scripted model behind a local fake Gemini. Prints per task: success, steps, round trips,
// actions, LLM calls, critic + re-planning calls, tokens, cost and wall time, all read from
// the server's records; per graph node calls, tokens and the shared prompt prefix, against
// baseline.json; then totals and the targets. Exits 1 when a scripted task fails (not under
// --faults, where failures are the findings). With --routines, each task runs twice (the second
// should rerun the routine the first saved) and the site variants after their base task.
//
//   npm run bench:tasks                          # builds server + extension, then runs
//   npm run bench:tasks -- --only form-request,modal-confirm --scripted --json out.json
//   npm run bench:tasks -- --faults [--seed 7] [--fault-rate 0.8 | --fault-scale 2]
//   npm run bench:tasks -- --scripted --write-baseline
//   npm run bench:tasks -- --scripted --routines [--only emr-add-patient,form-request]
//   npm run bench:tasks -- --scripted --routines --model-latency 1000   # a real model's pace
import { writeFileSync } from 'node:fs';
import { BENCH_TASKS, VARIANT_RUNS } from './catalogue/index';
import { readBaseline, writeBaseline, BASELINE_PATH } from './efficiency';
import { modelChoice } from './env';
import { faultPlan, type FaultPlan } from './faults/plan';
import { faultSection, faultSummary } from './faults/report';
import { progressLine, runMeasured } from './measure';
import { report, summarize } from './report';
import { efficiencyTargets, nodeTables } from './report-nodes';
import { runRoutines, routinesOutput, type RoutinesResult } from './routines/run';
import { startStack, type Stack } from './stack';
import { sumNodeRows, type MeasuredOutcome } from './usage/nodes';

interface Options {
  scripted: boolean;
  only: string[];
  json: string | undefined;
  /** Null: no fault proxy. */
  faults: FaultPlan | null;
  writeBaseline: boolean;
  /** Each task twice (a routine's rerun) and the site variants after their base task. */
  routines: boolean;
  /** Milliseconds each scripted answer takes (a real model's latency); 0: instant. */
  modelLatencyMs: number;
}

function args(argv: string[]): Options {
  const value = (name: string) =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ??
    (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
  const number = (name: string) => {
    const raw = value(name);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new Error(`--${name} takes a number, got ${raw}`);
    return n;
  };
  const rate = number('fault-rate');
  const scale = number('fault-scale');
  const seed = number('seed');
  // A rate or a scale alone asks for faults too.
  const faults = argv.includes('--faults') || rate !== undefined || scale !== undefined;
  return {
    scripted: argv.includes('--scripted'),
    only: value('only')?.split(',').filter(Boolean) ?? [],
    json: value('json'),
    faults: faults
      ? faultPlan({
          ...(seed !== undefined ? { seed } : {}),
          ...(rate !== undefined ? { rate } : {}),
          ...(scale !== undefined ? { scale } : {}),
        })
      : null,
    writeBaseline: argv.includes('--write-baseline'),
    routines: argv.includes('--routines'),
    modelLatencyMs: number('model-latency') ?? 0,
  };
}

/** Every task in turn; each one's model requests and faults are the log's slice while it ran. */
async function runTasks(stack: Stack, tasks: typeof BENCH_TASKS, timeoutMs: number) {
  const outcomes: MeasuredOutcome[] = [];
  for (const task of tasks) {
    const outcome = await runMeasured(stack, task, timeoutMs);
    outcomes.push(outcome);
    console.log(progressLine(task.id, outcome));
  }
  return outcomes;
}

function output(outcomes: MeasuredOutcome[], options: Options, label: string, stack: Stack) {
  const baseline = readBaseline();
  const efficiency = efficiencyTargets(outcomes, baseline);
  const faults =
    options.faults && stack.proxy ? faultSummary(options.faults, stack.proxy.events) : null;
  const sections = [
    nodeTables(outcomes, baseline),
    ...(faults ? [faultSection(faults, outcomes)] : []),
  ];
  console.log(`\n${report(outcomes, label, { sections, targets: efficiency.targets })}`);
  if (options.json) {
    const rows = outcomes.map(({ task, ...rest }) => ({ id: task.id, goal: task.goal, ...rest }));
    const summary = {
      ...summarize(outcomes, efficiency.targets),
      efficiency: { run: efficiency.now, baseline: efficiency.before },
      nodes: sumNodeRows(outcomes.map((o) => o.nodes)),
    };
    writeFileSync(
      options.json,
      JSON.stringify(
        {
          model: label,
          summary,
          faults,
          rows,
        },
        null,
        2,
      ),
    );
  }
  if (options.writeBaseline) {
    writeBaseline(outcomes, label);
    console.log(`\nbaseline written: ${BASELINE_PATH}`);
  }
}

async function main() {
  const options = args(process.argv.slice(2));
  if (options.faults && options.writeBaseline)
    throw new Error('--write-baseline records the plain scripted run; drop --faults');
  // A partial baseline would make every later run's totals compare against fewer tasks.
  if (options.only.length > 0 && options.writeBaseline)
    throw new Error('--write-baseline records every task; drop --only');
  const tasks = options.only.length
    ? BENCH_TASKS.filter((t) => options.only.includes(t.id))
    : BENCH_TASKS;
  if (tasks.length === 0) throw new Error(`no task matches --only ${options.only.join(',')}`);
  if (options.routines && (options.faults || options.writeBaseline))
    throw new Error('--routines measures reruns on their own; drop --faults and --write-baseline');
  // The proxy sits in front of the scripted model: faults mode always runs it.
  const model = modelChoice({ forceScripted: options.scripted || options.faults !== null });
  if (options.modelLatencyMs < 0) throw new Error('--model-latency takes milliseconds ≥ 0');
  const stack = await startStack(model, options.faults, options.modelLatencyMs);
  if (options.routines) return routines(stack, tasks, model, options);
  let outcomes: MeasuredOutcome[] = [];
  try {
    // Hangs cost a whole LLM timeout per attempt: give a faulted task a real model's time.
    const slow = model.kind === 'real' || options.faults !== null;
    outcomes = await runTasks(stack, tasks, slow ? 300_000 : 90_000);
  } finally {
    // A scripted task that fails is a bug somewhere (or, under faults, a finding): the
    // server's last words help find it.
    if (model.kind === 'scripted' && outcomes.some((o) => !o.success)) {
      const tail = stack.server.output().trim().split('\n').slice(-20);
      console.log(
        `\nserver output (last 20 lines):\n${tail.map((l) => l.slice(0, 300)).join('\n')}`,
      );
    }
    await stack.close();
  }
  output(
    outcomes,
    options,
    `${model.label}${options.faults ? ' behind the fault proxy' : ''}`,
    stack,
  );
  const failed = outcomes.filter((o) => !o.success).length;
  // Under faults a failed task is a result; only a broken harness (a throw) exits 1.
  if (model.kind === 'scripted' && !options.faults && failed > 0) process.exitCode = 1;
}

async function routines(
  stack: Stack,
  tasks: typeof BENCH_TASKS,
  model: ReturnType<typeof modelChoice>,
  options: Options,
) {
  const variants = VARIANT_RUNS.filter((v) => tasks.some((t) => t.id === v.base));
  let result: RoutinesResult = { pairs: [], variants: [], runs: [] };
  try {
    result = await runRoutines(stack, tasks, variants, model.kind === 'real' ? 300_000 : 90_000);
  } finally {
    if (model.kind === 'scripted' && result.runs.some((r) => !r.outcome.success)) {
      const tail = stack.server.output().trim().split('\n').slice(-20);
      console.log(
        `\nserver output (last 20 lines):\n${tail.map((l) => l.slice(0, 300)).join('\n')}`,
      );
    }
    await stack.close();
  }
  routinesOutput(result, variants, model.label, options.json);
  // The targets are figures to read; a scripted run that fails is a broken harness or agent.
  if (model.kind === 'scripted' && result.runs.some((r) => !r.outcome.success))
    process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
