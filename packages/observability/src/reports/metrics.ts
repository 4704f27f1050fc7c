// The KPIs (docs/specs.md, "Metrics and KPIs") the store can answer, over the tasks created in a
// window, their steps and their KPI counters, plus the tenant's skills. Tasks are read a page at a
// time and folded into counters, so memory holds one page plus one number per step (the latencies
// the percentiles need). The definitions are documented on contracts' MetricsResponse.
import {
  SIMPLE_TASK_STEPS,
  TaskStatus,
  TERMINAL_TASK_STATUSES,
  type Complexity,
  type LatencyMetric,
  type MetricsResponse,
  type RateMetric,
  type ReportWindow,
} from '@tandem/contracts';
import type { SkillTotals, Store, Task } from '@tandem/store';
import { splitChain } from './chain';
import { nearestRank } from './percentile';

export type MetricsStore = Pick<Store, 'tasks' | 'taskActions' | 'skills'>;

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
    this.addCounts(success ? 1 : 0, 1);
  }
  /**
   * One task's counters: `successes` of `samples` more events. A row whose counters disagree
   * (more rejections than reviews) adds no more successes than samples, so it cannot push a
   * rate past 1 and fail the response's validation for every other task.
   */
  addCounts(successes: number, samples: number): void {
    this.successes += Math.min(successes, samples);
    this.samples += samples;
  }
  toMetric(): RateMetric {
    return {
      rate: this.samples === 0 ? null : this.successes / this.samples,
      successes: this.successes,
      samples: this.samples,
    };
  }
}

/**
 * Whether the task row carries the whole of contracts' TaskMetrics KPI counters. They are
 * absent while zero, but every step sent counts at least one action, so a task with steps and
 * no `actionsSent` was recorded before the counters existed (its missing counters are unknown,
 * not zero), and one with fewer actions than steps started before them (they are partial).
 */
function countsKpis(task: Task): boolean {
  const sent = task.metrics.actionsSent;
  return sent !== undefined && sent >= task.metrics.totalSteps;
}

/** A SIMPLE task the single-action path could not handle (the contract says why). */
const neededComplex = (task: Task): boolean =>
  task.status === 'failed' ||
  task.corrections.length > 0 ||
  task.metrics.totalSteps > SIMPLE_TASK_STEPS;

/** The KPIs read from the task rows' own counters (contracts' TaskMetrics). */
class TaskKpis {
  readonly classification = new Rate();
  readonly roundTrips = new Rate();
  readonly replans = new Rate();
  readonly critic = new Rate();
  readonly skillHits = new Rate();
  readonly lookAheadHits = new Rate();
  readonly earlyDetection = new Rate();

  add(task: Task): void {
    const m = task.metrics;
    const ended = TERMINAL_TASK_STATUSES.includes(task.status);
    if (task.complexity === 'SIMPLE' && (task.status === 'completed' || task.status === 'failed'))
      this.classification.add(!neededComplex(task));
    if (task.plan !== null && ended) this.replans.add((m.replans ?? 0) > 0);
    // Pairs counted together (a review and its rejection, a check and its hit): a task that
    // never counted them adds nothing, and one that started counting mid-way adds true pairs.
    this.critic.addCounts(m.criticRejections ?? 0, m.criticReviews ?? 0);
    this.lookAheadHits.addCounts(m.lookAheadHits ?? 0, m.lookAheadChecks ?? 0);
    if (!countsKpis(task)) return;
    const sent = m.actionsSent ?? 0;
    this.roundTrips.addCounts(sent - m.totalSteps, sent);
    if (task.complexity === 'COMPLEX')
      this.skillHits.addCounts(m.skillHintSteps ?? 0, m.totalSteps);
    const caught = m.lookAheadCaught ?? 0;
    this.earlyDetection.addCounts(caught, Math.max(caught, m.verificationsFailed));
  }
}

/** Successes of uses over the tenant's skills: a skill's first success taught it (no use). */
function skillEffectiveness(totals: SkillTotals): RateMetric {
  const successes = Math.max(0, totals.successCount - totals.skills);
  const samples = successes + totals.failureCount;
  return { rate: samples === 0 ? null : successes / samples, successes, samples };
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
  const kpis = new TaskKpis();
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
      kpis.add(task);
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
  const skills = await store.skills.totals(tenantId);

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
    classificationAccuracy: kpis.classification.toMetric(),
    roundTripReduction: kpis.roundTrips.toMetric(),
    replanFrequency: kpis.replans.toMetric(),
    criticCatchRate: kpis.critic.toMetric(),
    skillHitRate: kpis.skillHits.toMetric(),
    skillEffectiveness: skillEffectiveness(skills),
    lookAheadHitRate: kpis.lookAheadHits.toMetric(),
    earlyDetection: kpis.earlyDetection.toMetric(),
  };
}
