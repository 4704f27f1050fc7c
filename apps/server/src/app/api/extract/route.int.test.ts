// POST /api/extract through the real route: auth, validation, the 413 size limit, the real
// Gemini SDK talking to a loopback Gemini that answers from the prompt's content alone, usage
// billed to the tenant as EXTRACTION, and the strategy replayed on a matching URL.
import { EXTRACTION_LIMITS, ErrorResponse, ExtractionResult } from '@tandem/contracts';
import {
  startFakeHttpServer,
  type FakeHttpServer,
  type RecordedRequest,
} from '@tandem/agent/testing';
import {
  answerFromPrompt,
  catalogPageHtml,
  productListSchema,
  testProduct,
} from '@tandem/extraction/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../server/runtime';
import { request, tenantWithKey, testRuntime } from '../../../test/harness';
import { POST } from './route';

const PRODUCTS = productListSchema();

/** The loopback Gemini: the prompt is the request's last text part. */
function promptOf(r: RecordedRequest): string {
  const body = r.body as { contents?: { parts?: { text?: string }[] }[] };
  return (
    body.contents
      ?.at(-1)
      ?.parts?.map((p) => p.text ?? '')
      .join('') ?? ''
  );
}

let gemini: FakeHttpServer;
let runtime: Runtime;
let key: string;
let tenantId: string;

beforeEach(async () => {
  gemini = await startFakeHttpServer((r) => ({
    body: {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ text: JSON.stringify(answerFromPrompt(promptOf(r))) }],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 900, candidatesTokenCount: 300, totalTokenCount: 1200 },
      modelVersion: 'gemini-2.5-flash',
    },
  }));
  runtime = await testRuntime({
    GEMINI_API_KEY: 'fake-key-for-a-loopback-gemini',
    GEMINI_BASE_URL: gemini.url,
  });
  ({ key, tenantId } = await tenantWithKey(runtime.store));
});
afterEach(async () => {
  await runtime.close();
  await gemini.close();
});

const extract = (body: unknown, options: { key?: string | null; rawBody?: string } = {}) =>
  POST.withRuntime(runtime)(
    request('/api/extract', {
      method: 'POST',
      ...(options.key === null ? {} : { key: options.key ?? key }),
      ...(options.rawBody !== undefined
        ? { rawBody: options.rawBody, headers: { 'content-type': 'application/json' } }
        : { body }),
    }),
  );

const expected = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const p = testProduct(from + i);
    return { name: p.name, price: p.price, rating: p.rating };
  });

describe('POST /api/extract', () => {
  it('extracts schema-valid data, bills EXTRACTION, then replays on a matching URL', async () => {
    const first = await extract({
      html: catalogPageHtml(0, 12, 1),
      url: 'https://shop.test/catalog/?page=1',
      query: 'every product with name, price and rating',
      outputSchema: PRODUCTS,
    });
    expect(first.status).toBe(200);
    const result = ExtractionResult.parse(await first.json());
    expect(result).toMatchObject({ method: 'model', isPartial: false, data: expected(0, 12) });
    expect(gemini.requests).toHaveLength(1);
    // Priced and logged like every LLM call, under its own action type.
    await expect
      .poll(async () => (await runtime.store.tokenUsage.list(tenantId)).map((u) => u.actionType))
      .toEqual(['EXTRACTION']);

    const second = await extract({
      html: catalogPageHtml(12, 12, 2),
      url: 'https://shop.test/catalog/?page=2',
      query: 'every product with name, price and rating',
      outputSchema: PRODUCTS,
    });
    const replayed = ExtractionResult.parse(await second.json());
    expect(replayed).toMatchObject({ method: 'replay', data: expected(12, 12) });
    // The recipe's first replay is cross-checked by the model on a slice of the page, and
    // billed under its own action type.
    expect(replayed.replay).toMatchObject({ checked: true });
    expect(replayed.replay?.evidence).toContain('3 items re-read');
    expect(replayed.contentStats.modelCalls).toBe(1);
    expect(gemini.requests).toHaveLength(2);
    await expect
      .poll(async () =>
        (await runtime.store.tokenUsage.list(tenantId)).map((u) => u.actionType).sort(),
      )
      .toEqual(['EXTRACTION', 'EXTRACTION_CHECK']);

    const third = await extract({
      html: catalogPageHtml(24, 12, 3),
      url: 'https://shop.test/catalog/?page=3',
      query: 'every product with name, price and rating',
      outputSchema: PRODUCTS,
    });
    const unchecked = ExtractionResult.parse(await third.json());
    expect(unchecked).toMatchObject({ method: 'replay', data: expected(24, 12) });
    expect(unchecked.replay).toMatchObject({ checked: false, recipeId: replayed.replay?.recipeId });
    expect(unchecked.contentStats.modelCalls).toBe(0);
    expect(gemini.requests).toHaveLength(2);
  });

  it('reads Markdown as free text without a schema', async () => {
    const res = await extract({
      markdown: '# Opening hours\n\nWe are open 9 to 5, Monday to Friday.',
      query: 'When is it open?',
    });
    expect(res.status).toBe(200);
    const result = ExtractionResult.parse(await res.json());
    expect(result.data).toContain('We are open 9 to 5');
    expect(result.schemaUsed).toBeNull();
  });

  it('answers 413 for a body over the limit, before any model call', async () => {
    const html = `<p>${'x'.repeat(EXTRACTION_LIMITS.bodyBytes)}</p>`;
    const res = await extract(undefined, {
      rawBody: JSON.stringify({ html, query: 'anything' }),
    });
    expect(res.status).toBe(413);
    expect(ErrorResponse.parse(await res.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(gemini.requests).toHaveLength(0);
  });

  it('rejects bad input with field messages, and a request without a key', async () => {
    const both = await extract({ html: '<p>a</p>', markdown: 'a', query: 'a' });
    expect(both.status).toBe(400);
    expect(JSON.stringify(await both.json())).toContain('send exactly one of html or markdown');
    const selectorOnMarkdown = await extract({ markdown: 'a', query: 'a', cssSelector: '#x' });
    expect(JSON.stringify(await selectorOnMarkdown.json())).toContain('cssSelector needs html');
    expect((await extract({ html: '<p>a</p>', query: 'a' }, { key: null })).status).toBe(401);
    expect(gemini.requests).toHaveLength(0);
  });

  it('says when no model is configured', async () => {
    const bare = await testRuntime();
    const { key: bareKey } = await tenantWithKey(bare.store);
    const res = await POST.withRuntime(bare)(
      request('/api/extract', {
        method: 'POST',
        key: bareKey,
        body: { html: catalogPageHtml(0, 2, 1), query: 'products', outputSchema: PRODUCTS },
      }),
    );
    expect(res.status).toBe(503);
    const { error } = ErrorResponse.parse(await res.json());
    expect(error.code).toBe('LLM_NOT_CONFIGURED');
    // The interact hint (a goal naming one element) does not apply to extraction.
    expect(error.message).toMatch(/GEMINI_API_KEY/);
    expect(error.message).not.toMatch(/click/);
    await bare.store.close();
  });
});
