// Admin API: billing rollups, the KPIs (docs/specs.md, "Metrics and KPIs") and the in-app task
// trace (every step with its verification, corrections, tokens, cost and latency) for when
// LangFuse is not configured. All of it is tenant-scoped to the admin key's tenant.
import { z } from 'zod';
import {
  ActionStatus,
  Complexity,
  CorrectionRecord,
  ExpectedOutcome,
  LlmActionType,
  HierarchicalPlan,
  Plan,
  TaskStatus,
  VerificationResult,
} from './domain';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A bound of a report window: a UTC date ("2024-03-01") or an ISO date-time with offset.
 * A date-only `to` covers that whole day; the response echoes the resolved instants.
 */
export const ReportInstant = z.union([
  z
    .string()
    .regex(DATE_ONLY, 'expected yyyy-mm-dd')
    .refine((v) => !Number.isNaN(Date.parse(v)), {
      message: 'not a calendar date',
    }),
  z.iso.datetime({ offset: true }),
]);
export type ReportInstant = z.infer<typeof ReportInstant>;

/** Reports default to the last 30 days and look back at most a year (one scan per request). */
export const REPORT_DEFAULT_DAYS = 30;
export const REPORT_MAX_DAYS = 366;

export const ReportWindowQuery = z.object({
  from: ReportInstant.optional(),
  to: ReportInstant.optional(),
});
export type ReportWindowQuery = z.infer<typeof ReportWindowQuery>;

/** The window a report covered: `from` inclusive, `to` exclusive, both UTC ISO instants. */
export const ReportWindow = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
});
export type ReportWindow = z.infer<typeof ReportWindow>;

// ------------------------------------------------------------------ money

const MICRO_PER_USD = 1_000_000;

/**
 * Integer micro-USD as an exact decimal string of dollars ("1.234567"). Money never goes
 * through a float: 0.1 + 0.2 style drift would make totals disagree with their rows.
 */
export function microUsdToUsd(micro: number): string {
  if (!Number.isSafeInteger(micro)) throw new RangeError(`not an integer micro-USD: ${micro}`);
  const sign = micro < 0 ? '-' : '';
  const abs = Math.abs(micro);
  const dollars = Math.floor(abs / MICRO_PER_USD);
  const fraction = String(abs % MICRO_PER_USD).padStart(6, '0');
  return `${sign}${dollars}.${fraction}`;
}

/** Dollars with 6 decimals, as `microUsdToUsd` writes them. */
export const UsdAmount = z.string().regex(/^-?\d+\.\d{6}$/, 'expected dollars with 6 decimals');
export type UsdAmount = z.infer<typeof UsdAmount>;

// ------------------------------------------------------------------ billing

export const BillingGroupBy = z.enum(['day', 'model', 'actionType', 'user']);
export type BillingGroupBy = z.infer<typeof BillingGroupBy>;

export const BillingQuery = ReportWindowQuery.extend({
  /** `day` rows are UTC dates; `user` rows use "" for calls with no user. */
  groupBy: BillingGroupBy.default('day'),
});
export type BillingQuery = z.infer<typeof BillingQuery>;

export const BillingAmounts = z.object({
  calls: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  /** The part of `inputTokens` read from the provider's cache, billed at the cached rate. */
  cachedInputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  costMicroUsd: z.number().int().nonnegative(),
  costUsd: UsdAmount,
});
export type BillingAmounts = z.infer<typeof BillingAmounts>;

export const BillingRow = BillingAmounts.extend({ key: z.string() });
export type BillingRow = z.infer<typeof BillingRow>;

/** GET /api/admin/billing. `totals` is exactly the sum of `rows`. */
export const BillingResponse = z.object({
  window: ReportWindow,
  groupBy: BillingGroupBy,
  currency: z.literal('USD'),
  rows: z.array(BillingRow),
  totals: BillingAmounts,
});
export type BillingResponse = z.infer<typeof BillingResponse>;

// ------------------------------------------------------------------ metrics

/**
 * A rate: `successes` of `samples`, and `rate` null when there was nothing to measure (never a
 * fake 0 or 1). `successes` counts what the rate measures, which is not always good news: for
 * re-plan frequency it is the tasks that re-planned, for the critic the actions it rejected.
 */
export const RateMetric = z.object({
  rate: z.number().min(0).max(1).nullable(),
  successes: z.number().int().nonnegative(),
  samples: z.number().int().nonnegative(),
});
export type RateMetric = z.infer<typeof RateMetric>;

/** Nearest-rank percentiles (each an observed value), null without samples. */
export const LatencyMetric = z.object({
  p50Ms: z.number().nonnegative().nullable(),
  p95Ms: z.number().nonnegative().nullable(),
  samples: z.number().int().nonnegative(),
});
export type LatencyMetric = z.infer<typeof LatencyMetric>;

export const MetricsQuery = ReportWindowQuery;
export type MetricsQuery = z.infer<typeof MetricsQuery>;

/**
 * GET /api/admin/metrics: the KPIs (docs/specs.md, "Metrics and KPIs") the store can answer, over
 * the tasks created in the window and their steps (skill effectiveness excepted: skills outlive
 * windows). A step's latency is the server time of the request that produced it; a chain is a step
 * that sent more than one action. Counters a task row lacks (rows older than the counter) count as
 * absent, never as zero, where a zero would move a rate.
 */
export const MetricsResponse = z.object({
  window: ReportWindow,
  tasks: z.object({
    total: z.number().int().nonnegative(),
    byStatus: z.record(TaskStatus, z.number().int().nonnegative()),
  }),
  /**
   * completed / (completed + failed + interrupted). Live tasks are not counted yet, nor tasks
   * the user stopped (cancelled): a Stop says nothing about whether the agent would have
   * succeeded. `tasks.byStatus` counts them.
   */
  taskCompletion: RateMetric,
  stepLatency: LatencyMetric,
  /** Step latency split by the task's complexity (tasks never classified are left out). */
  latencyByComplexity: z.object({ SIMPLE: LatencyMetric, COMPLEX: LatencyMetric }),
  /** Verified chained steps whose verification passed. */
  chainSuccess: RateMetric,
  /** Verified steps whose verification passed. */
  verificationSuccess: RateMetric,
  /** Corrections whose corrected action was verified (pending ones are not counted). */
  correctionSuccess: RateMetric,
  /**
   * Complexity routing: of the SIMPLE tasks that ended (completed or failed), those the
   * single-action path handled. One "needed COMPLEX treatment" (the spec's misclassification)
   * when it failed, needed a correction, or took more than `SIMPLE_TASK_STEPS` steps (its one
   * action and the finish() after it). Interrupted and cancelled tasks are left out: the client
   * or the user went away, which says nothing about the classification.
   */
  classificationAccuracy: RateMetric,
  /**
   * Action chaining: 1 − Σ steps / Σ actions sent, as round trips saved (`successes`) of actions
   * sent (`samples`), over the tasks that count actionsSent. A step is one round trip carrying
   * an action or a chain (the final finish() included, on both sides). "Tasks that count
   * actionsSent" here and below leaves out rows recorded before the counters existed (no
   * actionsSent) or across their introduction (fewer actions than steps).
   */
  roundTripReduction: RateMetric,
  /**
   * Dynamic re-planning: of the planned tasks that ended (any terminal status), those that
   * re-planned at least once. Live tasks wait: they may still re-plan. Lower is better.
   */
  replanFrequency: RateMetric,
  /** Critic: proposals it rejected (`successes`) of the proposals it reviewed. */
  criticCatchRate: RateMetric,
  /**
   * Skills: steps sent after an action generation call that was shown at least one skill, of
   * all steps of the COMPLEX tasks that count actionsSent (SIMPLE tasks never consult skills).
   * No counter isolates action-generation steps, so the denominator also holds the steps that
   * could not have used a skill (deterministic refinements, corrections, the finish()): a lower
   * bound of the spec's hit rate.
   */
  skillHitRate: RateMetric,
  /**
   * Skills: how often a step that was shown a skill then verified, over the tenant's stored
   * skills (lifetime counters: skills are not per window). A skill starts with one success, the
   * correction that taught it, which is not a use, so each skill gives successCount − 1
   * successes of successCount − 1 + failureCount uses. The same lesson taught again by a later
   * correction also adds a success; the store cannot tell it from a use.
   */
  skillEffectiveness: RateMetric,
  /** Look-ahead: next goals found on the page after the action, of those checked. */
  lookAheadHitRate: RateMetric,
  /**
   * Look-ahead early detection: failed verifications caught by a missing required next goal
   * (the action itself looked fine), of all failed verifications; the rest were caught when
   * the next step failed. Over the tasks that count actionsSent; a catch is itself a failed
   * verification, so a task counts at least as many failures as catches.
   */
  earlyDetection: RateMetric,
});
export type MetricsResponse = z.infer<typeof MetricsResponse>;

/** Steps a SIMPLE task takes when the single-action path suffices: its action, then finish(). */
export const SIMPLE_TASK_STEPS = 2;

/**
 * The KPIs' targets and alert thresholds (docs/specs.md, "Metrics and KPIs"), for dashboards to
 * compare against. With `alertBelow`, higher is better (target: at least); with `alertAbove`, lower
 * is better (target: under). A null alert: the spec sets none. The critic and the look-ahead have
 * no targets in the spec.
 */
export const KPI_TARGETS = {
  taskCompletion: { target: 0.85, alertBelow: 0.75 },
  p95LatencyMs: { target: 7_000, alertAbove: 10_000 },
  simpleLatencyMs: { target: 2_000, alertAbove: 4_000 },
  classificationAccuracy: { target: 0.9, alertBelow: 0.8 },
  chainSuccess: { target: 0.8, alertBelow: 0.6 },
  roundTripReduction: { target: 0.5, alertBelow: 0.3 },
  replanFrequency: { target: 0.2, alertAbove: 0.4 },
  skillHitRate: { target: 0.1, alertBelow: null },
  skillEffectiveness: { target: 0.6, alertBelow: 0.4 },
  verificationSuccess: { target: 0.9, alertBelow: 0.8 },
  correctionSuccess: { target: 0.7, alertBelow: 0.5 },
} as const;

// ------------------------------------------------------------------ tasks

export const AdminTaskListQuery = ReportWindowQuery.extend({
  /** Comma-separated statuses ("completed,failed"). */
  status: z
    .string()
    .transform((value) => value.split(',').filter(Boolean))
    .pipe(z.array(TaskStatus))
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(512).optional(),
});
export type AdminTaskListQuery = z.infer<typeof AdminTaskListQuery>;

export const UsageTotals = BillingAmounts;
export type UsageTotals = z.infer<typeof UsageTotals>;

export const AdminTaskSummary = z.object({
  id: z.string(),
  userId: z.string(),
  sessionId: z.string().nullable(),
  url: z.string(),
  query: z.string(),
  status: TaskStatus,
  complexity: Complexity.nullable(),
  result: z.string().nullable(),
  steps: z.number().int().nonnegative(),
  corrections: z.number().int().nonnegative(),
  durationMs: z.number().nonnegative(),
  /** From the TokenUsageLog (the billing source of truth), not the task's own counters. */
  usage: UsageTotals,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type AdminTaskSummary = z.infer<typeof AdminTaskSummary>;

/** GET /api/admin/tasks: newest first. */
export const AdminTaskList = z.object({
  window: ReportWindow,
  items: z.array(AdminTaskSummary),
  nextCursor: z.string().nullable(),
});
export type AdminTaskList = z.infer<typeof AdminTaskList>;

export const AdminTaskParams = z.object({ taskId: z.string().min(1).max(200) });
export type AdminTaskParams = z.infer<typeof AdminTaskParams>;

/** LLM calls of one request, by action type. */
export const StepUsage = UsageTotals.extend({
  byActionType: z.array(UsageTotals.extend({ actionType: LlmActionType })),
});
export type StepUsage = z.infer<typeof StepUsage>;

export const AdminTaskStep = z.object({
  id: z.string(),
  stepIndex: z.number().int().nonnegative(),
  thought: z.string(),
  action: z.string(),
  /** The actions a chained step sent (one element when it was not a chain). */
  chain: z.array(z.string()),
  status: ActionStatus,
  expectedOutcome: ExpectedOutcome.nullable(),
  /** Null until the next request verified the step. */
  verification: VerificationResult.nullable(),
  corrections: z.array(CorrectionRecord),
  /** Server time of the request that produced the step. */
  latencyMs: z.number().nonnegative().nullable(),
  /** The LLM calls made by that request (verification of the previous step included). */
  usage: StepUsage,
  createdAt: z.iso.datetime(),
});
export type AdminTaskStep = z.infer<typeof AdminTaskStep>;

/** GET /api/admin/tasks/:taskId: the in-app trace of one task. */
export const AdminTaskDetail = z.object({
  task: AdminTaskSummary.extend({
    plan: Plan.nullable(),
    /** Hierarchical planning: the plan's sub-tasks with their contracts and status. */
    hierarchicalPlan: HierarchicalPlan.nullable(),
  }),
  steps: z.array(AdminTaskStep),
  /** Calls after the last step (the request that verified it and finished the task). */
  afterLastStep: StepUsage,
});
export type AdminTaskDetail = z.infer<typeof AdminTaskDetail>;
