// The extraction node over the real ExtractionService and store (libSQL in memory), the
// model scripted to answer from its prompt: the data goes to the store, the state keeps a
// summary line and the tokens, and the page content is dropped from the state.
import { ExtractionService } from '@tandem/extraction';
import {
  catalogPageHtml,
  productListSchema,
  scriptedExtractionLlm,
} from '@tandem/extraction/testing';
import { createLibsqlStore } from '@tandem/store';
import { describe, expect, it } from 'vitest';
import { applyUpdate, nodeDeps, pageWith, stateWith } from '../../testing/state';
import { extraction } from './node';

const PRODUCTS = productListSchema(['name', 'price']);

async function setup() {
  const store = await createLibsqlStore({ url: ':memory:' });
  const llm = scriptedExtractionLlm();
  const deps = nodeDeps({ extraction: new ExtractionService({ llm, store }) });
  return { store, llm, deps };
}

const pending = (html: string, request: Record<string, unknown>) =>
  stateWith({
    tenantId: 't1',
    taskId: 'task-1',
    page: pageWith({
      url: 'https://shop.test/catalog/?page=1',
      snapshot: { mode: 'content', text: html },
    }),
    pendingExtraction: { query: 'products', ...request },
  });

describe('extraction node (real service)', () => {
  it('stores the data, keeps a summary and the tokens, and drops the content', async () => {
    const { store, deps } = await setup();
    const before = pending(catalogPageHtml(0, 12, 1), { outputSchema: PRODUCTS });
    const update = applyUpdate(before, await extraction(deps)(before));
    expect(update.pendingExtraction).toBeNull();
    expect(update.page?.snapshot).toBeNull();
    const note = update.extractionNotes[0];
    expect(note).toMatchObject({ items: 12, pages: 1, isPartial: false });
    expect(note?.summary).toMatch(/^Extracted 12 items with 1 model call\./);
    expect(update.tokens.calls).toBe(1);
    expect(update.tokens.input).toBeGreaterThan(0);
    const stored = await store.extractionResults.listByTask('t1', 'task-1');
    expect(stored).toHaveLength(1);
    expect((stored[0]?.data as unknown[]).length).toBe(12);
  });

  it('tells the model why an extraction failed', async () => {
    const { deps } = await setup();
    const state = pending(catalogPageHtml(0, 2, 1), {});
    const before = { ...state, pendingExtraction: { extractionId: 'no-such-extraction' } };
    const update = applyUpdate(before, await extraction(deps)(before));
    expect(update.extractionNotes[0]?.summary).toMatch(
      /^The last extraction failed: extractionId "no-such-extraction" is not a known extraction/,
    );
  });
});
