// snapshot() in real Chromium over the demo docs article: the same text as the server-side
// snapshot of the same HTML, apart from the viewport (only a rendered page has one). Also the
// interactive mode and an @ref selector, which only exist in a rendered page.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CHROMIUM_ARGS, chromiumPath } from '@tandem/chromium';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIife } from '../../scripts/build-iife';
import { parseHtml, snapshotHtml, snapshotLinks } from '../../src/server';
import type { SnapshotOptions } from '../../src/snapshot/snapshot';
import { DEMO_PUBLIC_DIR, DOCS_DEMO_PATH, readDocsDemo } from './docs-demo';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

let server: http.Server;
let browser: Browser;
let page: Page;
let url: string;
let bundle: string;

beforeAll(async () => {
  bundle = (await buildIife({ write: false })).page;
  server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const file = pathname.endsWith('/') ? `${pathname}index.html` : pathname;
    const target = path.join(DEMO_PUBLIC_DIR, path.normalize(file));
    readFile(target)
      .then((body) => {
        response.writeHead(200, { 'content-type': TYPES[path.extname(target)] ?? 'text/plain' });
        response.end(body);
      })
      .catch(() => {
        response.writeHead(404);
        response.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${DOCS_DEMO_PATH}`;
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript({ content: bundle });
  page = await context.newPage();
  await page.goto(url);
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

type Options = Omit<SnapshotOptions, 'document'>;
const inPage = (options: Options): Promise<string> =>
  page.evaluate((o) => window.TandemPage.snapshot(o), options);
const onServer = (options: Options): string => snapshotHtml(readDocsDemo(), { ...options, url });

describe('docs demo page in Chromium', () => {
  it('outline equals the server-side outline apart from the viewport', async () => {
    const browserText = await inPage({ mode: 'outline' });
    const [pageLine, ...rest] = browserText.split('\n');
    expect(pageLine).toMatch(/ \| viewport=1280x800$/);
    const serverText = onServer({ mode: 'outline' });
    expect([pageLine?.replace(/ \| viewport=\d+x\d+$/, ''), ...rest].join('\n')).toBe(serverText);
    expect(serverText).toContain('REGION "Authentication"');
  });

  it.each<[string, Options]>([
    ['markdown', { mode: 'content', format: 'markdown', grep: 'section#auth|table' }],
    ['tree with links and images', { mode: 'content', includeLinks: true, includeImages: true }],
    ['html', { mode: 'content', format: 'html', grep: 'figure' }],
    [
      'grep -iv',
      { mode: 'content', grep: { pattern: 'NAVIGATION|list', ignoreCase: true, invert: true } },
    ],
  ])('content %s equals the server-side result', async (_name, options) => {
    expect(await inPage(options)).toBe(onServer(options));
  });

  it('interactive mode lists the links with @ref ids that scope a later snapshot', async () => {
    const interactive = await inPage({ mode: 'interactive' });
    expect(interactive.split('\n')[1]).toMatch(/^INTERACTIVE: elements=\d+ scroll=0%$/);
    const line = interactive.split('\n').find((l) => l.startsWith('link "Authentication"'));
    const ref = /@ref:(\S+)$/.exec(line ?? '')?.[1];
    expect(ref, interactive).toBeDefined();
    const aside = await inPage({ mode: 'content', selector: `@ref:${ref}`, format: 'markdown' });
    expect(aside).toContain('Authentication');
    expect(aside).not.toContain('Overview');
    const grepped = await inPage({ mode: 'interactive', grep: 'Changelog' });
    expect(grepped.split('\n').slice(3)).toEqual([
      expect.stringMatching(/^link "Changelog" @ref:\S+$/),
    ]);
  });

  it('interactive mode with a selector lists only the controls inside it, scrolled out or not', async () => {
    const footer = await inPage({ mode: 'interactive', selector: 'nav[aria-label="Footer"]' });
    // The footer is below the fold at 1280x800: the page's list leaves it out, a scoped list
    // includes offscreen controls.
    expect(await inPage({ mode: 'interactive' })).not.toContain('link "Status"');
    expect(footer.split('\n')[1]).toBe('INTERACTIVE: elements=2 scroll=0%');
    expect(footer.split('\n').slice(3)).toEqual([
      expect.stringMatching(/^link "Status" @ref:\S+$/),
      expect.stringMatching(/^link "Support" @ref:\S+$/),
    ]);
    await expect(inPage({ mode: 'interactive', selector: '#no-such-thing' })).rejects.toThrow(
      /matches nothing|no element/i,
    );
  });

  it('lists the page’s links outside a scope as the server reads the same HTML', async () => {
    const scope = 'nav[aria-label="Footer"]';
    const inBrowser = await page.evaluate(
      (s) => window.TandemPage.snapshotLinks(document, s),
      scope,
    );
    expect(inBrowser).toEqual(snapshotLinks(parseHtml(readDocsDemo()), scope));
    expect(inBrowser.length).toBeGreaterThan(3);
    // The footer's own links are in the scoped snapshot already.
    const all = await page.evaluate(() => window.TandemPage.snapshotLinks(document, undefined));
    expect(all.length - inBrowser.length).toBe(2);
  });

  it('keeps jsdom out of the page bundle', () => {
    expect(bundle).not.toMatch(/jsdom|parse5|whatwg-url/);
  });
});
