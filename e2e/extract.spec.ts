// Structured extraction end to end (docs/specs.md, "extraction overhaul"): the real extension on
// the demo catalogue, the fake model asking the server to extract each page (the product schema on
// page 1, the extraction_id it was given on pages 2 and 3), the server extracting page 1 with the
// model and replaying the learned selectors on pages 2 and 3 with zero model tokens, and the popup
// showing the merged 119 unique products with Download JSON / Download CSV.
import { readFileSync } from 'node:fs';
import { TaskExtractionsResponse } from '@tandem/contracts';
import { CATALOG, PRODUCT_LIST_SCHEMA } from '@tandem/demo-sites';
import { z } from 'zod';
import { fakeGemini } from './support/fake-gemini-control';
import { shoot } from './support/flow';
import { expect, finished, openDemo, startGoal, test, waitForRun } from './support/fixtures';

const GOAL = 'Extract every product as JSON with name, price and rating';

test('"Extract every product as JSON" gives 119 unique products from 3 pages; pages 2-3 replay, page 2 cross-checked once', async ({
  ext,
}) => {
  const fake = fakeGemini(ext.env.gemini);
  const callsBefore = (await fake.calls()).length;
  const { page, tabId } = await openDemo(ext, '/catalog/');
  await expect(page.locator('.product-card')).toHaveCount(40);
  const popup = await startGoal(ext, tabId, GOAL);

  const run = await waitForRun(ext, tabId, finished, 120_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  expect(run.result).toBe('Extracted 119 unique products from 3 pages.');
  await expect(page).toHaveURL(/page=3/);

  const headers = { authorization: `Bearer ${ext.env.apiKey}` };
  const body = TaskExtractionsResponse.parse(
    await (
      await fetch(`${ext.env.server}/api/tasks/${run.taskId ?? ''}/extractions`, { headers })
    ).json(),
  );
  // Page 1 by the model; pages 2 and 3 by the strategy's selectors. The recipe's first replay
  // (page 2) is cross-checked by one model call on its first items; page 3 makes none.
  expect(
    body.results.map((r) => [r.method, r.contentStats.modelCalls, r.contentStats.items]),
  ).toEqual([
    ['model', 1, 40],
    ['replay', 1, 40],
    ['replay', 0, 40],
  ]);
  const extractionCalls = (await fake.calls())
    .slice(callsBefore)
    .filter((c) => c.node === 'extraction');
  expect(extractionCalls).toHaveLength(2);
  // The extraction prompt held the page as untrusted data, and no prompt of the agent held
  // the products: the data went to the store.
  expect(extractionCalls[0]?.prompt).toContain('<page_content untrusted="true">');
  const agentPrompts = (await fake.calls()).slice(callsBefore).filter((c) => c.goal === GOAL);
  const lastProduct = CATALOG.uniqueProducts.at(-1)?.name ?? '';
  expect(agentPrompts.some((c) => c.prompt.includes(lastProduct))).toBe(false);

  const [aggregate] = body.aggregates;
  expect(aggregate).toMatchObject({ items: 119, pages: 3, isPartial: false, truncated: false });
  const expected = CATALOG.uniqueProducts.map((p) => ({
    name: p.name,
    price: p.price,
    rating: p.rating,
  }));
  expect(aggregate?.data).toEqual(expected);
  // A deep copy: the demo's schema is a readonly const, zod's input type a mutable one.
  const schema = JSON.parse(JSON.stringify(PRODUCT_LIST_SCHEMA)) as Record<string, unknown>;
  expect(z.fromJSONSchema(schema).safeParse(aggregate?.data).success).toBe(true);

  const section = popup.locator('#extractions');
  await expect(section).toContainText('Extracted 119 items from 3 pages');
  await shoot(popup, 'extracted', 'popup');
  const [json] = await Promise.all([
    popup.waitForEvent('download'),
    section.getByRole('button', { name: /^Download JSON/ }).click(),
  ]);
  expect(JSON.parse(readFileSync((await json.path()) ?? '', 'utf8'))).toEqual(expected);
  const [csv] = await Promise.all([
    popup.waitForEvent('download'),
    section.getByRole('button', { name: /^Download CSV/ }).click(),
  ]);
  const rows = readFileSync((await csv.path()) ?? '', 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(rows[0]).toBe('name,price,rating');
  expect(rows).toHaveLength(120);
});
