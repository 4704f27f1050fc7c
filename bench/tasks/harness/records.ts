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
  close(): Promise<void>;
}

async function adminGet<T>(server: { url: string; apiKey: string }, path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${server.apiKey}` },
  });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Reads records of the server at `url`, whose embedded store lives in `dataDir`. */
export async function serverRecords(server: {
  url: string;
  apiKey: string;
  dataDir: string;
}): Promise<ServerRecords> {
  const { tenantId } = await adminGet<{ tenantId: string }>(server, '/api/auth/whoami');
  let store: Store | null = null;
  return {
    async read(taskId) {
      const detail = await adminGet<AdminTask>(server, `/api/admin/tasks/${taskId}`);
      // Opened once the server has created the database; WAL lets it read while it writes.
      store ??= await createStore({ dataDir: server.dataDir });
      const metrics = (await store.tasks.get(tenantId, taskId))?.metrics;
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
      };
    },
    async close() {
      await store?.close();
    },
  };
}
