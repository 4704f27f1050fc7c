// Extractions, extraction strategies (docs/specs.md, "extraction overhaul") and streaming collected
// items.
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
    const base = {
      domain: 'shop.test',
      urlPattern: 'https://shop.test/p/*',
      cssSelector: null,
      outputSchema: schema,
      schemaHash: 'h1',
      queryTemplate: 'title and price',
    };

    it('inserts with zero counts and no replay, and reads it back', async () => {
      const tenantId = await newTenant(store());
      const now = isoAt(Date.now());
      const strategy = await store().extractionStrategies.upsert(tenantId, base, now);
      expect(strategy).toEqual({
        ...base,
        id: strategy.id,
        tenantId,
        replay: null,
        successCount: 0,
        failureCount: 0,
        lastUsed: now,
        createdAt: now,
        updatedAt: now,
      });
      expect(await store().extractionStrategies.get(tenantId, strategy.id)).toEqual(strategy);
      expect(await store().extractionStrategies.get(tenantId, uniq('missing'))).toBeNull();

      const replay = { rows: 'li.product', fields: { title: 'h2', price: '.price' }, v: [1, null] };
      const withReplay = await store().extractionStrategies.upsert(tenantId, {
        ...base,
        urlPattern: 'https://shop.test/q/*',
        cssSelector: '#results',
        replay,
      });
      expect(withReplay).toMatchObject({ cssSelector: '#results', replay, successCount: 0 });
      expectIso(withReplay.createdAt);
      expect(await store().extractionStrategies.get(tenantId, withReplay.id)).toEqual(withReplay);
    });

    it('upserts on (urlPattern, schemaHash, cssSelector), keeping id, counts and createdAt', async () => {
      const tenantId = await newTenant(store());
      const start = Date.now();
      const first = await store().extractionStrategies.upsert(tenantId, base, isoAt(start));
      await store().extractionStrategies.recordResult(tenantId, first.id, true, isoAt(start + 1));
      await store().extractionStrategies.recordResult(tenantId, first.id, false, isoAt(start + 2));

      const later = isoAt(start + 1000);
      const changed = {
        ...base,
        domain: 'www.shop.test',
        outputSchema: { type: 'array', items: schema },
        queryTemplate: 'every product',
      };
      const replaced = await store().extractionStrategies.upsert(tenantId, changed, later);
      expect(replaced).toEqual({
        ...changed,
        id: first.id,
        tenantId,
        replay: null,
        successCount: 1,
        failureCount: 1,
        lastUsed: later,
        createdAt: first.createdAt,
        updatedAt: later,
      });
      expect(await store().extractionStrategies.get(tenantId, first.id)).toEqual(replaced);

      // Any other part of the key is another strategy.
      const others = [
        { ...base, schemaHash: 'h2' },
        { ...base, urlPattern: 'https://shop.test/other/*' },
        { ...base, cssSelector: '#main' },
        { ...base, cssSelector: '' },
      ];
      const ids = new Set([first.id]);
      for (const input of others) {
        ids.add((await store().extractionStrategies.upsert(tenantId, input)).id);
      }
      expect(ids.size).toBe(others.length + 1);
      // …and each of them is found again by its own key, the null selector included.
      for (const input of [base, ...others]) {
        const again = await store().extractionStrategies.upsert(tenantId, input);
        expect(ids.has(again.id)).toBe(true);
        expect(again.cssSelector).toBe(input.cssSelector);
      }
      expect((await store().extractionStrategies.upsert(tenantId, base)).id).toBe(first.id);
    });

    it('keeps the replay when an upsert omits it and replaces it when one is given', async () => {
      const tenantId = await newTenant(store());
      const recipe = { rows: 'tr', fields: { title: 'td:nth-child(1)' } };
      const first = await store().extractionStrategies.upsert(tenantId, {
        ...base,
        cssSelector: 'table',
        replay: recipe,
      });
      const kept = await store().extractionStrategies.upsert(tenantId, {
        ...base,
        cssSelector: 'table',
        queryTemplate: 'relearned',
      });
      expect(kept).toMatchObject({ id: first.id, replay: recipe, queryTemplate: 'relearned' });

      const next = { rows: 'tbody tr', fields: { title: 'th' } };
      const replaced = await store().extractionStrategies.upsert(tenantId, {
        ...base,
        cssSelector: 'table',
        replay: next,
      });
      expect(replaced).toMatchObject({ id: first.id, replay: next });
      const cleared = await store().extractionStrategies.upsert(tenantId, {
        ...base,
        cssSelector: 'table',
        replay: null,
      });
      expect(cleared).toMatchObject({ id: first.id, replay: null });
      expect(await store().extractionStrategies.get(tenantId, first.id)).toEqual(cleared);
    });

    it('makes one strategy of concurrent upserts of the same key', async () => {
      const tenantId = await newTenant(store());
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store().extractionStrategies.upsert(tenantId, { ...base, queryTemplate: `q${i}` }),
        ),
      );
      expect(new Set(results.map((s) => s.id)).size).toBe(1);
      expect(await store().extractionStrategies.listByDomain(tenantId, base.domain)).toHaveLength(
        1,
      );
    });

    it('lists a domain most recently used first, with a limit', async () => {
      const tenantId = await newTenant(store());
      const start = Date.now();
      const made = [];
      for (let i = 0; i < 4; i += 1) {
        made.push(
          await store().extractionStrategies.upsert(
            tenantId,
            { ...base, urlPattern: `https://shop.test/${i}/*` },
            isoAt(start + i),
          ),
        );
      }
      await store().extractionStrategies.upsert(
        tenantId,
        { ...base, domain: 'elsewhere.test', urlPattern: 'https://elsewhere.test/*' },
        isoAt(start + 10),
      );
      // Using the oldest one makes it the most recent.
      const used = await store().extractionStrategies.recordResult(
        tenantId,
        made[0]?.id ?? '',
        true,
        isoAt(start + 20),
      );
      const listed = await store().extractionStrategies.listByDomain(tenantId, 'shop.test');
      expect(listed.map((s) => s.id)).toEqual(
        [made[0], made[3], made[2], made[1]].map((s) => s?.id),
      );
      expect(listed[0]).toEqual(used);
      const two = await store().extractionStrategies.listByDomain(tenantId, 'shop.test', {
        limit: 2,
      });
      expect(two.map((s) => s.id)).toEqual([made[0]?.id, made[3]?.id]);
      const elsewhere = await store().extractionStrategies.listByDomain(tenantId, 'elsewhere.test');
      expect(elsewhere.map((s) => s.domain)).toEqual(['elsewhere.test']);
      expect(await store().extractionStrategies.listByDomain(tenantId, 'none.test')).toEqual([]);
    });

    it('records results, sets the replay and deletes', async () => {
      const tenantId = await newTenant(store());
      const start = Date.now();
      const strategy = await store().extractionStrategies.upsert(tenantId, base, isoAt(start));
      const at = isoAt(start + 5000);
      const failed = await store().extractionStrategies.recordResult(
        tenantId,
        strategy.id,
        false,
        at,
      );
      expect(failed).toMatchObject({
        successCount: 0,
        failureCount: 1,
        lastUsed: at,
        updatedAt: at,
        createdAt: strategy.createdAt,
      });
      const ok = await store().extractionStrategies.recordResult(tenantId, strategy.id, true);
      expect(ok).toMatchObject({ successCount: 1, failureCount: 1 });
      expect(Date.parse(ok?.lastUsed ?? '')).toBeGreaterThanOrEqual(start);
      expect(
        await store().extractionStrategies.recordResult(tenantId, uniq('missing'), true),
      ).toBeNull();

      const recipe = { rows: '.card', fields: { title: '.name' } };
      const replayAt = isoAt(start + 9000);
      const learned = await store().extractionStrategies.setReplay(
        tenantId,
        strategy.id,
        recipe,
        replayAt,
      );
      // Learning a recipe is not a use: lastUsed and the counts stay.
      expect(learned).toEqual({ ...ok, replay: recipe, updatedAt: replayAt });
      expect(await store().extractionStrategies.get(tenantId, strategy.id)).toEqual(learned);
      const forgotten = await store().extractionStrategies.setReplay(tenantId, strategy.id, null);
      expect(forgotten).toMatchObject({ replay: null, successCount: 1, failureCount: 1 });
      expect(
        await store().extractionStrategies.setReplay(tenantId, uniq('missing'), recipe),
      ).toBeNull();

      expect(await store().extractionStrategies.delete(tenantId, strategy.id)).toBe(true);
      expect(await store().extractionStrategies.get(tenantId, strategy.id)).toBeNull();
      expect(await store().extractionStrategies.listByDomain(tenantId, base.domain)).toEqual([]);
      expect(await store().extractionStrategies.delete(tenantId, strategy.id)).toBe(false);
    });
  });

  describe('extractionStrategies: recipe lists', () => {
    const store = useStore(makeStore);
    const base = {
      domain: 'shop.test',
      urlPattern: 'https://shop.test/list*',
      cssSelector: null,
      outputSchema: schema,
      schemaHash: 'h1',
      queryTemplate: 'title and price',
    };
    const recipe = (id: string) => ({ id, recipe: { container: `.${id}`, fields: { a: 'h2' } } });
    const listed = (replay: Record<string, unknown> | null | undefined) =>
      (replay?.['recipes'] as { id: string; replays: number; used: string }[] | undefined) ?? [];

    it('adds recipes (newest used first), keeps the most recently used, counts and retires one', async () => {
      const tenantId = await newTenant(store());
      const start = Date.now();
      const strategy = await store().extractionStrategies.upsert(tenantId, {
        ...base,
        // An older single-recipe replay is replaced by a list.
        replay: { version: 1, kind: 'list', replays: 4 },
      });
      const a = await store().extractionStrategies.addRecipe(
        tenantId,
        strategy.id,
        { ...recipe('a'), replays: 9 },
        2,
        isoAt(start),
      );
      expect(a?.replay).toEqual({
        recipes: [{ ...recipe('a'), replays: 0, used: isoAt(start) }],
      });
      expect(a).toMatchObject({ lastUsed: strategy.lastUsed, updatedAt: isoAt(start) });
      await store().extractionStrategies.addRecipe(
        tenantId,
        strategy.id,
        recipe('b'),
        2,
        isoAt(start + 1),
      );
      // Using a makes b the least recently used: adding c drops b.
      const counted = await store().extractionStrategies.countRecipeReplay(
        tenantId,
        strategy.id,
        'a',
        isoAt(start + 2),
      );
      expect(listed(counted?.replay).find((r) => r.id === 'a')).toEqual({
        ...recipe('a'),
        replays: 1,
        used: isoAt(start + 2),
      });
      const three = await store().extractionStrategies.addRecipe(
        tenantId,
        strategy.id,
        recipe('c'),
        2,
        isoAt(start + 3),
      );
      expect(listed(three?.replay).map((r) => [r.id, r.replays])).toEqual([
        ['c', 0],
        ['a', 1],
      ]);
      // Relearning a recipe it has puts it first again, its count from 0.
      const again = await store().extractionStrategies.addRecipe(
        tenantId,
        strategy.id,
        recipe('a'),
        2,
        isoAt(start + 4),
      );
      expect(listed(again?.replay).map((r) => [r.id, r.replays])).toEqual([
        ['a', 0],
        ['c', 0],
      ]);

      const retired = await store().extractionStrategies.retireRecipe(
        tenantId,
        strategy.id,
        'c',
        isoAt(start + 5),
      );
      expect(listed(retired?.replay).map((r) => r.id)).toEqual(['a']);
      expect(retired).toMatchObject({ successCount: 0, updatedAt: isoAt(start + 5) });
      expect(await store().extractionStrategies.get(tenantId, strategy.id)).toEqual(retired);
      // A recipe the list does not hold, or no such strategy: null, nothing written.
      expect(
        await store().extractionStrategies.retireRecipe(tenantId, strategy.id, 'c'),
      ).toBeNull();
      expect(
        await store().extractionStrategies.countRecipeReplay(tenantId, strategy.id, 'zz'),
      ).toBeNull();
      expect(
        await store().extractionStrategies.addRecipe(tenantId, uniq('missing'), recipe('a'), 2),
      ).toBeNull();
      expect(
        await store().extractionStrategies.countRecipeReplay(tenantId, uniq('missing'), 'a'),
      ).toBeNull();
      expect(await store().extractionStrategies.get(tenantId, strategy.id)).toEqual(retired);
      const last = await store().extractionStrategies.retireRecipe(tenantId, strategy.id, 'a');
      expect(last?.replay).toEqual({ recipes: [] });
    });

    it('counts every concurrent replay, and a concurrent retire stays retired', async () => {
      const tenantId = await newTenant(store());
      const strategy = await store().extractionStrategies.upsert(tenantId, base);
      for (const id of ['a', 'b']) {
        await store().extractionStrategies.addRecipe(tenantId, strategy.id, recipe(id), 4);
      }
      await Promise.all([
        ...Array.from({ length: 10 }, () =>
          store().extractionStrategies.countRecipeReplay(tenantId, strategy.id, 'a'),
        ),
        store().extractionStrategies.retireRecipe(tenantId, strategy.id, 'b'),
        ...Array.from({ length: 5 }, () =>
          store().extractionStrategies.countRecipeReplay(tenantId, strategy.id, 'b'),
        ),
      ]);
      const after = await store().extractionStrategies.get(tenantId, strategy.id);
      expect(listed(after?.replay).map((r) => [r.id, r.replays])).toEqual([['a', 10]]);
    });

    it('moves a strategy to another URL pattern only from the one it has, and never onto a taken key', async () => {
      const tenantId = await newTenant(store());
      const start = Date.now();
      const shoes = await store().extractionStrategies.upsert(
        tenantId,
        { ...base, urlPattern: 'https://shop.test/shoes/list*' },
        isoAt(start),
      );
      const moved = await store().extractionStrategies.setUrlPattern(
        tenantId,
        shoes.id,
        { from: 'https://shop.test/shoes/list*', to: 'https://shop.test/*/list*' },
        isoAt(start + 1),
      );
      expect(moved).toEqual({
        ...shoes,
        urlPattern: 'https://shop.test/*/list*',
        updatedAt: isoAt(start + 1),
      });
      // A second move from the pattern it had before: it has another now.
      expect(
        await store().extractionStrategies.setUrlPattern(tenantId, shoes.id, {
          from: 'https://shop.test/shoes/list*',
          to: 'https://shop.test/**',
        }),
      ).toBeNull();
      const hats = await store().extractionStrategies.upsert(tenantId, {
        ...base,
        urlPattern: 'https://shop.test/hats/list*',
      });
      expect(
        await store().extractionStrategies.setUrlPattern(tenantId, hats.id, {
          from: 'https://shop.test/hats/list*',
          to: 'https://shop.test/*/list*',
        }),
      ).toBeNull();
      expect(await store().extractionStrategies.get(tenantId, hats.id)).toEqual(hats);
      expect(
        await store().extractionStrategies.setUrlPattern(tenantId, uniq('missing'), {
          from: 'x',
          to: 'y',
        }),
      ).toBeNull();
      // The upsert key follows the move.
      const found = await store().extractionStrategies.upsert(tenantId, {
        ...base,
        urlPattern: 'https://shop.test/*/list*',
      });
      expect(found.id).toBe(shoes.id);
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
