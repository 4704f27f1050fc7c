// The queries admin reports read through: tasks in a creation window, the actions of many
// tasks at once, usage split by two groupings and usage totals per task — each tenant-scoped.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NewTokenUsageLog, Store, Task, UsageGroupBy, UsageSeriesRow } from '../../port';
import {
  actionInput,
  isoAt,
  newTenant,
  tick,
  usageInput,
  useStore,
  type MakeStore,
} from './harness';
import { expectedRollup } from './usage';

const GROUPINGS: UsageGroupBy[] = ['day', 'model', 'actionType', 'user'];
const DAY_MS = 24 * 60 * 60 * 1000;
const EPOCH = Date.parse('2024-03-01T00:00:00.000Z');

const keyOf = (log: NewTokenUsageLog, groupBy: UsageGroupBy): string =>
  groupBy === 'day'
    ? log.timestamp.slice(0, 10)
    : groupBy === 'model'
      ? log.model
      : groupBy === 'actionType'
        ? log.actionType
        : (log.userId ?? '');

/** The reference for rollupSeries: expectedRollup per key, split by the series key. */
export function expectedSeries(
  logs: readonly NewTokenUsageLog[],
  groupBy: UsageGroupBy,
  seriesBy: UsageGroupBy,
  window: { from?: string; to?: string } = {},
): UsageSeriesRow[] {
  const bySeries = new Map<string, NewTokenUsageLog[]>();
  for (const log of logs) {
    const series = keyOf(log, seriesBy);
    bySeries.set(series, [...(bySeries.get(series) ?? []), log]);
  }
  const rows = [...bySeries].flatMap(([series, group]) =>
    expectedRollup(group, groupBy, window).map((row) => ({ ...row, series })),
  );
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort((a, b) => cmp(a.key, b.key) || cmp(a.series, b.series));
}

export function adminReportsContract(makeStore: MakeStore): void {
  describe('admin report queries', () => {
    const store = useStore(makeStore);

    it('lists tasks created within [createdFrom, createdTo), newest first, with paging', async () => {
      const tenantId = await newTenant(store());
      const tasks: Task[] = [];
      for (let i = 0; i < 5; i++) {
        tasks.push(
          await store().tasks.create(tenantId, { userId: 'u', url: 'https://a/', query: `q${i}` }),
        );
        await tick();
      }
      const [t0, t1, t2, t3, t4] = tasks as [Task, Task, Task, Task, Task];
      const ids = async (options: Parameters<Store['tasks']['list']>[1]): Promise<string[]> =>
        (await store().tasks.list(tenantId, options)).items.map((t) => t.id);

      expect(await ids({ createdFrom: t1.createdAt, createdTo: t4.createdAt })).toEqual([
        t3.id,
        t2.id,
        t1.id,
      ]);
      expect(await ids({ createdFrom: t3.createdAt })).toEqual([t4.id, t3.id]);
      expect(await ids({ createdTo: t1.createdAt })).toEqual([t0.id]);
      await store().tasks.update(tenantId, t2.id, { status: 'completed' });
      expect(
        await ids({ createdFrom: t0.createdAt, createdTo: t4.createdAt, status: ['completed'] }),
      ).toEqual([t2.id]);

      // Paging inside a window: the cursor and the window bound createdAt together.
      const first = await store().tasks.list(tenantId, {
        createdFrom: t1.createdAt,
        createdTo: isoAt(Date.parse(t4.createdAt) + 1),
        limit: 2,
      });
      expect(first.items.map((t) => t.id)).toEqual([t4.id, t3.id]);
      const second = await store().tasks.list(tenantId, {
        createdFrom: t1.createdAt,
        createdTo: isoAt(Date.parse(t4.createdAt) + 1),
        limit: 2,
        cursor: first.nextCursor,
      });
      expect(second.items.map((t) => t.id)).toEqual([t2.id, t1.id]);
      expect(second.nextCursor).toBeNull();

      // Another tenant's window holds nothing of this one.
      expect(
        (await store().tasks.list(await newTenant(store()), { createdFrom: t0.createdAt })).items,
      ).toEqual([]);
    });

    it('lists the actions of several tasks, by task then step, tenant-scoped', async () => {
      const tenantId = await newTenant(store());
      const other = await newTenant(store());
      const a = await store().tasks.create(tenantId, {
        userId: 'u',
        url: 'https://a/',
        query: 'a',
      });
      const b = await store().tasks.create(tenantId, {
        userId: 'u',
        url: 'https://a/',
        query: 'b',
      });
      const foreign = await store().tasks.create(other, {
        userId: 'u',
        url: 'https://a/',
        query: 'x',
      });
      const inserted = await store().taskActions.insertMany(tenantId, [
        actionInput(b.id, 1),
        actionInput(a.id, 1, { metrics: { durationMs: 120, inputTokens: 3, outputTokens: 1 } }),
        actionInput(b.id, 0),
        actionInput(a.id, 0, {
          verification: { success: true, confidence: 0.9, reason: 'ok', verificationTier: 1 },
        }),
      ]);
      await store().taskActions.insert(other, actionInput(foreign.id, 0));

      const listed = await store().taskActions.listByTasks(tenantId, [
        b.id,
        a.id,
        foreign.id,
        b.id,
      ]);
      const expectedOrder = [a.id, b.id].sort();
      expect(listed.map((x) => [x.taskId, x.stepIndex])).toEqual(
        expectedOrder.flatMap((taskId) => [
          [taskId, 0],
          [taskId, 1],
        ]),
      );
      // Every field round-trips like listByTask.
      for (const action of listed) {
        expect(action).toEqual(inserted.find((x) => x.id === action.id));
      }
      expect(await store().taskActions.listByTasks(tenantId, [])).toEqual([]);
      expect(await store().taskActions.listByTasks(other, [a.id, b.id])).toEqual([]);
    });

    it('rolls usage up by two groupings and totals it per task', async () => {
      const tenantId = await newTenant(store());
      const day = (n: number, hour = 0): string =>
        isoAt(EPOCH + n * DAY_MS + hour * 3_600_000 + 1000);
      const logs = [
        usageInput({
          timestamp: day(0),
          actionType: 'PLANNING',
          taskId: 't1',
          cachedInputTokens: 40,
          costMicroUsd: 10,
        }),
        usageInput({
          timestamp: day(0, 3),
          actionType: 'PLANNING',
          taskId: 't1',
          cachedInputTokens: 30,
          costMicroUsd: 5,
        }),
        usageInput({ timestamp: day(0), actionType: 'CRITIC', taskId: 't2', costMicroUsd: 7 }),
        usageInput({ timestamp: day(1), actionType: 'PLANNING', taskId: null, costMicroUsd: 1 }),
      ];
      for (const log of logs) await store().tokenUsage.append(tenantId, log);
      await store().tokenUsage.append(
        await newTenant(store()),
        usageInput({ timestamp: day(0), taskId: 't1', costMicroUsd: 999 }),
      );

      const series = await store().tokenUsage.rollupSeries(tenantId, {
        groupBy: 'day',
        seriesBy: 'actionType',
      });
      expect(series.map((r) => [r.key, r.series, r.calls, r.costMicroUsd])).toEqual([
        ['2024-03-01', 'CRITIC', 1, 7],
        ['2024-03-01', 'PLANNING', 2, 15],
        ['2024-03-02', 'PLANNING', 1, 1],
      ]);
      expect(
        await store().tokenUsage.rollupSeries(tenantId, {
          groupBy: 'day',
          seriesBy: 'actionType',
          from: day(0, 1),
          to: day(1),
        }),
      ).toEqual(expectedSeries(logs, 'day', 'actionType', { from: day(0, 1), to: day(1) }));

      const totals = await store().tokenUsage.totalsByTask(tenantId, ['t2', 't1', 'missing']);
      expect(
        totals.map((r) => [r.key, r.calls, r.costMicroUsd, r.totalTokens, r.cachedInputTokens]),
      ).toEqual([
        ['t1', 2, 15, 240, 70],
        ['t2', 1, 7, 120, 0],
      ]);
      expect(await store().tokenUsage.totalsByTask(tenantId, [])).toEqual([]);
      expect(await store().tokenUsage.totalsByTask(await newTenant(store()), ['t1'])).toEqual([]);
    });

    it('series rollups equal the split sums of the appended logs, per tenant (property)', async () => {
      const logArb = fc.record({
        tenant: fc.constantFrom<'a' | 'b'>('a', 'b'),
        offsetMs: fc.integer({ min: 0, max: 3 * DAY_MS - 1 }),
        model: fc.constantFrom('gemini-flash', 'local-7b'),
        actionType: fc.constantFrom(
          'PLANNING' as const,
          'VERIFICATION' as const,
          'CRITIC' as const,
        ),
        userId: fc.constantFrom<string | null>(null, 'u1'),
        inputTokens: fc.integer({ min: 0, max: 50_000 }),
        cachedInputTokens: fc.integer({ min: 0, max: 50_000 }),
        costMicroUsd: fc.integer({ min: 0, max: 2_000_000 }),
      });
      const pairArb = fc.tuple(fc.constantFrom(...GROUPINGS), fc.constantFrom(...GROUPINGS));
      await fc.assert(
        fc.asyncProperty(fc.array(logArb, { maxLength: 20 }), pairArb, async (specs, pair) => {
          const [groupBy, seriesBy] = pair;
          const tenants = { a: await newTenant(store()), b: await newTenant(store()) };
          const logs = { a: [] as NewTokenUsageLog[], b: [] as NewTokenUsageLog[] };
          const run = randomUUID();
          for (const [i, spec] of specs.entries()) {
            const log = usageInput({
              id: `${run}-${i}`,
              timestamp: isoAt(EPOCH + spec.offsetMs),
              model: spec.model,
              actionType: spec.actionType,
              userId: spec.userId,
              inputTokens: spec.inputTokens,
              cachedInputTokens: Math.min(spec.cachedInputTokens, spec.inputTokens),
              totalTokens: spec.inputTokens + 20,
              costMicroUsd: spec.costMicroUsd,
            });
            logs[spec.tenant].push(log);
            await store().tokenUsage.append(tenants[spec.tenant], log);
          }
          for (const tenant of ['a', 'b'] as const) {
            expect(
              await store().tokenUsage.rollupSeries(tenants[tenant], { groupBy, seriesBy }),
            ).toEqual(expectedSeries(logs[tenant], groupBy, seriesBy));
          }
        }),
        { numRuns: 15 },
      );
    }, 120_000);
  });
}
