// Token usage: idempotent append, windowed lists, rollups — and a property test that the
// rollups are exactly the sums of what was appended, per tenant.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { LlmActionType } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type {
  NewTokenUsageLog,
  TokenUsageRepository,
  UsageGroupBy,
  UsageRollupRow,
} from '../../port';
import { newTenant, uniq, usageInput, useStore, type MakeStore } from './harness';

const GROUPINGS: UsageGroupBy[] = ['day', 'model', 'actionType', 'user'];

/** The reference implementation the store's GROUP BY / aggregation must agree with. */
export function expectedRollup(
  logs: readonly NewTokenUsageLog[],
  groupBy: UsageGroupBy,
  window: { from?: string; to?: string } = {},
): UsageRollupRow[] {
  const rows = new Map<string, UsageRollupRow>();
  for (const log of logs) {
    if (window.from !== undefined && log.timestamp < window.from) continue;
    if (window.to !== undefined && log.timestamp >= window.to) continue;
    const key =
      groupBy === 'day'
        ? log.timestamp.slice(0, 10)
        : groupBy === 'model'
          ? log.model
          : groupBy === 'actionType'
            ? log.actionType
            : (log.userId ?? '');
    const row = rows.get(key) ?? {
      key,
      calls: 0,
      inputTokens: 0,
      cachedInputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      costMicroUsd: 0,
    };
    // Another node's share of a merged call is billed, not counted as a call.
    row.calls += log.partOf ? 0 : 1;
    row.inputTokens += log.inputTokens;
    row.cachedInputTokens += log.cachedInputTokens;
    row.outputTokens += log.outputTokens;
    row.totalTokens += log.totalTokens;
    row.costMicroUsd += log.costMicroUsd;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const DAY_MS = 24 * 60 * 60 * 1000;
const EPOCH = Date.parse('2024-03-01T00:00:00.000Z');
const ACTION_TYPES: LlmActionType[] = ['PLANNING', 'VERIFICATION', 'ACTION_GENERATION', 'CRITIC'];

export function usageContract(makeStore: MakeStore): void {
  describe('tokenUsage', () => {
    const store = useStore(makeStore);

    it('appends once per generation id', async () => {
      const tenantId = await newTenant(store());
      const log = usageInput({
        taskId: 't1',
        traceId: 'trace-1',
        sessionId: 's1',
        messageId: 'm1',
      });
      expect(await store().tokenUsage.append(tenantId, log)).toBe(true);
      expect(await store().tokenUsage.append(tenantId, { ...log, inputTokens: 999_999 })).toBe(
        false,
      );
      expect(await store().tokenUsage.list(tenantId)).toEqual([{ ...log, tenantId }]);
    });

    it('lists oldest first within [from, to), by task, with a limit', async () => {
      const tenantId = await newTenant(store());
      const at = (day: number, hour = 0): string =>
        new Date(EPOCH + day * DAY_MS + hour * 3_600_000).toISOString();
      const logs = [
        usageInput({ timestamp: at(2), taskId: 't1' }),
        usageInput({ timestamp: at(0), taskId: 't1' }),
        usageInput({ timestamp: at(1), taskId: 't2' }),
        usageInput({ timestamp: at(1, 5), taskId: 't1' }),
      ];
      for (const log of logs) await store().tokenUsage.append(tenantId, log);
      const ids = async (options: Parameters<TokenUsageRepository['list']>[1]): Promise<string[]> =>
        (await store().tokenUsage.list(tenantId, options)).map((l) => l.id);

      expect(await ids({})).toEqual([logs[1]?.id, logs[2]?.id, logs[3]?.id, logs[0]?.id]);
      expect(await ids({ from: at(1), to: at(2) })).toEqual([logs[2]?.id, logs[3]?.id]);
      expect(await ids({ from: at(1, 5) })).toEqual([logs[3]?.id, logs[0]?.id]);
      expect(await ids({ to: at(1) })).toEqual([logs[1]?.id]);
      expect(await ids({ taskId: 't1' })).toEqual([logs[1]?.id, logs[3]?.id, logs[0]?.id]);
      expect(await ids({ limit: 2 })).toEqual([logs[1]?.id, logs[2]?.id]);
    });

    it("bills a merged call's share under its own action type, as no call of its own", async () => {
      const tenantId = await newTenant(store());
      const call = usageInput({ actionType: 'CONTEXT_ANALYSIS', taskId: 't1' });
      const share = usageInput({
        id: `${call.id}:planning`,
        partOf: call.id,
        actionType: 'PLANNING',
        taskId: 't1',
        timestamp: call.timestamp,
        inputTokens: 30,
        outputTokens: 8,
        totalTokens: 38,
        costMicroUsd: 400,
      });
      await store().tokenUsage.append(tenantId, call);
      await store().tokenUsage.append(tenantId, share);
      expect((await store().tokenUsage.list(tenantId)).map((l) => [l.id, l.partOf])).toEqual([
        [call.id, null],
        [share.id, call.id],
      ]);
      const byType = await store().tokenUsage.rollup(tenantId, { groupBy: 'actionType' });
      expect(byType.map((r) => [r.key, r.calls, r.totalTokens, r.costMicroUsd])).toEqual([
        ['CONTEXT_ANALYSIS', 1, 120, 1500],
        ['PLANNING', 0, 38, 400],
      ]);
      const [task] = await store().tokenUsage.totalsByTask(tenantId, ['t1']);
      expect([task?.calls, task?.totalTokens]).toEqual([1, 158]);
    });

    it('rolls up by day, model, action type and user', async () => {
      const tenantId = await newTenant(store());
      const day = (n: number): string => new Date(EPOCH + n * DAY_MS + 1000).toISOString();
      const logs = [
        usageInput({ timestamp: day(0), model: 'm-b', actionType: 'PLANNING', userId: 'u1' }),
        usageInput({
          timestamp: day(0),
          model: 'm-a',
          actionType: 'CRITIC',
          userId: null,
          cachedInputTokens: 25,
        }),
        usageInput({
          timestamp: day(1),
          model: 'm-a',
          actionType: 'PLANNING',
          userId: 'u2',
          cachedInputTokens: 60,
          costMicroUsd: 7,
        }),
      ];
      for (const log of logs) await store().tokenUsage.append(tenantId, log);
      for (const groupBy of GROUPINGS) {
        expect(await store().tokenUsage.rollup(tenantId, { groupBy })).toEqual(
          expectedRollup(logs, groupBy),
        );
      }
      const byDay = await store().tokenUsage.rollup(tenantId, { groupBy: 'day' });
      expect(byDay.map((r) => [r.key, r.calls])).toEqual([
        ['2024-03-01', 2],
        ['2024-03-02', 1],
      ]);
      const byUser = await store().tokenUsage.rollup(tenantId, { groupBy: 'user' });
      expect(byUser.map((r) => r.key)).toEqual(['', 'u1', 'u2']);
      expect(await store().tokenUsage.rollup(tenantId, { groupBy: 'model', from: day(1) })).toEqual(
        [
          {
            key: 'm-a',
            calls: 1,
            inputTokens: 100,
            cachedInputTokens: 60,
            outputTokens: 20,
            totalTokens: 120,
            costMicroUsd: 7,
          },
        ],
      );
      expect(await store().tokenUsage.rollup(await newTenant(store()), { groupBy: 'day' })).toEqual(
        [],
      );
    });

    it('rollups equal the sums of the appended logs, per tenant (property)', async () => {
      const logArb = fc.record({
        tenant: fc.constantFrom<'a' | 'b'>('a', 'b'),
        offsetMs: fc.integer({ min: 0, max: 4 * DAY_MS - 1 }),
        model: fc.constantFrom('gemini-flash', 'gemini-pro', 'local-7b'),
        actionType: fc.constantFrom(...ACTION_TYPES),
        userId: fc.constantFrom<string | null>(null, 'u1', 'u2'),
        inputTokens: fc.integer({ min: 0, max: 50_000 }),
        cachedShare: fc.double({ min: 0, max: 1, noNaN: true }),
        outputTokens: fc.integer({ min: 0, max: 5_000 }),
        costMicroUsd: fc.integer({ min: 0, max: 2_000_000 }),
        share: fc.boolean(),
      });
      const windowArb = fc.record({
        from: fc.option(fc.integer({ min: 0, max: 4 * DAY_MS }), { nil: undefined }),
        to: fc.option(fc.integer({ min: 0, max: 4 * DAY_MS }), { nil: undefined }),
      });

      await fc.assert(
        fc.asyncProperty(fc.array(logArb, { maxLength: 25 }), windowArb, async (specs, win) => {
          const tenants = { a: await newTenant(store()), b: await newTenant(store()) };
          const run = randomUUID();
          const logs = { a: [] as NewTokenUsageLog[], b: [] as NewTokenUsageLog[] };
          for (const [i, spec] of specs.entries()) {
            const log = usageInput({
              id: `${run}-${i}`,
              timestamp: new Date(EPOCH + spec.offsetMs).toISOString(),
              model: spec.model,
              actionType: spec.actionType,
              userId: spec.userId,
              inputTokens: spec.inputTokens,
              cachedInputTokens: Math.floor(spec.inputTokens * spec.cachedShare),
              outputTokens: spec.outputTokens,
              totalTokens: spec.inputTokens + spec.outputTokens,
              costMicroUsd: spec.costMicroUsd,
              // A share of the previous log's call when it is one: tokens, and no call.
              partOf: spec.share && i > 0 ? `${run}-${i - 1}` : null,
            });
            logs[spec.tenant].push(log);
            expect(await store().tokenUsage.append(tenants[spec.tenant], log)).toBe(true);
          }
          const window = {
            ...(win.from === undefined ? {} : { from: new Date(EPOCH + win.from).toISOString() }),
            ...(win.to === undefined ? {} : { to: new Date(EPOCH + win.to).toISOString() }),
          };
          for (const tenant of ['a', 'b'] as const) {
            for (const groupBy of GROUPINGS) {
              const actual = await store().tokenUsage.rollup(tenants[tenant], {
                groupBy,
                ...window,
              });
              expect(actual).toEqual(expectedRollup(logs[tenant], groupBy, window));
            }
          }
        }),
        { numRuns: 25 },
      );
    }, 120_000);

    it('returns nothing for another tenant’s window', async () => {
      const tenantId = await newTenant(store());
      await store().tokenUsage.append(tenantId, usageInput({ id: uniq('gen') }));
      expect(await store().tokenUsage.list(await newTenant(store()))).toEqual([]);
    });
  });
}
