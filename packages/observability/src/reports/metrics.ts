// The spec 003 §D KPIs the store can answer, over the tasks created in a window and their
// steps. Tasks are read a page at a time and folded into counters, so memory holds one page
// plus one number per step (the latencies the percentiles need).
import {
  TaskStatus,
  type Complexity,
  type LatencyMetric,
  type MetricsResponse,
  type RateMetric,
  type ReportWindow,
} from '@tandem/contracts';
import type { Store } from '@tandem/store';
import { splitChain } from './chain';
import { nearestRank } from './percentile';

export type MetricsStore = Pick<Store, 'tasks' | 'taskActions'>;

/** Tasks per page: one IN (…) query for their actions stays small. */
const PAGE_SIZE = 500;

/**
 * A task in one of these can no longer change outcome, so it counts for completion. Cancelled
 * tasks are left out: the user stopped them (they are counted in byStatus).
 */
const FINISHED: readonly TaskStatus[] = ['completed', 'failed', 'interrupted'];

class Rate {
  successes = 0;
  samples = 0;
  add(success: boolean): void {
    this.samples += 1;
    if (success) this.successes += 1;
  }
  toMetric(): RateMetric {
    return {
      rate: this.samples === 0 ? null : this.successes / this.samples,
      successes: this.successes,
      samples: this.samples,
    };
  }
}

const latency = (values: readonly number[]): LatencyMetric => ({
  p50Ms: nearestRank(values, 50),
  p95Ms: nearestRank(values, 95),
  samples: values.length,
});

export async function metricsReport(
  store: MetricsStore,
  tenantId: string,
  window: ReportWindow,
): Promise<MetricsResponse> {
  const byStatus = Object.fromEntries(TaskStatus.options.map((s) => [s, 0])) as Record<
    TaskStatus,
    number
  >;
  const completion = new Rate();
  const chain = new Rate();
  const verification = new Rate();
  const correction = new Rate();
  const latencies: number[] = [];
  const byComplexity: Record<Complexity, number[]> = { SIMPLE: [], COMPLEX: [] };
  let total = 0;

  let cursor: string | null = null;
  do {
    const page = await store.tasks.list(tenantId, {
      createdFrom: window.from,
      createdTo: window.to,
      limit: PAGE_SIZE,
      cursor,
    });
    cursor = page.nextCursor;
    const complexityOf = new Map<string, Complexity | null>();
    for (const task of page.items) {
      total += 1;
      byStatus[task.status] += 1;
      complexityOf.set(task.id, task.complexity);
      if (FINISHED.includes(task.status)) completion.add(task.status === 'completed');
      for (const record of task.corrections) {
        // Not yet verified: neither a success nor a failure of self-correction.
        if (record.succeeded !== undefined) correction.add(record.succeeded);
      }
    }
    const actions = await store.taskActions.listByTasks(
      tenantId,
      page.items.map((t) => t.id),
    );
    for (const action of actions) {
      if (action.metrics) {
        latencies.push(action.metrics.durationMs);
        const complexity = complexityOf.get(action.taskId);
        if (complexity) byComplexity[complexity].push(action.metrics.durationMs);
      }
      if (action.verification) {
        verification.add(action.verification.success);
        if (splitChain(action.action).length > 1) chain.add(action.verification.success);
      }
    }
  } while (cursor !== null);

  return {
    window,
    tasks: { total, byStatus },
    taskCompletion: completion.toMetric(),
    stepLatency: latency(latencies),
    latencyByComplexity: {
      SIMPLE: latency(byComplexity.SIMPLE),
      COMPLEX: latency(byComplexity.COMPLEX),
    },
    chainSuccess: chain.toMetric(),
    verificationSuccess: verification.toMetric(),
    correctionSuccess: correction.toMetric(),
  };
}
