// Table normalisation in real Chromium (the page bundle): content mode over a page of awkward
// tables gives the same Markdown, HTML and tree as the server side over the same HTML, and the
// Markdown tables are GFM tables.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotHtml } from '../../src/server';
import type { SnapshotOptions } from '../../src/snapshot/snapshot';
import { gfmTables } from '../helpers/gfm';
import type { Harness } from '../helpers/harness';
import { startHarness } from '../helpers/harness';

const FIXTURE = readFileSync(path.resolve(import.meta.dirname, '../fixtures/tables.html'), 'utf8');

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
  page = await h.open('tables.html');
});
afterAll(async () => {
  await h?.close();
});

type Options = Omit<SnapshotOptions, 'document'>;
const inPage = (options: Options): Promise<string> =>
  page.evaluate((o) => window.TandemPage.snapshot(o), options);
const onServer = (options: Options): string =>
  snapshotHtml(FIXTURE, { ...options, url: `${h.baseUrl}/tables.html` });

describe('tables in Chromium', () => {
  it('writes GFM tables: spans repeated, short rows padded, footer last, caption before', async () => {
    const markdown = await inPage({ mode: 'content', format: 'markdown' });
    expect(markdown).not.toContain('<table');
    expect(gfmTables(markdown)).toEqual([
      [
        '| Ward | Doctor | Visits |',
        '| --- | --- | --- |',
        '| North | Dr. Berg | 12 |',
        '| North | Dr. Lind | 7 |',
        '| North | Dr. Ek |  |',
        '| South | closed \\| renovation | closed \\| renovation |',
        '| Total |  | 19 |',
      ],
      ['| Code | Meaning |', '| --- | --- |', '| A | acute; admitted |'],
    ]);
    expect(markdown).toContain('**Visits per ward**\n\n| Ward |');
    expect(markdown).toContain('Left note\n\n| Code |');
    expect(markdown).toMatch(/\n\nBoxed note\.\n\n/);
  });

  it.each<[string, Options]>([
    ['markdown', { mode: 'content', format: 'markdown' }],
    ['html', { mode: 'content', format: 'html' }],
    ['tree', { mode: 'content', format: 'tree' }],
  ])('content %s equals the server-side result', async (_name, options) => {
    expect(await inPage(options)).toBe(onServer(options));
  });
});
