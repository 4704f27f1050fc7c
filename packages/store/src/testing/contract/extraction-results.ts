// Extraction results (docs/specs.md, "extraction overhaul"): one stored extraction of one page,
// read back per task oldest first, optionally narrowed to one aggregate (extractionId).
import type { ContentStats } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type { NewExtractionResult } from '../../port';
import { isoAt, newTenant, uniq, useStore, type MakeStore } from './harness';

const stats = (overrides: Partial<ContentStats> = {}): ContentStats => ({
  sourceChars: 12_000,
  markdownChars: 4_000,
  chunks: 2,
  failedChunks: 0,
  structuralContext: ['## Products (rows 1-20 of 40)', '## Products (rows 21-40 of 40)'],
  items: 2,
  modelCalls: 2,
  inputTokens: 1_500,
  outputTokens: 300,
  costMicroUsd: 420,
  durationMs: 900,
  ...overrides,
});

/** A complete model result; tests override what they check. */
export function resultInput(overrides: Partial<NewExtractionResult> = {}): NewExtractionResult {
  return {
    taskId: 'task-1',
    extractionId: 'strategy-1',
    query: 'every product with name and price',
    sourceUrl: 'https://shop.test/catalog?page=1',
    data: [
      { name: 'Shoe', price: 59.9 },
      { name: 'Sock', price: null },
    ],
    schemaUsed: { type: 'array', items: { type: 'object' } },
    isPartial: false,
    method: 'model',
    contentStats: stats(),
    warnings: [],
    errors: [],
    ...overrides,
  };
}

export function extractionResultsContract(makeStore: MakeStore): void {
  describe('extractionResults', () => {
    const store = useStore(makeStore);

    it('round-trips every field, whatever the shape of the data', async () => {
      const tenantId = await newTenant(store());
      const now = isoAt(Date.now());
      const input = resultInput({ taskId: uniq('task') });
      const result = await store().extractionResults.create(tenantId, input, now);
      expect(result).toEqual({ ...input, id: result.id, tenantId, createdAt: now });
      expect(await store().extractionResults.get(tenantId, result.id)).toEqual(result);
      expect(await store().extractionResults.get(tenantId, uniq('missing'))).toBeNull();

      // A partial free-text replay outside any task, with warnings and errors, and a chosen id.
      const text = resultInput({
        id: uniq('result'),
        taskId: null,
        extractionId: null,
        sourceUrl: null,
        data: 'Two products: Shoe (59.90) and Sock.',
        schemaUsed: null,
        isPartial: true,
        method: 'replay',
        contentStats: stats({
          markdownChars: 0,
          items: null,
          modelCalls: 0,
          structuralContext: [],
        }),
        warnings: ['anyOf is not supported: data is free text'],
        errors: [
          {
            kind: 'timeout',
            message: 'chunk 1 timed out',
            chunkIndex: 1,
            retries: 2,
            retriesExhausted: true,
            fallbackUsed: false,
          },
        ],
      });
      const partial = await store().extractionResults.create(tenantId, text);
      expect(partial).toMatchObject({ ...text, tenantId });
      expect(await store().extractionResults.get(tenantId, text.id ?? '')).toEqual(partial);

      const object = resultInput({ data: { title: 'Catalog', nested: { empty: {}, list: [] } } });
      const created = await store().extractionResults.create(tenantId, object);
      expect((await store().extractionResults.get(tenantId, created.id))?.data).toEqual(
        object.data,
      );
    });

    it('stores a large result whole and normalises the time it is given', async () => {
      const tenantId = await newTenant(store());
      const data = Array.from({ length: 3_000 }, (_, i) => ({
        name: `Product ${i} ${'x'.repeat(80)}`,
        price: i / 100,
        tags: ['a', 'b'],
      }));
      expect(JSON.stringify(data).length).toBeGreaterThan(300_000);
      const result = await store().extractionResults.create(
        tenantId,
        resultInput({ data, contentStats: stats({ items: data.length }) }),
        '2025-06-01T12:00:00.000+02:00',
      );
      expect(result.createdAt).toBe('2025-06-01T10:00:00.000Z');
      const read = await store().extractionResults.get(tenantId, result.id);
      expect(read?.data).toEqual(data);
      expect(read?.contentStats.items).toBe(3_000);
    });

    it('lists a task oldest first (createdAt, then id), by extractionId and with a limit', async () => {
      const tenantId = await newTenant(store());
      const taskId = uniq('task');
      const start = Date.now();
      const create = (id: string, extractionId: string | null, ms: number) =>
        store().extractionResults.create(
          tenantId,
          resultInput({ id, taskId, extractionId, sourceUrl: `https://shop.test/${id}` }),
          isoAt(start + ms),
        );
      // Written out of order: the list follows createdAt, not insertion; ties go by id.
      const c = await create(uniq('c'), 'list', 30);
      const a = await create(uniq('a'), 'list', 10);
      const detail = await create(uniq('d'), 'detail', 20);
      // Same createdAt as `a`; "a-…" sorts before "b-…".
      const tie = await create(`b-${a.id}`, 'list', 10);
      const first = await create(uniq('first'), 'list', 5);
      const tied = [a, tie];
      // Neither another task's result nor a task-less one (POST /api/extract) is listed.
      await store().extractionResults.create(
        tenantId,
        resultInput({ taskId: uniq('task') }),
        isoAt(start),
      );
      await store().extractionResults.create(
        tenantId,
        resultInput({ taskId: null }),
        isoAt(start + 1),
      );

      const all = await store().extractionResults.listByTask(tenantId, taskId);
      expect(all).toEqual([first, ...tied, detail, c]);
      const list = await store().extractionResults.listByTask(tenantId, taskId, {
        extractionId: 'list',
      });
      expect(list).toEqual([first, ...tied, c]);
      const detailOnly = await store().extractionResults.listByTask(tenantId, taskId, {
        extractionId: 'detail',
      });
      expect(detailOnly).toEqual([detail]);
      const two = await store().extractionResults.listByTask(tenantId, taskId, { limit: 2 });
      expect(two).toEqual([first, tied[0]]);
      const limited = await store().extractionResults.listByTask(tenantId, taskId, {
        extractionId: 'list',
        limit: 3,
      });
      expect(limited).toEqual([first, ...tied]);
      expect(
        await store().extractionResults.listByTask(tenantId, taskId, { extractionId: 'none' }),
      ).toEqual([]);
      expect(await store().extractionResults.listByTask(tenantId, uniq('task'))).toEqual([]);
    });
  });
}
