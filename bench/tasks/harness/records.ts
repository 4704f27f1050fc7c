// What the server recorded about a task, which is what the bench reports: its trace and usage
// from the admin API (the TokenUsageLog, the billing source of truth: LLM calls, tokens, cost,
// calls per graph node), and the task's own metrics from the store (round trips and the spec
// 003 KPI counters).
import { createStore, type Store } from '@tandem/store';

export interface TaskRecord {
  status: string;
  /** Steps sent to the client (one per round trip carrying an action or a chain). */
  steps: number;
  /** Interact requests: the round trips between the extension and the server. */
  roundTrips: number | null;
  /**
   * Client actions sent, each element of a chain counted: the task's `actionsSent` counter, or
   * on a server that does not keep it, the actions its trace lists per step.
   */
  actionsSent: number;
  llmCalls: number;
  /** Calls of the critic and the re-planner (action types CRITIC and REPLANNING). */
  criticCalls: number;
  replanningCalls: number;
  tokens: number;
  costMicroUsd: number;
  /** The task's usage log summed per action type (graph node), in first-call order. */
  nodes: NodeUsage[];
  /** Each logged call's action type and start (ms since the epoch), oldest first. */
  calls: { actionType: string; startedAt: number }[];
}

/** One action type's share of a task's token-usage log. */
export interface NodeUsage {
  /** The usage log's action type: CONTEXT_ANALYSIS, PLANNING, CRITIC, FINAL_ANSWER… */
  actionType: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Input tokens the provider served from its cache (Gemini's cachedContentTokenCount). */
  cachedInputTokens: number;
}

interface UsageRow {
  calls: number;
  actionType: string;
}

interface AdminTask {
  task: {
    status: string;
    steps: number;
    usage: { calls: number; totalTokens: number; costMicroUsd: number };
  };
  steps: { chain: string[]; usage: { byActionType: UsageRow[] } }[];
  afterLastStep: { byActionType: UsageRow[] };
}

export interface ServerRecords {
  read(taskId: string): Promise<TaskRecord>;
  /**
   * The newest task created at or after `since` (ISO): a run whose first request failed never
   * hands the extension its task id, but the server made the task and logged its calls.
   */
  taskCreatedSince(since: string): Promise<string | null>;
  close(): Promise<void>;
}

async function adminGet<T>(server: { url: string; apiKey: string }, path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${server.apiKey}` },
  });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * The log rows of one task, summed per action type in the order the types first appear. A
 * merged call's share (planning's in context analysis's call) adds tokens, not a call.
 */
function byActionType(
  logs: readonly {
    partOf: string | null;
    actionType: string;
    inputTokens: number;
    outputTokens: number;
    cachedInputTokens: number;
  }[],
): NodeUsage[] {
  const nodes = new Map<string, NodeUsage>();
  for (const log of logs) {
    const node = nodes.get(log.actionType) ?? {
      actionType: log.actionType,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
    };
    node.calls += log.partOf === null ? 1 : 0;
    node.inputTokens += log.inputTokens;
    node.outputTokens += log.outputTokens;
    node.cachedInputTokens += log.cachedInputTokens;
    nodes.set(log.actionType, node);
  }
  return [...nodes.values()];
}

/** Reads records of the server at `url`, whose embedded store lives in `dataDir`. */
export async function serverRecords(server: {
  url: string;
  apiKey: string;
  dataDir: string;
}): Promise<ServerRecords> {
  const { tenantId } = await adminGet<{ tenantId: string }>(server, '/api/auth/whoami');
  let opened: Store | null = null;
  // Opened once the server has created the database; WAL lets it read while it writes.
  const storeOf = async () => (opened ??= await createStore({ dataDir: server.dataDir }));
  return {
    async taskCreatedSince(since) {
      const store = await storeOf();
      return (
        (await store.tasks.list(tenantId, { createdFrom: since, limit: 1 })).items[0]?.id ?? null
      );
    },
    async read(taskId) {
      const detail = await adminGet<AdminTask>(server, `/api/admin/tasks/${taskId}`);
      const store = await storeOf();
      const metrics = (await store.tasks.get(tenantId, taskId))?.metrics;
      // Per node from the log itself: the admin API sums calls per action type but not the
      // cached input tokens, and the log is what billing reads anyway.
      const logs = await store.tokenUsage.list(tenantId, { taskId, limit: 10_000 });
      const rows = [
        ...detail.steps.flatMap((s) => s.usage.byActionType),
        ...detail.afterLastStep.byActionType,
      ];
      const callsOf = (type: string) =>
        rows.filter((r) => r.actionType === type).reduce((sum, r) => sum + r.calls, 0);
      return {
        status: detail.task.status,
        steps: metrics?.totalSteps ?? detail.task.steps,
        roundTrips: metrics?.totalRequests ?? null,
        actionsSent:
          metrics?.actionsSent ?? detail.steps.reduce((n, step) => n + step.chain.length, 0),
        llmCalls: detail.task.usage.calls,
        criticCalls: callsOf('CRITIC'),
        replanningCalls: callsOf('REPLANNING'),
        tokens: detail.task.usage.totalTokens,
        costMicroUsd: detail.task.usage.costMicroUsd,
        nodes: byActionType(logs),
        // Model calls only: the requests the model saw are matched to these.
        calls: logs
          .filter((l) => l.partOf === null)
          .map((l) => ({ actionType: l.actionType, startedAt: Date.parse(l.timestamp) })),
      };
    },
    async close() {
      await opened?.close();
    },
  };
}
