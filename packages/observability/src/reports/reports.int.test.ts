// Reports against a real (in-memory libSQL) store: billing in USD equals the sums of random
// logs per tenant, the KPIs of a seeded task set have known answers, and a task's trace puts
// every LLM call on the request that made it.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  emptyTaskMetrics,
  LlmActionType,
  microUsdToUsd,
  type BillingGroupBy,
  type Complexity,
  type CorrectionRecord,
  type HierarchicalPlan,
  type Plan,
  type TaskMetrics,
  type TaskStatus,
  type VerificationResult,
} from '@tandem/contracts';
import { createLibsqlStore, type NewTokenUsageLog, type Store } from '@tandem/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingReport, dailyCostByActionType } from './billing';
import { metricsReport } from './metrics';
import { taskDetailReport, taskListReport } from './tasks';
import { DAY_MS } from './window';

let store: Store;
beforeAll(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
});
afterAll(async () => {
  await store.close();
});

const newTenant = async (): Promise<string> =>
  (await store.tenants.create({ name: `t-${randomUUID()}` })).id;

function usage(overrides: Partial<NewTokenUsageLog>): NewTokenUsageLog {
  return {
    id: randomUUID(),
    userId: 'u1',
    sessionId: null,
    messageId: null,
    taskId: null,
    traceId: null,
    provider: 'SCRIPTED',
    model: 'gemini-flash',
    actionType: 'PLANNING',
    inputTokens: 100,
    outputTokens: 10,
    cachedInputTokens: 0,
    thinkingTokens: 0,
    totalTokens: 110,
    costMicroUsd: 1_000,
    durationMs: 50,
    timestamp: new Date().toISOString(),
    ...overrides,
  };
}

/** Exact dollars → micro-USD, so USD strings are compared without floats. */
const usdToMicro = (usd: string): bigint => {
  const negative = usd.startsWith('-');
  const [whole = '0', fraction = ''] = usd.replace('-', '').split('.');
  const micro = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  return negative ? -micro : micro;
};

const EPOCH = Date.parse('2024-05-01T00:00:00.000Z');
const WINDOW = {
  from: new Date(EPOCH).toISOString(),
  to: new Date(EPOCH + 5 * DAY_MS).toISOString(),
};
const GROUPINGS: BillingGroupBy[] = ['day', 'model', 'actionType', 'user'];

describe('billingReport', () => {
  it('equals the sums of random logs in USD, per tenant, for every grouping (property)', async () => {
    const logArb = fc.record({
      tenant: fc.constantFrom<'a' | 'b'>('a', 'b'),
      // Some logs fall outside the window on either side: they must not be billed.
      offsetMs: fc.integer({ min: -DAY_MS, max: 6 * DAY_MS }),
      model: fc.constantFrom('gemini-2.5-flash', 'gemini-2.5-pro', 'qwen-7b'),
      actionType: fc.constantFrom(...LlmActionType.options),
      userId: fc.constantFrom<string | null>(null, 'alice', 'bob'),
      inputTokens: fc.nat(200_000),
      cachedInputTokens: fc.nat(200_000),
      outputTokens: fc.nat(20_000),
      costMicroUsd: fc.nat(5_000_000),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(logArb, { maxLength: 30 }), async (specs) => {
        const tenants = { a: await newTenant(), b: await newTenant() };
        const logs = { a: [] as NewTokenUsageLog[], b: [] as NewTokenUsageLog[] };
        for (const spec of specs) {
          const log = usage({
            timestamp: new Date(EPOCH + spec.offsetMs).toISOString(),
            model: spec.model,
            actionType: spec.actionType,
            userId: spec.userId,
            inputTokens: spec.inputTokens,
            // A cached token is an input token read from the cache: never more than the input.
            cachedInputTokens: Math.min(spec.cachedInputTokens, spec.inputTokens),
            outputTokens: spec.outputTokens,
            totalTokens: spec.inputTokens + spec.outputTokens,
            costMicroUsd: spec.costMicroUsd,
          });
          logs[spec.tenant].push(log);
          await store.tokenUsage.append(tenants[spec.tenant], log);
        }
        for (const tenant of ['a', 'b'] as const) {
          const inWindow = logs[tenant].filter(
            (l) => l.timestamp >= WINDOW.from && l.timestamp < WINDOW.to,
          );
          for (const groupBy of GROUPINGS) {
            const report = await billingReport(store, tenants[tenant], { window: WINDOW, groupBy });
            const keyOf = (l: NewTokenUsageLog): string =>
              groupBy === 'day'
                ? l.timestamp.slice(0, 10)
                : groupBy === 'model'
                  ? l.model
                  : groupBy === 'actionType'
                    ? l.actionType
                    : (l.userId ?? '');
            const expected = new Map<
              string,
              { usd: bigint; calls: number; tokens: number; cached: number }
            >();
            for (const l of inWindow) {
              const e = expected.get(keyOf(l)) ?? { usd: 0n, calls: 0, tokens: 0, cached: 0 };
              // Summed in USD (each log's exact dollar string), not in the store's unit.
              e.usd += usdToMicro(microUsdToUsd(l.costMicroUsd));
              e.calls += 1;
              e.tokens += l.totalTokens;
              e.cached += l.cachedInputTokens;
              expected.set(keyOf(l), e);
            }
            expect(report.rows.map((r) => r.key)).toEqual([...expected.keys()].sort());
            for (const row of report.rows) {
              const e = expected.get(row.key);
              expect(usdToMicro(row.costUsd)).toBe(e?.usd);
              expect(row.costUsd).toBe(microUsdToUsd(row.costMicroUsd));
              expect([row.calls, row.totalTokens, row.cachedInputTokens]).toEqual([
                e?.calls,
                e?.tokens,
                e?.cached,
              ]);
            }
            const totalUsd = inWindow.reduce(
              (sum, l) => sum + usdToMicro(microUsdToUsd(l.costMicroUsd)),
              0n,
            );
            expect(usdToMicro(report.totals.costUsd)).toBe(totalUsd);
            expect(report.totals.calls).toBe(inWindow.length);
            expect(report.totals.inputTokens).toBe(
              inWindow.reduce((sum, l) => sum + l.inputTokens, 0),
            );
            expect(report.totals.cachedInputTokens).toBe(
              inWindow.reduce((sum, l) => sum + l.cachedInputTokens, 0),
            );
            // `totals` is exactly the sum of `rows`, every amount.
            const amounts = [
              'calls',
              'inputTokens',
              'cachedInputTokens',
              'outputTokens',
              'totalTokens',
              'costMicroUsd',
            ] as const;
            for (const field of amounts) {
              expect(report.totals[field]).toBe(
                report.rows.reduce((sum, row) => sum + row[field], 0),
              );
            }
          }
        }
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it('charts daily cost per action type over every day of the window', async () => {
    const tenantId = await newTenant();
    const at = (day: number): string => new Date(EPOCH + day * DAY_MS + 60_000).toISOString();
    for (const log of [
      usage({ timestamp: at(0), actionType: 'PLANNING', costMicroUsd: 300 }),
      usage({ timestamp: at(0), actionType: 'VERIFICATION', costMicroUsd: 200 }),
      usage({ timestamp: at(2), actionType: 'PLANNING', costMicroUsd: 50 }),
      usage({ timestamp: at(9), actionType: 'CRITIC', costMicroUsd: 999 }),
    ]) {
      await store.tokenUsage.append(tenantId, log);
    }
    const chart = await dailyCostByActionType(store, tenantId, WINDOW);
    expect(chart.days).toEqual([
      '2024-05-01',
      '2024-05-02',
      '2024-05-03',
      '2024-05-04',
      '2024-05-05',
    ]);
    expect(chart.series).toEqual([
      { actionType: 'PLANNING', costMicroUsd: [300, 0, 50, 0, 0], calls: [1, 0, 1, 0, 0] },
      { actionType: 'VERIFICATION', costMicroUsd: [200, 0, 0, 0, 0], calls: [1, 0, 0, 0, 0] },
    ]);
    expect(chart.dayTotalsMicroUsd).toEqual([500, 0, 50, 0, 0]);
  });
});

const verified = (success: boolean, tier: 1 | 2 | 3 = 1): VerificationResult => ({
  success,
  confidence: 0.9,
  reason: success ? 'as expected' : 'nothing changed',
  verificationTier: tier,
});

const correction = (stepIndex: number, succeeded?: boolean): CorrectionRecord => ({
  id: randomUUID(),
  stepIndex,
  attempt: 1,
  failedAction: 'click(1)',
  correctedAction: 'click(2)',
  strategy: 'ALTERNATIVE_SELECTOR',
  reason: 'the first target did nothing',
  ...(succeeded === undefined ? {} : { succeeded }),
  createdAt: new Date().toISOString(),
});

describe('metricsReport', () => {
  it('answers the KPIs of a seeded task set exactly', async () => {
    const tenantId = await newTenant();
    const other = await newTenant();
    const task = async (
      status: 'completed' | 'failed' | 'interrupted' | 'executing' | 'cancelled',
      complexity: 'SIMPLE' | 'COMPLEX' | null,
      corrections: CorrectionRecord[] = [],
    ) => {
      const created = await store.tasks.create(tenantId, {
        userId: 'u1',
        url: 'https://app.test/',
        query: `${status} ${complexity}`,
      });
      await store.tasks.update(tenantId, created.id, { status, complexity, corrections });
      return created.id;
    };
    const step = (
      taskId: string,
      stepIndex: number,
      durationMs: number,
      verification: VerificationResult | null,
      action = `click(${stepIndex + 1})`,
    ) => ({
      taskId,
      stepIndex,
      thought: 't',
      action,
      expectedOutcome: null,
      beforeState: null,
      verification,
      status: 'success' as const,
      metrics: { durationMs, inputTokens: 0, outputTokens: 0 },
    });

    const simpleDone = await task('completed', 'SIMPLE');
    const complexDone = await task('completed', 'COMPLEX', [correction(1, true), correction(2)]);
    const complexFailed = await task('failed', 'COMPLEX', [correction(0, false)]);
    const interrupted = await task('interrupted', null);
    await task('executing', 'SIMPLE');
    // Stopped by the user: counted as such, and not a failure of the agent.
    await task('cancelled', 'SIMPLE');
    await store.taskActions.insertMany(tenantId, [
      step(simpleDone, 0, 100, verified(true)),
      step(simpleDone, 1, 300, null),
      step(complexDone, 0, 1_000, verified(true, 2), 'setValue(3, "a"); setValue(4, "b")'),
      step(complexDone, 1, 2_000, verified(false, 3), 'setValue(3, "a; b"); click(9)'),
      step(complexDone, 2, 4_000, verified(true)),
      step(complexFailed, 0, 8_000, verified(false)),
      step(interrupted, 0, 200, null),
    ]);
    // Another tenant's tasks never count.
    const foreign = await store.tasks.create(other, { userId: 'x', url: 'https://x/', query: 'x' });
    await store.tasks.update(other, foreign.id, { status: 'failed', complexity: 'SIMPLE' });
    await store.taskActions.insert(other, step(foreign.id, 0, 99_999, verified(false)));

    const now = Date.now();
    const report = await metricsReport(store, tenantId, {
      from: new Date(now - DAY_MS).toISOString(),
      to: new Date(now + 1000).toISOString(),
    });
    expect(report.tasks.total).toBe(6);
    expect(report.tasks.byStatus).toMatchObject({
      completed: 2,
      failed: 1,
      interrupted: 1,
      executing: 1,
      cancelled: 1,
      active: 0,
    });
    expect(report.taskCompletion).toEqual({ rate: 0.5, successes: 2, samples: 4 });
    // Latencies 100 200 300 1000 2000 4000 8000: p50 = 4th, p95 = 7th.
    expect(report.stepLatency).toEqual({ p50Ms: 1_000, p95Ms: 8_000, samples: 7 });
    expect(report.latencyByComplexity.SIMPLE).toEqual({ p50Ms: 100, p95Ms: 300, samples: 2 });
    expect(report.latencyByComplexity.COMPLEX).toEqual({ p50Ms: 2_000, p95Ms: 8_000, samples: 4 });
    expect(report.verificationSuccess).toEqual({ rate: 0.6, successes: 3, samples: 5 });
    expect(report.chainSuccess).toEqual({ rate: 0.5, successes: 1, samples: 2 });
    expect(report.correctionSuccess).toEqual({ rate: 0.5, successes: 1, samples: 2 });

    // A window before any task: no samples, so no rates at all rather than a fake 0%.
    const empty = await metricsReport(store, tenantId, {
      from: '2020-01-01T00:00:00.000Z',
      to: '2020-01-02T00:00:00.000Z',
    });
    expect(empty.taskCompletion).toEqual({ rate: null, successes: 0, samples: 0 });
    expect(empty.stepLatency).toEqual({ p50Ms: null, p95Ms: null, samples: 0 });
  });

  it('answers the routing, chaining, re-planning, critic, skills and look-ahead KPIs exactly', async () => {
    const tenantId = await newTenant();
    const other = await newTenant();
    const plan: Plan = {
      goal: 'g',
      steps: [{ index: 0, description: 'do it', status: 'completed' }],
      currentStepIndex: 0,
    };
    const task = async (
      status: TaskStatus,
      complexity: Complexity | null,
      metrics: Partial<TaskMetrics>,
      extra: { plan?: Plan; corrections?: CorrectionRecord[]; tenant?: string } = {},
    ) => {
      const tenant = extra.tenant ?? tenantId;
      const created = await store.tasks.create(tenant, {
        userId: 'u1',
        url: 'https://app.test/',
        query: `${status} ${complexity}`,
      });
      await store.tasks.update(tenant, created.id, {
        status,
        complexity,
        plan: extra.plan ?? null,
        corrections: extra.corrections ?? [],
        metrics: { ...emptyTaskMetrics(), ...metrics },
      });
    };

    // SIMPLE: one action and finish() is all the single-action path takes.
    await task('completed', 'SIMPLE', { totalSteps: 2, actionsSent: 2 });
    await task('completed', 'SIMPLE', { totalSteps: 2 }); // recorded before the counters
    await task(
      'completed',
      'SIMPLE',
      { totalSteps: 3, actionsSent: 3 },
      { corrections: [correction(0, true)] },
    );
    await task('failed', 'SIMPLE', { totalSteps: 1, actionsSent: 1 });
    await task('completed', 'SIMPLE', { totalSteps: 4, actionsSent: 4 });
    // Gone before the agent's verdict, or still running: not judged.
    await task('interrupted', 'SIMPLE', {}, { corrections: [correction(0)] });
    await task('cancelled', 'SIMPLE', {});
    await task('executing', 'SIMPLE', { totalSteps: 9, actionsSent: 9 });

    // COMPLEX, planned.
    await task(
      'completed',
      'COMPLEX',
      {
        totalSteps: 4,
        actionsSent: 10,
        replans: 1,
        criticReviews: 3,
        criticRejections: 1,
        skillHintSteps: 2,
        lookAheadChecks: 4,
        lookAheadHits: 3,
        lookAheadCaught: 1,
        verificationsFailed: 2,
      },
      { plan },
    );
    await task(
      'failed',
      'COMPLEX',
      {
        totalSteps: 6,
        actionsSent: 6,
        criticReviews: 2,
        criticRejections: 2,
        skillHintSteps: 1,
        lookAheadChecks: 2,
        lookAheadHits: 2,
        verificationsFailed: 3,
      },
      { plan },
    );
    await task('cancelled', 'COMPLEX', { totalSteps: 2, actionsSent: 2, replans: 2 }, { plan });
    // Live: its re-plans may not be over, but its sent steps and reviews happened.
    await task(
      'executing',
      'COMPLEX',
      { totalSteps: 3, actionsSent: 5, replans: 1, criticReviews: 1, skillHintSteps: 3 },
      { plan },
    );
    // Recorded before the counters: only its plan (never re-planned) counts.
    await task('completed', 'COMPLEX', { totalSteps: 5, verificationsFailed: 4 }, { plan });
    // Started before the counters: fewer actions than steps, so its counters are partial.
    await task(
      'completed',
      'COMPLEX',
      { totalSteps: 5, actionsSent: 2, skillHintSteps: 1, verificationsFailed: 1 },
      { plan },
    );
    // A catch on a verdict that counted no failure of its own still counts as one.
    await task('completed', 'COMPLEX', {
      totalSteps: 3,
      actionsSent: 3,
      lookAheadChecks: 1,
      lookAheadCaught: 1,
    });

    // Skills: A learned once, used 3 + 1; B learned once, used 0 + 2; C learned twice, unused.
    const skill = (succeeded: string) => ({
      domain: 'app.test',
      goal: 'add a patient',
      failedState: { action: 'click(1)', elementDescription: 'Patients', errorType: 'E' },
      successfulAction: { action: succeeded, elementDescription: 'New', strategy: 'S' },
    });
    const a = await store.skills.upsert(tenantId, skill('click(2)'));
    const b = await store.skills.upsert(tenantId, skill('click(3)'));
    await store.skills.upsert(tenantId, skill('click(4)'));
    await store.skills.upsert(tenantId, skill('click(4)'));
    for (const success of [true, true, true, false])
      await store.skills.recordOutcome(tenantId, a.id, success);
    for (const success of [false, false]) await store.skills.recordOutcome(tenantId, b.id, success);

    // Another tenant's tasks and skills never count.
    await task(
      'failed',
      'SIMPLE',
      { totalSteps: 50, actionsSent: 50, criticReviews: 9, lookAheadChecks: 9 },
      { tenant: other, plan },
    );
    const foreign = await store.skills.upsert(other, skill('click(9)'));
    await store.skills.recordOutcome(other, foreign.id, false);

    const now = Date.now();
    const report = await metricsReport(store, tenantId, {
      from: new Date(now - DAY_MS).toISOString(),
      to: new Date(now + 1000).toISOString(),
    });
    // Ended SIMPLE tasks 5: the plain one and the pre-counter one stayed simple; a correction,
    // a failure and 4 steps each needed more.
    expect(report.classificationAccuracy).toEqual({ rate: 0.4, successes: 2, samples: 5 });
    // Actions 2+3+1+4+9 (SIMPLE) + 10+6+2+5+3 (COMPLEX) = 45, steps 2+3+1+4+9 + 4+6+2+3+3 = 37.
    expect(report.roundTripReduction).toEqual({ rate: 8 / 45, successes: 8, samples: 45 });
    // Ended planned tasks 5 (the live one waits); re-planned: the completed and the cancelled.
    expect(report.replanFrequency).toEqual({ rate: 0.4, successes: 2, samples: 5 });
    expect(report.criticCatchRate).toEqual({ rate: 0.5, successes: 3, samples: 6 });
    // COMPLEX steps of counted tasks 4+6+2+3+3 = 18, of which 2+1+3 were shown a skill.
    expect(report.skillHitRate).toEqual({ rate: 1 / 3, successes: 6, samples: 18 });
    // Uses: A 3 of 4; B 0 of 2; C's second lesson counts as a success: 4 of 7.
    expect(report.skillEffectiveness).toEqual({ rate: 4 / 7, successes: 4, samples: 7 });
    expect(report.lookAheadHitRate).toEqual({ rate: 5 / 7, successes: 5, samples: 7 });
    // Failed verifications 2 + 3 + (at least the 1 caught); caught 1 + 1.
    expect(report.earlyDetection).toEqual({ rate: 1 / 3, successes: 2, samples: 6 });

    // No tasks in the window: every task KPI is null over zero samples. Skills outlive
    // windows, so their effectiveness is the same; a tenant without skills has none.
    const empty = await metricsReport(store, tenantId, {
      from: '2020-01-01T00:00:00.000Z',
      to: '2020-01-02T00:00:00.000Z',
    });
    const none = { rate: null, successes: 0, samples: 0 };
    for (const metric of [
      empty.classificationAccuracy,
      empty.roundTripReduction,
      empty.replanFrequency,
      empty.criticCatchRate,
      empty.skillHitRate,
      empty.lookAheadHitRate,
      empty.earlyDetection,
    ])
      expect(metric).toEqual(none);
    expect(empty.skillEffectiveness).toEqual(report.skillEffectiveness);
    const fresh = await metricsReport(store, await newTenant(), {
      from: new Date(now - DAY_MS).toISOString(),
      to: new Date(now + 1000).toISOString(),
    });
    expect(fresh.skillEffectiveness).toEqual(none);
  });
});

describe('task reports', () => {
  it('lists tasks with their billed usage and traces a task step by step', async () => {
    const tenantId = await newTenant();
    const task = await store.tasks.create(tenantId, {
      userId: 'u1',
      url: 'https://emr.test/',
      query: 'Add a patient',
    });
    const hierarchicalPlan: HierarchicalPlan = {
      currentSubTaskIndex: 1,
      subTasks: [
        {
          id: 'sub-1',
          name: 'Open the form',
          description: 'open the patient form',
          inputs: [],
          outputs: ['the form is open'],
          status: 'completed',
          stepIndexes: [0],
        },
        {
          id: 'sub-2',
          name: 'Fill it',
          description: 'type the name',
          inputs: ['the form is open'],
          outputs: [],
          status: 'completed',
          stepIndexes: [1],
        },
      ],
    };
    await store.tasks.update(tenantId, task.id, {
      status: 'completed',
      complexity: 'COMPLEX',
      corrections: [correction(1, true)],
      hierarchicalPlan,
    });
    const base = Date.now() - 60_000;
    const t = (ms: number): string => new Date(base + ms).toISOString();
    // Request 1: context + planning, then step 0. Request 2: verification of step 0, a
    // correction, then step 1. Request 3: verification of step 1 (finishes the task).
    const calls = [
      usage({ taskId: task.id, timestamp: t(0), actionType: 'CONTEXT_ANALYSIS', costMicroUsd: 10 }),
      usage({
        taskId: task.id,
        timestamp: t(10),
        actionType: 'PLANNING',
        cachedInputTokens: 64,
        costMicroUsd: 20,
      }),
      usage({ taskId: task.id, timestamp: t(200), actionType: 'VERIFICATION', costMicroUsd: 5 }),
      usage({ taskId: task.id, timestamp: t(210), actionType: 'SELF_CORRECTION', costMicroUsd: 7 }),
      usage({
        taskId: task.id,
        timestamp: t(400),
        actionType: 'VERIFICATION',
        cachedInputTokens: 16,
        costMicroUsd: 3,
      }),
    ];
    for (const call of calls) await store.tokenUsage.append(tenantId, call);
    await store.taskActions.insertMany(tenantId, [
      {
        taskId: task.id,
        stepIndex: 0,
        thought: 'Open the form',
        action: 'click(5)',
        expectedOutcome: { description: 'the form opens' },
        beforeState: null,
        verification: verified(true, 1),
        status: 'success',
        metrics: { durationMs: 40, inputTokens: 0, outputTokens: 0 },
        createdAt: t(100),
      },
      {
        taskId: task.id,
        stepIndex: 1,
        thought: 'Fill the name',
        action: 'setValue(7, "Jas"); setValue(8, "Patel")',
        expectedOutcome: null,
        beforeState: null,
        verification: verified(true, 2),
        status: 'success',
        metrics: { durationMs: 60, inputTokens: 0, outputTokens: 0 },
        createdAt: t(300),
      },
    ]);

    const list = await taskListReport(store, tenantId, {
      window: { from: t(-DAY_MS), to: new Date(Date.now() + 1000).toISOString() },
      limit: 10,
    });
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      id: task.id,
      status: 'completed',
      complexity: 'COMPLEX',
      corrections: 1,
      usage: { calls: 5, cachedInputTokens: 80, costMicroUsd: 45, costUsd: '0.000045' },
    });
    expect(
      (
        await taskListReport(store, tenantId, {
          window: { from: t(-DAY_MS), to: new Date(Date.now() + 1000).toISOString() },
          status: ['failed'],
          limit: 10,
        })
      ).items,
    ).toEqual([]);

    const detail = await taskDetailReport(store, tenantId, task.id);
    expect(detail?.task.usage).toMatchObject({ costMicroUsd: 45, cachedInputTokens: 80 });
    // The admin trace shows the sub-tasks with their contracts.
    expect(detail?.task.hierarchicalPlan).toEqual(hierarchicalPlan);
    expect(detail?.steps.map((s) => [s.stepIndex, s.usage.costMicroUsd, s.latencyMs])).toEqual([
      [0, 30, 40],
      [1, 12, 60],
    ]);
    expect(
      detail?.steps[0]?.usage.byActionType.map((u) => [u.actionType, u.cachedInputTokens]),
    ).toEqual([
      ['CONTEXT_ANALYSIS', 0],
      ['PLANNING', 64],
    ]);
    expect(detail?.steps[0]?.usage.cachedInputTokens).toBe(64);
    expect(detail?.steps[1]?.chain).toEqual(['setValue(7, "Jas")', 'setValue(8, "Patel")']);
    expect(detail?.steps[1]?.verification?.verificationTier).toBe(2);
    expect(detail?.steps[1]?.corrections).toHaveLength(1);
    expect(detail?.afterLastStep).toMatchObject({
      calls: 1,
      cachedInputTokens: 16,
      costMicroUsd: 3,
    });
    // Steps plus the final request are the whole bill of the task.
    const attributed =
      (detail?.steps.reduce((sum, s) => sum + s.usage.costMicroUsd, 0) ?? 0) +
      (detail?.afterLastStep.costMicroUsd ?? 0);
    expect(attributed).toBe(45);

    expect(await taskDetailReport(store, await newTenant(), task.id)).toBeNull();
  });
});
