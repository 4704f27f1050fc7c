// The admin API over a real store and the real route handlers: auth (401/403/200), tenant
// isolation, every billing grouping with totals equal to the sums, window validation, KPIs of
// a seeded task set and of a real SIMPLE task, the task list/trace (including a task made
// by a real interact call), and cached input tokens from a recorded usage event to every rollup.
import { randomUUID } from 'node:crypto';
import {
  AdminTaskDetail,
  AdminTaskList,
  BillingResponse,
  ErrorResponse,
  InteractResponse,
  microUsdToUsd,
  MetricsResponse,
  type BillingGroupBy,
  type CorrectionRecord,
  type LlmActionType,
  type VerificationResult,
} from '@tandem/contracts';
import { priceUsage, type UsageEvent } from '@tandem/observability';
import type { NewTokenUsageLog, NewTaskAction } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../server/runtime';
import { request, tenantWithKey, testRuntime } from '../../../test/harness';
import { POST as interact } from '../agent/interact/route';
import { GET as billing } from './billing/route';
import { GET as metrics } from './metrics/route';
import { GET as taskDetail } from './tasks/[taskId]/route';
import { GET as tasks } from './tasks/route';

let runtime: Runtime;
beforeEach(async () => {
  runtime = await testRuntime({ RATE_LIMIT_DEFAULT_PER_MIN: '1000' });
});
afterEach(async () => {
  await runtime.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;
const GROUPINGS: BillingGroupBy[] = ['day', 'model', 'actionType', 'user'];

const get = (
  route: typeof billing,
  path: string,
  key?: string,
  params: Record<string, string> = {},
): Promise<Response> =>
  route.withRuntime(runtime)(request(path, key ? { key } : {}), {
    params: Promise.resolve(params),
  });

function usage(overrides: Partial<NewTokenUsageLog>): NewTokenUsageLog {
  return {
    id: randomUUID(),
    userId: 'alice',
    sessionId: null,
    messageId: null,
    taskId: null,
    traceId: null,
    provider: 'GOOGLE',
    model: 'gemini-2.5-flash',
    actionType: 'PLANNING',
    inputTokens: 1_000,
    outputTokens: 100,
    cachedInputTokens: 0,
    thinkingTokens: 0,
    totalTokens: 1_100,
    costMicroUsd: 550,
    durationMs: 300,
    timestamp: new Date().toISOString(),
    ...overrides,
  };
}

describe('admin API auth', () => {
  const routes: [string, typeof billing, string, Record<string, string>][] = [
    ['billing', billing, '/api/admin/billing', {}],
    ['metrics', metrics, '/api/admin/metrics', {}],
    ['tasks', tasks, '/api/admin/tasks', {}],
    ['task', taskDetail, '/api/admin/tasks/nope', { taskId: 'nope' }],
  ];

  it.each(routes)('%s: 401 without a key, 403 with a user key', async (_, route, path, params) => {
    const none = await get(route, path, undefined, params);
    expect(none.status).toBe(401);
    expect(ErrorResponse.parse(await none.json()).error.code).toBe('UNAUTHORIZED');

    const bogus = await get(route, path, 'tdm_not-a-key', params);
    expect(bogus.status).toBe(401);

    const { key } = await tenantWithKey(runtime.store, 'user');
    const forbidden = await get(route, path, key, params);
    expect(forbidden.status).toBe(403);
    const body = ErrorResponse.parse(await forbidden.json());
    expect(body.error).toEqual({
      code: 'FORBIDDEN',
      message: 'This endpoint needs an admin API key.',
    });
  });

  it('200 with an admin key, even for an empty tenant', async () => {
    const { key } = await tenantWithKey(runtime.store, 'admin');
    const res = await get(billing, '/api/admin/billing', key);
    expect(res.status).toBe(200);
    const body = BillingResponse.parse(await res.json());
    expect(body.rows).toEqual([]);
    expect(body.totals).toEqual({
      calls: 0,
      inputTokens: 0,
      cachedInputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      costMicroUsd: 0,
      costUsd: '0.000000',
    });
    // Default window: the last 30 days, ending now.
    const span = Date.parse(body.window.to) - Date.parse(body.window.from);
    expect(span).toBe(30 * DAY_MS);
    expect(Math.abs(Date.parse(body.window.to) - Date.now())).toBeLessThan(60_000);
  });
});

describe('GET /api/admin/billing', () => {
  async function seed() {
    const a = await tenantWithKey(runtime.store, 'admin');
    const b = await tenantWithKey(runtime.store, 'admin');
    const now = Date.now();
    const ago = (days: number, hours = 0): string =>
      new Date(now - days * DAY_MS - hours * 3_600_000).toISOString();
    const types: LlmActionType[] = ['PLANNING', 'VERIFICATION', 'CRITIC', 'ACTION_GENERATION'];
    const logsA: NewTokenUsageLog[] = [];
    for (let i = 0; i < 24; i++) {
      logsA.push(
        usage({
          timestamp: ago(i % 6, i % 5),
          model: i % 3 === 0 ? 'gemini-2.5-pro' : 'gemini-2.5-flash',
          actionType: types[i % types.length],
          userId: i % 4 === 0 ? null : i % 2 === 0 ? 'alice' : 'bob',
          inputTokens: 1_000 + i * 37,
          cachedInputTokens: i % 3 === 1 ? 512 + i * 11 : 0,
          outputTokens: 50 + i,
          totalTokens: 1_050 + i * 38,
          costMicroUsd: 1_234 + i * 4_567,
        }),
      );
    }
    // Outside the default window: must not be billed.
    logsA.push(usage({ timestamp: ago(40), costMicroUsd: 9_999_999 }));
    for (const log of logsA) await runtime.store.tokenUsage.append(a.tenantId, log);
    // Another tenant with its own model and user names: none of it may show up for A.
    for (let i = 0; i < 5; i++) {
      await runtime.store.tokenUsage.append(
        b.tenantId,
        usage({
          timestamp: ago(i),
          model: 'tenant-b-model',
          userId: 'tenant-b-user',
          actionType: 'EXTRACTION',
          costMicroUsd: 777_000,
        }),
      );
    }
    return { a, b, logsA: logsA.filter((l) => Date.parse(l.timestamp) > now - 30 * DAY_MS) };
  }

  it('sums by every grouping; totals equal the rows; another tenant never appears', async () => {
    const { a, logsA } = await seed();
    for (const groupBy of GROUPINGS) {
      const res = await get(billing, `/api/admin/billing?groupBy=${groupBy}`, a.key);
      expect(res.status).toBe(200);
      const body = BillingResponse.parse(await res.json());
      expect(body.groupBy).toBe(groupBy);
      expect(body.currency).toBe('USD');

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
        { calls: number; cost: number; input: number; cached: number }
      >();
      for (const log of logsA) {
        const e = expected.get(keyOf(log)) ?? { calls: 0, cost: 0, input: 0, cached: 0 };
        e.calls += 1;
        e.cost += log.costMicroUsd;
        e.input += log.inputTokens;
        e.cached += log.cachedInputTokens;
        expected.set(keyOf(log), e);
      }
      expect(body.rows.map((r) => r.key)).toEqual([...expected.keys()].sort());
      for (const row of body.rows) {
        const e = expected.get(row.key);
        expect([row.calls, row.costMicroUsd, row.inputTokens, row.cachedInputTokens]).toEqual([
          e?.calls,
          e?.cost,
          e?.input,
          e?.cached,
        ]);
        expect(row.costUsd).toBe(microUsdToUsd(row.costMicroUsd));
        expect(row.key).not.toMatch(/tenant-b|EXTRACTION/);
      }
      const sum = (pick: (r: (typeof body.rows)[number]) => number) =>
        body.rows.reduce((acc, r) => acc + pick(r), 0);
      expect(body.totals).toEqual({
        calls: sum((r) => r.calls),
        inputTokens: sum((r) => r.inputTokens),
        cachedInputTokens: sum((r) => r.cachedInputTokens),
        outputTokens: sum((r) => r.outputTokens),
        totalTokens: sum((r) => r.totalTokens),
        costMicroUsd: sum((r) => r.costMicroUsd),
        costUsd: microUsdToUsd(sum((r) => r.costMicroUsd)),
      });
      expect(body.totals.calls).toBe(logsA.length);
      expect(body.totals.cachedInputTokens).toBe(
        logsA.reduce((acc, l) => acc + l.cachedInputTokens, 0),
      );
    }
  });

  it('honours an explicit window: date-only bounds, `to` through that day', async () => {
    const a = await tenantWithKey(runtime.store, 'admin');
    for (const [timestamp, cost] of [
      ['2024-03-01T00:00:00.000Z', 1],
      ['2024-03-02T23:59:59.999Z', 10],
      ['2024-03-03T00:00:00.000Z', 100],
    ] as const) {
      await runtime.store.tokenUsage.append(a.tenantId, usage({ timestamp, costMicroUsd: cost }));
    }
    const res = await get(billing, '/api/admin/billing?from=2024-03-01&to=2024-03-02', a.key);
    const body = BillingResponse.parse(await res.json());
    expect(body.window).toEqual({
      from: '2024-03-01T00:00:00.000Z',
      to: '2024-03-03T00:00:00.000Z',
    });
    expect(body.rows.map((r) => [r.key, r.costMicroUsd])).toEqual([
      ['2024-03-01', 1],
      ['2024-03-02', 10],
    ]);
    expect(body.totals.costUsd).toBe('0.000011');
  });

  it('400 with a clear message for bad ranges and values', async () => {
    const { key } = await tenantWithKey(runtime.store, 'admin');
    const cases: [string, string, RegExp][] = [
      [
        '?from=2024-03-05&to=2024-03-01',
        'BAD_REQUEST',
        /`from` \(2024-03-05T00:00:00.000Z\) must be before `to`/,
      ],
      ['?from=2022-01-01&to=2024-01-01', 'BAD_REQUEST', /Window too long: 731 days.*at most 366/],
      ['?from=2099-01-01', 'BAD_REQUEST', /must be before/],
      ['?from=yesterday', 'VALIDATION_ERROR', /query\.from/],
      ['?groupBy=tenant', 'VALIDATION_ERROR', /query\.groupBy/],
    ];
    for (const [query, code, message] of cases) {
      for (const route of [billing, metrics, tasks]) {
        const path =
          route === billing
            ? '/api/admin/billing'
            : route === metrics
              ? '/api/admin/metrics'
              : '/api/admin/tasks';
        if (query.startsWith('?groupBy') && route !== billing) continue;
        const res = await get(route, `${path}${query}`, key);
        expect(res.status, `${path}${query}`).toBe(400);
        const body = ErrorResponse.parse(await res.json());
        expect(body.error.code).toBe(code);
        expect(body.error.message).toMatch(message);
      }
    }
  });
});

const verified = (success: boolean, tier: 1 | 2 | 3 = 1): VerificationResult => ({
  success,
  confidence: 0.8,
  reason: success ? 'the page changed as expected' : 'no change',
  verificationTier: tier,
});

const correction = (stepIndex: number, succeeded?: boolean): CorrectionRecord => ({
  id: randomUUID(),
  stepIndex,
  attempt: 1,
  failedAction: 'click("3")',
  correctedAction: 'click("4")',
  strategy: 'ALTERNATIVE_SELECTOR',
  reason: 'nothing happened',
  ...(succeeded === undefined ? {} : { succeeded }),
  createdAt: new Date().toISOString(),
});

function step(
  taskId: string,
  stepIndex: number,
  durationMs: number,
  verification: VerificationResult | null,
  action = `click("${stepIndex + 10}")`,
): NewTaskAction {
  return {
    taskId,
    stepIndex,
    thought: `step ${stepIndex}`,
    action,
    expectedOutcome: null,
    beforeState: null,
    verification,
    status: verification?.success === false ? 'failure' : 'success',
    metrics: { durationMs, inputTokens: 0, outputTokens: 0 },
  };
}

describe('GET /api/admin/metrics', () => {
  it('answers the KPIs of a seeded task set, and only for the caller’s tenant', async () => {
    const a = await tenantWithKey(runtime.store, 'admin');
    const b = await tenantWithKey(runtime.store, 'admin');
    const task = async (
      tenantId: string,
      status: 'completed' | 'failed' | 'interrupted' | 'active',
      complexity: 'SIMPLE' | 'COMPLEX' | null,
      corrections: CorrectionRecord[] = [],
    ): Promise<string> => {
      const t = await runtime.store.tasks.create(tenantId, {
        userId: 'user-1',
        url: 'https://emr.test/',
        query: `${status} task`,
      });
      await runtime.store.tasks.update(tenantId, t.id, { status, complexity, corrections });
      return t.id;
    };
    const s1 = await task(a.tenantId, 'completed', 'SIMPLE');
    const s2 = await task(a.tenantId, 'completed', 'SIMPLE');
    const c1 = await task(a.tenantId, 'completed', 'COMPLEX', [
      correction(1, true),
      correction(1, true),
    ]);
    const c2 = await task(a.tenantId, 'failed', 'COMPLEX', [correction(0, false), correction(2)]);
    await task(a.tenantId, 'interrupted', null);
    await task(a.tenantId, 'active', 'COMPLEX');
    await runtime.store.taskActions.insertMany(a.tenantId, [
      step(s1, 0, 400, verified(true)),
      step(s2, 0, 600, verified(true)),
      step(
        c1,
        0,
        3_000,
        verified(true, 2),
        'setValue("1", "Ann"); setValue("2", "Lee"); click("3")',
      ),
      step(c1, 1, 5_000, verified(false, 3)),
      step(c1, 2, 2_000, verified(true)),
      step(c2, 0, 9_000, verified(false), 'setValue("1", "x"); click("3")'),
      step(c2, 1, 7_000, null),
    ]);
    // Tenant B: a failed task with a slow failed chain; it must not move any of A's numbers.
    const foreign = await task(b.tenantId, 'failed', 'SIMPLE', [correction(0, false)]);
    await runtime.store.taskActions.insert(
      b.tenantId,
      step(foreign, 0, 60_000, verified(false), 'click("1"); click("2")'),
    );

    const res = await get(metrics, '/api/admin/metrics', a.key);
    expect(res.status).toBe(200);
    const body = MetricsResponse.parse(await res.json());
    expect(body.tasks.total).toBe(6);
    expect(body.tasks.byStatus).toEqual({
      active: 1,
      executing: 0,
      completed: 3,
      failed: 1,
      interrupted: 1,
      needs_user_input: 0,
      cancelled: 0,
    });
    expect(body.taskCompletion).toEqual({ rate: 0.6, successes: 3, samples: 5 });
    // 400 600 2000 3000 5000 7000 9000: p50 is the 4th, p95 the 7th.
    expect(body.stepLatency).toEqual({ p50Ms: 3_000, p95Ms: 9_000, samples: 7 });
    expect(body.latencyByComplexity).toEqual({
      SIMPLE: { p50Ms: 400, p95Ms: 600, samples: 2 },
      COMPLEX: { p50Ms: 5_000, p95Ms: 9_000, samples: 5 },
    });
    expect(body.verificationSuccess).toEqual({ rate: 4 / 6, successes: 4, samples: 6 });
    expect(body.chainSuccess).toEqual({ rate: 0.5, successes: 1, samples: 2 });
    expect(body.correctionSuccess).toEqual({ rate: 2 / 3, successes: 2, samples: 3 });
    // Both SIMPLE tasks ended without a correction (B's corrected one is not A's).
    expect(body.classificationAccuracy).toEqual({ rate: 1, successes: 2, samples: 2 });
    // Rows without the KPI counters measure nothing: no rate rather than a fake 0 %.
    for (const rate of [
      body.roundTripReduction,
      body.replanFrequency,
      body.criticCatchRate,
      body.skillHitRate,
      body.skillEffectiveness,
      body.lookAheadHitRate,
      body.earlyDetection,
    ]) {
      expect(rate).toEqual({ rate: null, successes: 0, samples: 0 });
    }

    // A window with no tasks: every rate and percentile is null, with zero samples.
    const empty = MetricsResponse.parse(
      await (await get(metrics, '/api/admin/metrics?from=2020-01-01&to=2020-01-31', a.key)).json(),
    );
    expect(empty.tasks.total).toBe(0);
    for (const rate of [
      empty.taskCompletion,
      empty.chainSuccess,
      empty.verificationSuccess,
      empty.correctionSuccess,
      empty.classificationAccuracy,
      empty.roundTripReduction,
      empty.replanFrequency,
    ]) {
      expect(rate).toEqual({ rate: null, successes: 0, samples: 0 });
    }
    expect(empty.stepLatency).toEqual({ p50Ms: null, p95Ms: null, samples: 0 });
  });

  it('counts the KPIs of a SIMPLE task run through the real interact route', async () => {
    const a = await tenantWithKey(runtime.store, 'admin');
    const step = (body: Record<string, unknown>) =>
      interact.withRuntime(runtime)(
        request('/api/agent/interact', { method: 'POST', key: a.key, body }),
      );
    const first = InteractResponse.parse(
      await (
        await step({
          url: 'https://app.example/',
          query: 'click Logout',
          interactiveTree: [{ i: '7', r: 'link', n: 'Logout' }],
        })
      ).json(),
    );
    if (first.needsUserInput || !first.taskId) throw new Error('expected an action');
    const done = InteractResponse.parse(
      await (
        await step({
          url: 'https://app.example/login',
          interactiveTree: [{ i: '9', r: 'btn', n: 'Sign in' }],
          taskId: first.taskId,
          sessionId: first.sessionId,
          lastActionStatus: 'success',
        })
      ).json(),
    );
    expect(done).toMatchObject({ status: 'completed' });

    const body = MetricsResponse.parse(
      await (await get(metrics, '/api/admin/metrics', a.key)).json(),
    );
    // One action and the finish(): what a SIMPLE command should take.
    expect(body.classificationAccuracy).toEqual({ rate: 1, successes: 1, samples: 1 });
    // Two round trips for two single actions: chaining saved none.
    expect(body.roundTripReduction).toEqual({ rate: 0, successes: 0, samples: 2 });
    // SIMPLE tasks are neither planned nor shown skills.
    expect(body.replanFrequency).toEqual({ rate: null, successes: 0, samples: 0 });
    expect(body.skillHitRate).toEqual({ rate: null, successes: 0, samples: 0 });
  });
});

describe('GET /api/admin/tasks and /api/admin/tasks/:taskId', () => {
  it('lists and traces a task made by a real interact request; other tenants see nothing', async () => {
    const a = await tenantWithKey(runtime.store, 'admin');
    const b = await tenantWithKey(runtime.store, 'admin');
    // Deterministic SIMPLE command: resolved against the tree with zero LLM calls.
    const res = await interact.withRuntime(runtime)(
      request('/api/agent/interact', {
        method: 'POST',
        key: a.key,
        body: {
          url: 'https://app.example/',
          query: 'click Logout',
          interactiveTree: [
            { i: '5', r: 'link', n: 'Home' },
            { i: '7', r: 'link', n: 'Logout' },
          ],
        },
      }),
    );
    expect(res.status).toBe(200);
    const step0 = InteractResponse.parse(await res.json());
    if (step0.needsUserInput) throw new Error('expected an action');
    // Billed calls attributed to the task (as the usage recorder writes them).
    await runtime.store.tokenUsage.append(
      a.tenantId,
      usage({
        taskId: step0.taskId,
        actionType: 'VERIFICATION',
        costMicroUsd: 2_500,
        // The next request's verification call, a moment after the step was stored.
        timestamp: new Date(Date.now() + 1_000).toISOString(),
      }),
    );

    const list = AdminTaskList.parse(await (await get(tasks, '/api/admin/tasks', a.key)).json());
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      id: step0.taskId,
      query: 'click Logout',
      url: 'https://app.example/',
      complexity: 'SIMPLE',
      usage: { calls: 1, costMicroUsd: 2_500, costUsd: '0.002500' },
    });
    expect(
      AdminTaskList.parse(await (await get(tasks, '/api/admin/tasks?status=failed', a.key)).json())
        .items,
    ).toEqual([]);
    expect(
      AdminTaskList.parse(await (await get(tasks, '/api/admin/tasks', b.key)).json()).items,
    ).toEqual([]);

    const path = `/api/admin/tasks/${step0.taskId}`;
    const detailRes = await get(taskDetail, path, a.key, { taskId: step0.taskId });
    expect(detailRes.status).toBe(200);
    const detail = AdminTaskDetail.parse(await detailRes.json());
    expect(detail.task.id).toBe(step0.taskId);
    expect(detail.steps).toHaveLength(1);
    expect(detail.steps[0]).toMatchObject({
      stepIndex: 0,
      action: 'click("7")',
      chain: ['click("7")'],
      thought: step0.thought,
    });
    expect(detail.steps[0]?.latencyMs).toBeGreaterThanOrEqual(0);
    // The call was logged after the step was stored: it belongs to the request after it.
    expect(detail.afterLastStep).toMatchObject({ calls: 1, costMicroUsd: 2_500 });

    const foreign = await get(taskDetail, path, b.key, { taskId: step0.taskId });
    expect(foreign.status).toBe(404);
    expect(ErrorResponse.parse(await foreign.json()).error.code).toBe('NOT_FOUND');
  });

  it('pages newest first with a cursor', async () => {
    const a = await tenantWithKey(runtime.store, 'admin');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (
          await runtime.store.tasks.create(a.tenantId, {
            userId: 'u',
            url: 'https://x/',
            query: `q${i}`,
          })
        ).id,
      );
      await new Promise((r) => setTimeout(r, 3));
    }
    const first = AdminTaskList.parse(
      await (await get(tasks, '/api/admin/tasks?limit=3', a.key)).json(),
    );
    expect(first.items.map((t) => t.id)).toEqual(ids.slice(2).reverse());
    const next = AdminTaskList.parse(
      await (
        await get(
          tasks,
          `/api/admin/tasks?limit=3&cursor=${encodeURIComponent(first.nextCursor ?? '')}`,
          a.key,
        )
      ).json(),
    );
    expect(next.items.map((t) => t.id)).toEqual(ids.slice(0, 2).reverse());
    expect(next.nextCursor).toBeNull();
  });
});

describe('cached input tokens', () => {
  it('a recorded usage event with cached tokens reaches billing and the task usage', async () => {
    const a = await tenantWithKey(runtime.store, 'admin');
    const task = await runtime.store.tasks.create(a.tenantId, {
      userId: 'alice',
      url: 'https://app.example/',
      query: 'summarise the page',
    });
    const event = (over: Pick<UsageEvent, 'node' | 'actionType' | 'usage'>): UsageEvent => ({
      generationId: randomUUID(),
      provider: 'GOOGLE',
      model: 'gemini-2.5-flash',
      latencyMs: 250,
      context: { tenantId: a.tenantId, userId: 'alice', taskId: task.id },
      startedAt: new Date().toISOString(),
      input: { system: 'system', prompt: 'prompt' },
      ...over,
    });
    // The path every LLM call takes: priced (cached tokens at the cached rate), then logged.
    const cachedUsage = {
      inputTokens: 12_000,
      cachedInputTokens: 9_000,
      outputTokens: 300,
      thinkingTokens: 0,
      totalTokens: 12_300,
    };
    const planning = await runtime.usage.record(
      event({ node: 'planning', actionType: 'PLANNING', usage: cachedUsage }),
    );
    const verification = await runtime.usage.record(
      event({
        node: 'verification',
        actionType: 'VERIFICATION',
        usage: { ...cachedUsage, cachedInputTokens: 0 },
      }),
    );
    expect([planning.stored, verification.stored]).toEqual(['inserted', 'inserted']);
    expect(planning.costMicroUsd).toBe(priceUsage('gemini-2.5-flash', cachedUsage));
    expect(planning.costMicroUsd).toBeLessThan(verification.costMicroUsd);

    const billed = BillingResponse.parse(
      await (await get(billing, '/api/admin/billing?groupBy=actionType', a.key)).json(),
    );
    expect(
      billed.rows.map((r) => [r.key, r.inputTokens, r.cachedInputTokens, r.costMicroUsd]),
    ).toEqual([
      ['PLANNING', 12_000, 9_000, planning.costMicroUsd],
      ['VERIFICATION', 12_000, 0, verification.costMicroUsd],
    ]);
    expect(billed.totals).toMatchObject({
      calls: 2,
      inputTokens: 24_000,
      cachedInputTokens: 9_000,
      costMicroUsd: planning.costMicroUsd + verification.costMicroUsd,
    });

    const list = AdminTaskList.parse(await (await get(tasks, '/api/admin/tasks', a.key)).json());
    expect(list.items[0]?.usage).toMatchObject({ calls: 2, cachedInputTokens: 9_000 });

    const detail = AdminTaskDetail.parse(
      await (
        await get(taskDetail, `/api/admin/tasks/${task.id}`, a.key, { taskId: task.id })
      ).json(),
    );
    expect(detail.task.usage).toMatchObject({ inputTokens: 24_000, cachedInputTokens: 9_000 });
    // No step was stored: both calls are the request after the last step.
    expect(detail.afterLastStep.cachedInputTokens).toBe(9_000);
    expect(
      detail.afterLastStep.byActionType.map((u) => [u.actionType, u.cachedInputTokens]),
    ).toEqual([
      ['PLANNING', 9_000],
      ['VERIFICATION', 0],
    ]);
  });
});
