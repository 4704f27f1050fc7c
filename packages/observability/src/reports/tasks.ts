// The in-app trace (for when LangFuse is not configured): tasks with their cost from the
// TokenUsageLog, and one task step by step with what each request spent.
import type {
  AdminTaskDetail,
  AdminTaskList,
  AdminTaskStep,
  AdminTaskSummary,
  CorrectionRecord,
  ReportWindow,
  StepUsage,
  TaskStatus,
} from '@tandem/contracts';
import type { Store, Task, TaskAction, TokenUsageLog } from '@tandem/store';
import { addSums, withUsd, ZERO_SUMS, type UsageSums } from './billing';
import { splitChain } from './chain';

export type TaskReportStore = Pick<Store, 'tasks' | 'taskActions' | 'tokenUsage'>;

/** A task's calls are read in one list; more than this is not a task a person reads. */
const MAX_TASK_LOGS = 10_000;

function summary(task: Task, usage: UsageSums): AdminTaskSummary {
  return {
    id: task.id,
    userId: task.userId,
    sessionId: task.sessionId,
    url: task.url,
    query: task.query,
    status: task.status,
    complexity: task.complexity,
    result: task.result,
    steps: task.metrics.totalSteps,
    corrections: task.corrections.length,
    durationMs: task.metrics.totalDurationMs,
    usage: withUsd(usage),
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}

export async function taskListReport(
  store: TaskReportStore,
  tenantId: string,
  input: { window: ReportWindow; status?: TaskStatus[]; limit: number; cursor?: string },
): Promise<AdminTaskList> {
  const page = await store.tasks.list(tenantId, {
    createdFrom: input.window.from,
    createdTo: input.window.to,
    limit: input.limit,
    cursor: input.cursor ?? null,
    ...(input.status ? { status: input.status } : {}),
  });
  const totals = await store.tokenUsage.totalsByTask(
    tenantId,
    page.items.map((t) => t.id),
  );
  const byTask = new Map(totals.map((row) => [row.key, row]));
  return {
    window: input.window,
    items: page.items.map((task) => summary(task, byTask.get(task.id) ?? ZERO_SUMS)),
    nextCursor: page.nextCursor,
  };
}

/** One log's amounts, as the store's rollups sum them: a merged call's share is no call. */
const logSums = (log: TokenUsageLog): UsageSums => ({
  calls: log.partOf === null ? 1 : 0,
  inputTokens: log.inputTokens,
  cachedInputTokens: log.cachedInputTokens,
  outputTokens: log.outputTokens,
  totalTokens: log.totalTokens,
  costMicroUsd: log.costMicroUsd,
});

function stepUsage(logs: readonly TokenUsageLog[]): StepUsage {
  const byType = new Map<TokenUsageLog['actionType'], UsageSums>();
  let total = ZERO_SUMS;
  for (const log of logs) {
    const sums = logSums(log);
    total = addSums(total, sums);
    byType.set(log.actionType, addSums(byType.get(log.actionType) ?? ZERO_SUMS, sums));
  }
  return {
    ...withUsd(total),
    byActionType: [...byType].map(([actionType, sums]) => ({ actionType, ...withUsd(sums) })),
  };
}

/**
 * Which request each LLM call belongs to. A request records its calls and then stores the step
 * it produced, so a call belongs to the first step stored at or after it; calls after the last
 * step are the request that verified that step and ended the task.
 */
export function attributeCalls(
  actions: readonly Pick<TaskAction, 'id' | 'createdAt'>[],
  logs: readonly TokenUsageLog[],
): { byAction: Map<string, TokenUsageLog[]>; afterLast: TokenUsageLog[] } {
  const timeline = [...actions].sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0,
  );
  const byAction = new Map<string, TokenUsageLog[]>(actions.map((a) => [a.id, []]));
  const afterLast: TokenUsageLog[] = [];
  for (const log of logs) {
    const owner = timeline.find((a) => a.createdAt >= log.timestamp);
    if (owner) byAction.get(owner.id)?.push(log);
    else afterLast.push(log);
  }
  return { byAction, afterLast };
}

/**
 * Corrections retry a step and get no action of their own: each is shown on the last action
 * stored for its step (or the nearest earlier step, so none is ever dropped).
 */
function correctionsByAction(
  actions: readonly TaskAction[],
  corrections: readonly CorrectionRecord[],
): Map<string, CorrectionRecord[]> {
  const out = new Map<string, CorrectionRecord[]>(actions.map((a) => [a.id, []]));
  for (const record of corrections) {
    const owner =
      actions.findLast((a) => a.stepIndex === record.stepIndex) ??
      actions.findLast((a) => a.stepIndex <= record.stepIndex) ??
      actions.at(-1);
    if (owner) out.get(owner.id)?.push(record);
  }
  return out;
}

export async function taskDetailReport(
  store: TaskReportStore,
  tenantId: string,
  taskId: string,
): Promise<AdminTaskDetail | null> {
  const task = await store.tasks.get(tenantId, taskId);
  if (!task) return null;
  const [actions, logs] = await Promise.all([
    store.taskActions.listByTask(tenantId, taskId),
    store.tokenUsage.list(tenantId, { taskId, limit: MAX_TASK_LOGS }),
  ]);
  const { byAction, afterLast } = attributeCalls(actions, logs);
  const corrections = correctionsByAction(actions, task.corrections);
  const steps = actions.map((action): AdminTaskStep => ({
    id: action.id,
    stepIndex: action.stepIndex,
    thought: action.thought,
    action: action.action,
    chain: splitChain(action.action),
    status: action.status,
    expectedOutcome: action.expectedOutcome,
    verification: action.verification,
    corrections: corrections.get(action.id) ?? [],
    latencyMs: action.metrics?.durationMs ?? null,
    usage: stepUsage(byAction.get(action.id) ?? []),
    createdAt: action.createdAt,
  }));
  const total = logs.reduce<UsageSums>((sum, log) => addSums(sum, logSums(log)), ZERO_SUMS);
  return {
    task: { ...summary(task, total), plan: task.plan, hierarchicalPlan: task.hierarchicalPlan },
    steps,
    afterLastStep: stepUsage(afterLast),
  };
}
