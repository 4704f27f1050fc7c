// Extractions, extraction strategies and streaming collected items.
import { describe, expect, it } from 'vitest';
import type { Extraction } from '../../port';
import { expectIso, isoAt, newTenant, tick, uniq, useStore, type MakeStore } from './harness';

const schema = {
  type: 'object',
  properties: { title: { type: 'string' }, price: { type: 'number' } },
  required: ['title'],
};

export function extractionContract(makeStore: MakeStore): void {
  describe('extractions', () => {
    const store = useStore(makeStore);

    it('creates with defaults and updates', async () => {
      const tenantId = await newTenant(store());
      const extraction = await store().extractions.create(tenantId, {
        url: 'https://shop.test/p/1',
        schema,
      });
      expect(extraction).toMatchObject({
        tenantId,
        taskId: null,
        url: 'https://shop.test/p/1',
        schema,
        data: null,
        status: 'pending',
        error: null,
      });
      expectIso(extraction.createdAt);
      expect(await store().extractions.get(tenantId, extraction.id)).toEqual(extraction);
      expect(await store().extractions.get(tenantId, uniq('missing'))).toBeNull();

      const data = [{ title: 'Shoe', price: 59.9 }, { title: 'Sock' }];
      const done = await store().extractions.update(tenantId, extraction.id, {
        data,
        status: 'completed',
      });
      expect(done).toMatchObject({ data, status: 'completed', error: null, schema });
      expect(await store().extractions.get(tenantId, extraction.id)).toEqual(done);
      const failed = await store().extractions.update(tenantId, extraction.id, {
        status: 'failed',
        error: 'schema mismatch',
      });
      expect(failed).toMatchObject({ data, status: 'failed', error: 'schema mismatch' });
      expect(
        await store().extractions.update(tenantId, uniq('missing'), { status: 'failed' }),
      ).toBeNull();
    });

    it('keeps given fields and lists newest first by task', async () => {
      const tenantId = await newTenant(store());
      const made: Extraction[] = [];
      for (let i = 0; i < 4; i += 1) {
        made.push(
          await store().extractions.create(tenantId, {
            id: uniq('ex'),
            url: `https://shop.test/p/${i}`,
            schema,
            taskId: i < 3 ? 't1' : 't2',
            data: { i },
            status: 'completed',
            error: null,
          }),
        );
        await tick();
      }
      expect(made[0]).toMatchObject({ taskId: 't1', data: { i: 0 }, status: 'completed' });
      const all = await store().extractions.list(tenantId);
      expect(all.map((e) => e.id)).toEqual([...made].reverse().map((e) => e.id));
      const t1 = await store().extractions.list(tenantId, { taskId: 't1', limit: 2 });
      expect(t1.map((e) => e.id)).toEqual([made[2]?.id, made[1]?.id]);
    });
  });

  describe('extractionStrategies', () => {
    const store = useStore(makeStore);
    const key = { domain: 'shop.test', pathPattern: '/p/*', schemaHash: 'h1' };

    it('upserts by domain, path pattern and schema hash', async () => {
      const tenantId = await newTenant(store());
      const now = isoAt(Date.now());
      const strategy = await store().extractionStrategies.upsert(
        tenantId,
        { ...key, selectors: { title: 'h1', price: '.price' } },
        now,
      );
      expect(strategy).toMatchObject({
        ...key,
        tenantId,
        selectors: { title: 'h1', price: '.price' },
        successCount: 0,
        failureCount: 0,
        lastUsed: now,
        createdAt: now,
      });
      expect(await store().extractionStrategies.find(tenantId, key)).toEqual(strategy);

      await store().extractionStrategies.recordResult(tenantId, strategy.id, true);
      const later = isoAt(Date.now() + 1000);
      const replaced = await store().extractionStrategies.upsert(
        tenantId,
        { ...key, selectors: { title: '.name' } },
        later,
      );
      expect(replaced).toMatchObject({
        id: strategy.id,
        selectors: { title: '.name' },
        successCount: 1,
        lastUsed: later,
        createdAt: now,
      });
      const otherSchema = await store().extractionStrategies.upsert(tenantId, {
        ...key,
        schemaHash: 'h2',
        selectors: {},
      });
      expect(otherSchema.id).not.toBe(strategy.id);
      expect(
        await store().extractionStrategies.find(tenantId, { ...key, pathPattern: '/q/*' }),
      ).toBeNull();
    });

    it('records results and deletes', async () => {
      const tenantId = await newTenant(store());
      const strategy = await store().extractionStrategies.upsert(tenantId, {
        ...key,
        selectors: { title: 'h1' },
      });
      const at = isoAt(Date.now() + 5000);
      const failed = await store().extractionStrategies.recordResult(
        tenantId,
        strategy.id,
        false,
        at,
      );
      expect(failed).toMatchObject({ successCount: 0, failureCount: 1, lastUsed: at });
      const ok = await store().extractionStrategies.recordResult(tenantId, strategy.id, true);
      expect(ok).toMatchObject({ successCount: 1, failureCount: 1 });
      expect(
        await store().extractionStrategies.recordResult(tenantId, uniq('missing'), true),
      ).toBeNull();
      expect(await store().extractionStrategies.delete(tenantId, strategy.id)).toBe(true);
      expect(await store().extractionStrategies.find(tenantId, key)).toBeNull();
      expect(await store().extractionStrategies.delete(tenantId, strategy.id)).toBe(false);
    });
  });

  describe('collectedItems', () => {
    const store = useStore(makeStore);

    it('inserts once per (task, type, uniqueKey) with a monotonic seq', async () => {
      const tenantId = await newTenant(store());
      const taskId = uniq('task');
      const first = await store().collectedItems.insert(tenantId, {
        taskId,
        type: 'job',
        uniqueKey: 'jobId:1',
        data: { title: 'Engineer' },
        sourceUrl: 'https://jobs.test/1',
      });
      expect(first.inserted).toBe(true);
      expect(first.item).toMatchObject({
        tenantId,
        taskId,
        type: 'job',
        uniqueKey: 'jobId:1',
        data: { title: 'Engineer' },
        sourceUrl: 'https://jobs.test/1',
      });
      expectIso(first.item.createdAt);

      const duplicate = await store().collectedItems.insert(tenantId, {
        taskId,
        type: 'job',
        uniqueKey: 'jobId:1',
        data: { title: 'changed' },
      });
      expect(duplicate).toEqual({ inserted: false, item: first.item });

      const second = await store().collectedItems.insert(tenantId, {
        taskId,
        type: 'company',
        uniqueKey: 'jobId:1',
        data: {},
      });
      expect(second.inserted).toBe(true);
      expect(second.item.sourceUrl).toBeNull();
      expect(second.item.seq).toBeGreaterThan(first.item.seq);

      // Another task counts on its own and may hold the same key.
      const elsewhere = await store().collectedItems.insert(tenantId, {
        taskId: uniq('task'),
        type: 'job',
        uniqueKey: 'jobId:1',
        data: {},
      });
      expect(elsewhere.inserted).toBe(true);
      expect(elsewhere.item.seq).toBe(first.item.seq);
    });

    it('keeps seq unique under concurrent inserts', async () => {
      const tenantId = await newTenant(store());
      const taskId = uniq('task');
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store().collectedItems.insert(tenantId, {
            taskId,
            type: 'row',
            uniqueKey: `k${i % 10}`,
            data: { i },
          }),
        ),
      );
      const inserted = results.filter((r) => r.inserted);
      expect(inserted).toHaveLength(10);
      expect(new Set(inserted.map((r) => r.item.seq)).size).toBe(10);
    });

    it('lists by seq with type, afterSeq and limit, and counts by type', async () => {
      const tenantId = await newTenant(store());
      const taskId = uniq('task');
      const types = ['job', 'job', 'company', 'job', 'company'];
      const items = [];
      for (const [i, type] of types.entries()) {
        items.push(
          (
            await store().collectedItems.insert(tenantId, {
              taskId,
              type,
              uniqueKey: `k${i}`,
              data: { i },
            })
          ).item,
        );
      }
      const all = await store().collectedItems.list(tenantId, taskId);
      expect(all).toEqual(items);
      const seqs = all.map((i) => i.seq);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

      const jobs = await store().collectedItems.list(tenantId, taskId, { type: 'job' });
      expect(jobs.map((i) => i.uniqueKey)).toEqual(['k0', 'k1', 'k3']);
      const after = await store().collectedItems.list(tenantId, taskId, {
        afterSeq: items[1]?.seq ?? 0,
      });
      expect(after.map((i) => i.uniqueKey)).toEqual(['k2', 'k3', 'k4']);
      const page = await store().collectedItems.list(tenantId, taskId, {
        afterSeq: items[1]?.seq ?? 0,
        type: 'company',
        limit: 1,
      });
      expect(page.map((i) => i.uniqueKey)).toEqual(['k2']);

      expect(await store().collectedItems.countByType(tenantId, taskId)).toEqual({
        job: 3,
        company: 2,
      });
      expect(await store().collectedItems.countByType(tenantId, uniq('task'))).toEqual({});
      expect(await store().collectedItems.list(tenantId, uniq('task'))).toEqual([]);
    });
  });
}
