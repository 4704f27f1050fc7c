// GET /api/tasks/{taskId}/extractions through the real route over a real libSQL store: the
// page results and their aggregate as JSON, the aggregate as CSV, and tenant scoping.
import { ErrorResponse, TaskExtractionsResponse } from '@tandem/contracts';
import {
  catalogPageHtml,
  productListSchema,
  scriptedExtractionLlm,
} from '@tandem/extraction/testing';
import { ExtractionService } from '@tandem/extraction';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../../server/runtime';
import { request, tenantWithKey, testRuntime } from '../../../../../test/harness';
import { GET } from './route';

const PRODUCTS = productListSchema(['name', 'price']);

let runtime: Runtime;
let key: string;
let tenantId: string;
let taskId: string;
let extractionId: string;

const get = (query = '', options: { key?: string; taskId?: string } = {}) =>
  GET.withRuntime(runtime)(
    request(`/api/tasks/${options.taskId ?? taskId}/extractions${query}`, {
      key: options.key ?? key,
    }),
    { params: Promise.resolve({ taskId: options.taskId ?? taskId }) },
  );

beforeEach(async () => {
  runtime = await testRuntime();
  ({ key, tenantId } = await tenantWithKey(runtime.store));
  taskId = (
    await runtime.store.tasks.create(tenantId, {
      userId: 'user-1',
      url: 'https://shop.test/catalog/',
      query: 'Extract every product',
    })
  ).id;
  // The agent's extraction node does this per page; here with the scripted model.
  const service = new ExtractionService({ llm: scriptedExtractionLlm(), store: runtime.store });
  const run = (page: number, first: number, request: Record<string, unknown>) =>
    service.run({
      tenantId,
      taskId,
      context: { tenantId },
      url: `https://shop.test/catalog/?page=${page}`,
      html: catalogPageHtml(first, 3, page),
      request: { query: 'products', ...request },
      applySelector: false,
    });
  const first = await run(1, 0, { outputSchema: PRODUCTS });
  extractionId = first.result.extractionId ?? '';
  // Page 2 repeats the last product of page 1.
  await run(2, 2, { extractionId });
});
afterEach(async () => {
  await runtime.close();
});

describe('GET /api/tasks/{taskId}/extractions', () => {
  it('lists each page result and their aggregate without duplicates', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const body = TaskExtractionsResponse.parse(await res.json());
    expect(body.results.map((r) => r.sourceUrl)).toEqual([
      'https://shop.test/catalog/?page=1',
      'https://shop.test/catalog/?page=2',
    ]);
    expect(body.results.map((r) => r.method)).toEqual(['model', 'replay']);
    expect(body.aggregates).toHaveLength(1);
    expect(body.aggregates[0]).toMatchObject({
      extractionId,
      items: 5,
      pages: 2,
      truncated: false,
    });
    expect(body.aggregates[0]?.summary).toBe(
      `5 unique items from 2 pages, extraction_id=${extractionId}`,
    );
  });

  it('downloads the aggregate as CSV', async () => {
    const res = await get('?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain(`extraction-${extractionId}.csv`);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('name,price');
    expect(lines).toHaveLength(6);
  });

  it('asks which one when a task has several, and 404s another tenant’s task', async () => {
    const service = new ExtractionService({ llm: scriptedExtractionLlm(), store: runtime.store });
    await service.run({
      tenantId,
      taskId,
      context: { tenantId },
      url: 'https://shop.test/about',
      markdown: 'About us: a shop.',
      request: { query: 'what is this shop?' },
      applySelector: false,
    });
    const several = await get('?format=csv');
    expect(several.status).toBe(400);
    expect(ErrorResponse.parse(await several.json()).error.message).toMatch(
      /pick one with extractionId/,
    );
    expect((await get(`?format=csv&extractionId=${extractionId}`)).status).toBe(200);

    const other = await tenantWithKey(runtime.store);
    const foreign = await get('', { key: other.key });
    expect(foreign.status).toBe(404);
  });
});
