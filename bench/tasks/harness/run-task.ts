// One task end to end: drive it through the popup, check the demo site's state, read what the
// server recorded. A task succeeds when its run completed and its check holds.
import type { BenchTask, CheckResult } from '../task';
import { driveTask, type ExtensionHandle } from './drive';
import type { ServerRecords, TaskRecord } from './records';

export interface TaskOutcome {
  task: BenchTask;
  success: boolean;
  /** The run's end as the extension shows it: completed, failed, error, timed out. */
  runStatus: string;
  /** The check's finding, or why the run did not complete. */
  detail: string;
  wallMs: number;
  /** The server's task id; null when the run never reached the server. */
  taskId: string | null;
  /** Null when the run never reached the server (no task id). */
  record: TaskRecord | null;
}

export interface TaskEnvironment {
  demo: string;
  server: { url: string; apiKey: string };
  records: ServerRecords;
  timeoutMs: number;
}

/** `variant`: a demo-site variant switched on for this run (the routines mode's). */
export async function runBenchTask(
  ext: ExtensionHandle,
  env: TaskEnvironment,
  task: BenchTask,
  options: { variant?: string } = {},
): Promise<TaskOutcome> {
  const since = new Date().toISOString();
  const { run, page, wallMs } = await driveTask(ext, {
    demo: env.demo,
    start: task.start,
    goal: task.goal,
    timeoutMs: env.timeoutMs,
    ...(options.variant ? { variant: options.variant } : {}),
  });
  const taskId = run.taskId ?? (await env.records.taskCreatedSince(since)) ?? '';
  const record = taskId ? await env.records.read(taskId) : null;
  const check = await task
    .check({ demo: env.demo, page, server: env.server, taskId, result: run.result ?? '' })
    .catch((error: unknown) => ({ ok: false, detail: `check failed: ${String(error)}` }));
  await page.close().catch(() => undefined);
  const completed = run.status === 'completed';
  return {
    task,
    success: completed && check.ok,
    runStatus: run.status,
    detail: completed
      ? check.detail
      : `${run.status}: ${run.error ?? run.result ?? ''} (${check.detail})`,
    wallMs,
    taskId: taskId || null,
    record,
  };
}

/**
 * Each task's check on its start page as it loads, before any agent: it must fail there, or it
 * would not tell a task that did nothing from one that worked. Returns the checks that passed.
 * Four pages at a time: nothing here changes the demo's state.
 */
export async function checksPassingUntouched(
  ext: ExtensionHandle,
  env: Omit<TaskEnvironment, 'records' | 'timeoutMs'>,
  tasks: readonly BenchTask[],
): Promise<string[]> {
  await fetch(`${env.demo}/__reset`, { method: 'POST' });
  const passing: string[] = [];
  const queue = [...tasks];
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) {
      const page = await ext.context.newPage();
      try {
        await page.goto(`${env.demo}${task.start}`);
        await page.waitForLoadState('networkidle');
        const result: CheckResult = await task
          .check({ demo: env.demo, page, server: env.server, taskId: 'no-such-task', result: '' })
          .catch((error: unknown) => ({ ok: false, detail: String(error) }));
        if (result.ok) passing.push(`${task.id}: ${result.detail}`);
      } finally {
        await page.close();
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return passing;
}
