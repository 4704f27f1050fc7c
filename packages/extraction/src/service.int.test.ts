// The whole extraction over real HTML served on loopback and the real store (libSQL), with the
// scripted model reading only its prompt: the spec's schema, strategy-cache and aggregation tests
// end to end (docs/specs.md, "extraction overhaul"), and the replay of a learned strategy with zero
// model calls.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExtractionInputError, keptSelector } from './plan';
import { inlinePageReader, type PageReader } from './page-reader';
import { ExtractionService } from './service';
import {
  catalogPageHtml,
  priceTableHtml,
  productListSchema,
  scriptedExtractionLlm,
  testProduct,
  type ScriptedExtractionLlm,
} from './testing';

const PRODUCTS = productListSchema();

const PAGES: Record<string, string> = {
  '/catalog/?page=1': catalogPageHtml(0, 40, 1),
  '/catalog/?page=2': catalogPageHtml(40, 40, 2),
  // The shop redesigned its cards: the learned selectors no longer fit.
  '/catalog/?page=3': catalogPageHtml(80, 40, 3)
    .replace(/<article class="product-card"/g, '<div class="tile"')
    .replace(/<\/article>/g, '</div>')
    .replace(/class="product-name"/g, 'class="title"'),
  '/prices/': priceTableHtml(500),
  '/prices/2': priceTableHtml(500, 500),
  '/two-lists/': `<html><body><div id="other">${catalogPageHtml(200, 5, 9)}</div><div id="target">${catalogPageHtml(300, 3, 9)}</div></body></html>`,
};

let server: Server;
let base: string;
let store: Store;
let llm: ScriptedExtractionLlm;
let service: ExtractionService;

beforeAll(async () => {
  server = createServer((req, res) => {
    const html = PAGES[req.url ?? ''];
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  llm = scriptedExtractionLlm();
  service = new ExtractionService({ llm, store, sleep: async () => {} });
});

async function extractFrom(
  path: string,
  request: Parameters<ExtractionService['run']>[0]['request'],
  options: { taskId?: string | null; tenantId?: string } = {},
) {
  const url = `${base}${path}`;
  const html = await (await fetch(url)).text();
  return service.run({
    tenantId: options.tenantId ?? 't1',
    taskId: options.taskId === undefined ? 'task-1' : options.taskId,
    context: { tenantId: options.tenantId ?? 't1' },
    url,
    html,
    request,
    applySelector: true,
  });
}

const products = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const p = testProduct(from + i);
    return { name: p.name, price: p.price, rating: p.rating };
  });

describe('ExtractionService', () => {
  it('extracts schema-valid products, stores the result and registers a strategy', async () => {
    const out = await extractFrom('/catalog/?page=1', {
      query: 'every product with name, price and rating',
      outputSchema: PRODUCTS,
    });
    expect(out.result.data).toEqual(products(0, 40));
    expect(out.result).toMatchObject({ method: 'model', isPartial: false, schemaUsed: PRODUCTS });
    expect(out.result.contentStats).toMatchObject({ items: 40, chunks: 1, modelCalls: 1 });
    expect(llm.calls).toHaveLength(1);
    // The page is data in the prompt; nav, footer, scripts and buttons are not extracted.
    expect(llm.calls[0]?.prompt).toContain('<page_content untrusted="true">');
    expect(llm.calls[0]?.prompt).not.toContain('window.tracking');
    expect(llm.calls[0]?.prompt).not.toContain('Add to cart');

    const strategy = await store.extractionStrategies.get('t1', out.result.extractionId ?? '');
    expect(strategy).toMatchObject({
      urlPattern: `${base}/catalog/?**`,
      cssSelector: null,
      outputSchema: PRODUCTS,
      successCount: 1,
    });
    expect(strategy?.replay).not.toBeNull();
    expect(await store.extractionResults.get('t1', out.record.id)).toMatchObject({
      taskId: 'task-1',
      extractionId: strategy?.id,
      data: products(0, 40),
    });
    expect(out.summary).toMatch(/Extracted 40 items with 1 model call\./);
    expect(out.summary).toContain(`40 unique items from 1 page, extraction_id=${strategy?.id}`);
  });

  it('replays the strategy on the next page, cross-checks its first replay, and aggregates', async () => {
    const first = await extractFrom('/catalog/?page=1', {
      query: 'products',
      outputSchema: PRODUCTS,
    });
    const id = first.result.extractionId as string;
    // The recipe's first replay is cross-checked: one small model call on a slice of the page.
    const second = await extractFrom('/catalog/?page=2', { extractionId: id });
    expect(llm.calls).toHaveLength(2);
    expect(llm.calls[1]?.actionType).toBe('EXTRACTION_CHECK');
    expect(second.result).toMatchObject({ method: 'replay', extractionId: id, isPartial: false });
    expect(second.result.data).toEqual(products(40, 40));
    expect(second.result.replay).toMatchObject({ checked: true });
    expect(second.result.replay?.recipeId).toMatch(new RegExp(`^${id}:[0-9a-f]{8}$`));
    expect(second.result.replay?.evidence).toEqual(
      expect.arrayContaining(['3 items re-read', expect.stringMatching(/^the model agreed/)]),
    );
    expect(second.result.contentStats.modelCalls).toBe(1);
    expect(second.result.contentStats.inputTokens).toBeGreaterThan(0);
    expect(second.result.contentStats.inputTokens).toBeLessThan(
      first.result.contentStats.inputTokens / 2,
    );
    expect(second.summary).toContain('replayed (checked');
    expect(second.aggregate?.summary).toBe(`80 unique items from 2 pages, extraction_id=${id}`);
    expect((await store.extractionStrategies.get('t1', id))?.successCount).toBe(2);
    // The next replays of the recipe, until the Nth, cost no model token.
    const again = await extractFrom('/catalog/?page=2', { extractionId: id }, { taskId: 'task-2' });
    expect(llm.calls).toHaveLength(2);
    expect(again.result.method).toBe('replay');
    expect(again.result.replay).toMatchObject({ checked: false });
    expect(again.result.contentStats).toMatchObject({
      modelCalls: 0,
      inputTokens: 0,
      markdownChars: 0,
    });
    expect(again.summary).toContain('replayed (0 model tokens)');
  });

  it('falls back to the model when the page no longer fits the selectors, and relearns', async () => {
    const first = await extractFrom('/catalog/?page=1', {
      query: 'products',
      outputSchema: PRODUCTS,
    });
    const id = first.result.extractionId as string;
    const before = (await store.extractionStrategies.get('t1', id))?.replay;
    const third = await extractFrom('/catalog/?page=3', { extractionId: id });
    expect(third.result.method).toBe('model');
    expect(third.result.data).toEqual(products(80, 40));
    expect(third.result.warnings.join(' ')).toMatch(/selectors did not fit this page/);
    const after = await store.extractionStrategies.get('t1', id);
    expect(after).toMatchObject({ failureCount: 1, successCount: 2 });
    expect(after?.replay).not.toEqual(before);
    expect(third.aggregate?.summary).toBe(`80 unique items from 2 pages, extraction_id=${id}`);
  });

  it('chunks a 500-row table, reads every row, then replays it on a similar table', async () => {
    const rows = (offset: number) =>
      Array.from({ length: 500 }, (_, i) => {
        const p = testProduct(offset + i);
        return { name: p.name, price: p.price };
      });
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, price: { type: 'number' } },
        required: ['name', 'price'],
      },
    };
    const out = await extractFrom('/prices/', { query: 'every row', outputSchema: schema });
    expect(out.result.contentStats.chunks).toBeGreaterThan(1);
    expect(out.result.data).toEqual(rows(0));
    expect(llm.calls).toHaveLength(out.result.contentStats.chunks);
    const next = await extractFrom('/prices/2', {
      extractionId: out.result.extractionId as string,
    });
    expect(next.result.method).toBe('replay');
    expect(next.result.data).toEqual(rows(500));
  });

  it('narrows the content to the cssSelector', async () => {
    const out = await extractFrom('/two-lists/', {
      query: 'products',
      outputSchema: PRODUCTS,
      cssSelector: '#target',
    });
    expect(out.result.data).toEqual(products(300, 3));
    expect(llm.calls[0]?.prompt).not.toContain(testProduct(200).name);
    const strategy = await store.extractionStrategies.get('t1', out.result.extractionId as string);
    expect(strategy?.cssSelector).toBe('#target');
    const missing = await extractFrom('/two-lists/', {
      query: 'products',
      outputSchema: PRODUCTS,
      cssSelector: '#nowhere',
    });
    expect(missing.result.warnings[0]).toMatch(/matched no element; the whole page was used/);
  });

  it('takes the free-text path for no schema, and for an unsupported one with a warning', async () => {
    const text = await extractFrom('/catalog/?page=1', { query: 'what is this page about?' });
    expect(typeof text.result.data).toBe('string');
    expect(text.result).toMatchObject({ schemaUsed: null, extractionId: null, warnings: [] });
    const unsupported = await extractFrom('/catalog/?page=1', {
      query: 'products',
      outputSchema: { anyOf: [PRODUCTS, { type: 'string' }] },
    });
    expect(typeof unsupported.result.data).toBe('string');
    expect(unsupported.result.warnings[0]).toMatch(/anyOf at \(root\).*free text/);
    expect(await store.extractionStrategies.listByDomain('t1', new URL(base).host)).toEqual([]);
  });

  it('reuses a matching strategy without an id, in a later task', async () => {
    await extractFrom('/catalog/?page=1', { query: 'products', outputSchema: PRODUCTS });
    const later = await extractFrom(
      '/catalog/?page=2',
      { query: 'products again', outputSchema: PRODUCTS },
      { taskId: 'task-2' },
    );
    expect(later.result.method).toBe('replay');
    // The one call besides the first page's is the cross-check of the recipe's first replay.
    expect(llm.calls.map((call) => call.actionType)).toEqual(['EXTRACTION', 'EXTRACTION_CHECK']);
    expect(later.aggregate?.summary).toMatch(/^40 unique items from 1 page/);
  });

  it('keeps strategies per tenant, and refuses an unknown id without a query', async () => {
    const first = await extractFrom('/catalog/?page=1', {
      query: 'products',
      outputSchema: PRODUCTS,
    });
    const id = first.result.extractionId as string;
    await expect(
      extractFrom('/catalog/?page=2', { extractionId: id }, { tenantId: 't2' }),
    ).rejects.toThrow(ExtractionInputError);
    const other = await extractFrom(
      '/catalog/?page=2',
      { extractionId: id, query: 'products', outputSchema: PRODUCTS },
      { tenantId: 't2' },
    );
    expect(other.result.method).toBe('model');
    expect(other.result.warnings[0]).toMatch(/is not known/);
    expect(other.result.extractionId).not.toBe(id);
  });
});

describe('property names that are also Object.prototype’s', () => {
  // A schema's property names and a model's answer are input: `constructor`, `toString`,
  // `valueOf`, `hasOwnProperty` and `__proto__` are fields like any other (once a 502).
  const KEYS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty'] as const;
  const schema = {
    type: 'array',
    items: {
      type: 'object',
      properties: Object.fromEntries(KEYS.map((key) => [key, { type: ['string', 'null'] }])),
      required: [...KEYS],
    },
  };
  const rows = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => KEYS.map((key) => `${key}-${from + i}`));
  const page = (from: number, count: number) =>
    `<html><body><table><thead><tr>${KEYS.map((k) => `<th>${k}</th>`).join('')}</tr></thead><tbody>${rows(
      from,
      count,
    )
      .map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`)
      .join('')}</tbody></table></body></html>`;
  const answer = (from: number, count: number, nullKey?: string) =>
    rows(from, count).map((cells) =>
      Object.fromEntries(KEYS.map((key, i) => [key, key === nullKey ? null : cells[i]])),
    );

  it('keeps the model’s answer exactly, learns selectors and replays them', async () => {
    const expected = answer(0, 4);
    // The first call reads page 1; the second is the cross-check of page 2's replay.
    const scripted = scriptedExtractionLlm({
      fault: (call) => ({ answer: { data: call.index === 0 ? expected : answer(4, 3) } }),
    });
    const keyed = new ExtractionService({ llm: scripted, store, sleep: async () => {} });
    const run = (html: string, url: string) =>
      keyed.run({
        tenantId: 't1',
        taskId: 'task-1',
        context: { tenantId: 't1' },
        url,
        html,
        request: { query: 'rows', outputSchema: schema },
        applySelector: true,
      });
    const first = await run(page(0, 4), 'http://keys.test/list?page=1');
    expect(first.result.errors).toEqual([]);
    expect(first.result.method).toBe('model');
    expect(first.result.data).toEqual(expected);
    const second = await run(page(4, 3), 'http://keys.test/list?page=2');
    expect(first.result.warnings).toEqual([]);
    expect(second.result.warnings).toEqual([]);
    expect(second.result.method).toBe('replay');
    expect(second.result.replay?.checked).toBe(true);
    expect(second.result.data).toEqual(answer(4, 3));
  });

  it('keeps a null answered for `constructor` a null', async () => {
    const [expected] = answer(0, 1, 'constructor');
    const scripted = scriptedExtractionLlm({ fault: () => ({ answer: { data: expected } }) });
    const keyed = new ExtractionService({ llm: scripted, store, sleep: async () => {} });
    const out = await keyed.run({
      tenantId: 't1',
      taskId: null,
      context: { tenantId: 't1' },
      url: null,
      markdown: 'rows',
      request: {
        query: 'one row',
        outputSchema: { type: 'object', properties: schema.items.properties },
      },
      applySelector: true,
    });
    expect(out.result.data).toEqual(expected);
  });

  it('keeps an answer that leaves out an optional field named `constructor`', async () => {
    const answer: unknown[] = JSON.parse(
      '[{"name":"Oak chair"},{"name":"Pine desk","constructor":{"toString":"x"}}]',
    );
    const scripted = scriptedExtractionLlm({ fault: () => ({ answer: { data: answer } }) });
    const keyed = new ExtractionService({ llm: scripted, store, sleep: async () => {} });
    const out = await keyed.run({
      tenantId: 't1',
      taskId: null,
      context: { tenantId: 't1' },
      url: null,
      markdown: '- Oak chair\n- Pine desk',
      request: {
        query: 'products',
        outputSchema: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              constructor: { type: 'object', properties: { toString: { type: 'string' } } },
            },
            required: ['name'],
          },
        },
      },
      applySelector: true,
    });
    expect(out.result.errors).toEqual([]);
    expect(out.result.data).toEqual(answer);
  });

  it('says a property named `__proto__` cannot be kept, instead of dropping it unsaid', async () => {
    const out = await service.run({
      tenantId: 't1',
      taskId: null,
      context: { tenantId: 't1' },
      url: null,
      markdown: 'rows',
      request: {
        query: 'one row',
        outputSchema: JSON.parse(
          '{"type":"object","properties":{"__proto__":{"type":"string"},"name":{"type":"string"}}}',
        ) as Record<string, unknown>,
      },
      applySelector: true,
    });
    expect(out.result.schemaUsed).toBeNull();
    expect(out.result.warnings.join(' ')).toContain('a property named "__proto__" at (root)');
  });
});

describe('a strategy learned from items read some other way (a collecting task)', () => {
  const items = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => {
      const p = testProduct(from + i);
      return { name: p.name, price: p.price, rating: p.rating };
    });
  const page = (n: number) => ({ tenantId: 't1', url: `${base}/catalog/?page=${n}` });
  const QUERY = 'collected product items';
  /** Learns from `data` as the items read off page 1 (six products). */
  const learnPage1 = (on: ExtractionService, data: unknown) =>
    on.learnData({
      ...page(1),
      html: catalogPageHtml(0, 6, 1),
      query: QUERY,
      schema: PRODUCTS,
      data,
    });

  it('is kept only when its selectors read the items back, from one parse of the page', async () => {
    // Count the parses: each read or learn of the reader parses the page once.
    const parses: string[] = [];
    const pages: PageReader = {
      read: (request) => (parses.push('read'), inlinePageReader.read(request)),
      learn: (request) => (parses.push('learn'), inlinePageReader.learn(request)),
    };
    const counted = new ExtractionService({ llm, store, sleep: async () => {}, pages });
    const learned = await learnPage1(counted, items(0, 6));
    expect(learned.strategy).not.toBeNull();
    expect(learned.strategy && learned.data).toEqual(items(0, 6));
    expect(parses).toEqual(['learn']);
    const found = await counted.findData('t1', page(2).url, QUERY);
    expect(found?.id).toBe(learned.strategy?.id);
    if (!found) return;
    const replayed = await counted.replayData({
      ...page(2),
      html: catalogPageHtml(6, 6, 2),
      strategy: found,
    });
    expect(replayed).toMatchObject({ ok: true, data: items(6, 6) });
    expect(llm.calls).toHaveLength(0);
  });

  it('leaves no strategy behind when the items are not what the page shows', async () => {
    const learned = await learnPage1(service, items(100, 6));
    expect(learned).toMatchObject({ strategy: null, reason: expect.any(String) });
    expect(await service.findData('t1', page(1).url, QUERY)).toBeNull();
  });
});

describe('the scope a strategy keeps', () => {
  it('keeps CSS selectors and xpaths, never an element id of one page', () => {
    expect(keptSelector('#grid')).toBe('#grid');
    expect(keptSelector('/main/section#products')).toBe('/main/section#products');
    for (const id of ['@ref:14', 'ref:14', '14', ' 14 ', '', null, undefined])
      expect(keptSelector(id)).toBeNull();
  });

  it('reads an element id’s scope now, and keeps the whole page for the pages after', async () => {
    // The extension scoped this read to element 14 (the agent's extract: applySelector false).
    const url = `${base}/catalog/?page=1`;
    const request = { query: 'every product', outputSchema: PRODUCTS, cssSelector: '@ref:14' };
    const first = await service.run({
      tenantId: 't1',
      taskId: 'task-1',
      context: { tenantId: 't1' },
      url,
      html: catalogPageHtml(0, 40, 1),
      request,
      applySelector: false,
    });
    const strategy = await store.extractionStrategies.get('t1', first.result.extractionId ?? '');
    expect(strategy).toMatchObject({ cssSelector: null });
    // A later page, read whole: the strategy is found for it and replays with no model call.
    const second = await service.run({
      tenantId: 't1',
      taskId: 'task-2',
      context: { tenantId: 't1' },
      url: `${base}/catalog/?page=2`,
      html: catalogPageHtml(40, 40, 2),
      request: { query: 'every product', outputSchema: PRODUCTS },
      applySelector: false,
    });
    expect(second.result.extractionId).toBe(strategy?.id);
    expect(second.result.method).toBe('replay');
  });
});
