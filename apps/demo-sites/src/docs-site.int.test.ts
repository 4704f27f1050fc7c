// The docs site as a crawler sees it: robots.txt and sitemaps with this server's origin, the
// link graph (every link resolves except the deliberate traps), the traps themselves, and the
// knowledge bench's questions (each answer is on exactly one page).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PAGES, DOCS_ROUTES, DOCS_SITEMAP_PAGES, DOCS_TRAPS } from './docs-site';
import { startDemoSites } from './server';
import type { DemoSites } from './server';

const QUESTIONS_FILE = path.resolve(import.meta.dirname, '../../../bench/knowledge/questions.json');

interface Question {
  question: string;
  url: string;
  answer: string;
}

let sites: DemoSites;

beforeAll(async () => {
  sites = await startDemoSites();
});
afterAll(async () => {
  await sites.close();
});

const get = (pathname: string) => fetch(`${sites.url}${pathname}`, { redirect: 'manual' });

/** Visible text, roughly as a reader (or a Markdown converter) sees it. */
function textOf(html: string): string {
  return html
    .replace(/<head>[\s\S]*?<\/head>/, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&amp;', '&')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replace(/\s+/g, ' ');
}

const hrefsOf = (html: string): string[] =>
  [...html.matchAll(/<a\s[^>]*href="([^"]+)"/g)].map((match) => match[1] ?? '');

async function locsOf(pathname: string): Promise<string[]> {
  const response = await get(pathname);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
  const xml = await response.text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? '');
}

describe('docs site crawl surface', () => {
  it('robots.txt disallows the internal pages and names the sitemap by absolute URL', async () => {
    const response = await get(DOCS_ROUTES.robots);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = (await response.text()).split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Disallow: /docs/internal/');
    expect(lines).toContain(`Sitemap: ${sites.url}/sitemap.xml`);
  });

  it('robots.txt follows the Host the client used', async () => {
    const response = await fetch(`http://localhost:${sites.port}${DOCS_ROUTES.robots}`);
    expect(await response.text()).toContain(`Sitemap: http://localhost:${sites.port}/sitemap.xml`);
  });

  it('the sitemap index points at the docs sitemap, which lists the public pages only', async () => {
    expect(await locsOf(DOCS_ROUTES.sitemapIndex)).toEqual([
      `${sites.url}${DOCS_ROUTES.docsSitemap}`,
    ]);
    const pages = await locsOf(DOCS_ROUTES.docsSitemap);
    expect(pages).toEqual(DOCS_SITEMAP_PAGES.map((page) => `${sites.url}${page}`));
    expect(pages).toHaveLength(12);
    expect(pages).not.toContain(`${sites.url}${DOCS_PAGES.sandbox}`);
    expect(pages.some((page) => page.includes('/internal/'))).toBe(false);
  });

  it('serves every docs page as HTML', async () => {
    for (const page of Object.values(DOCS_PAGES)) {
      const response = await get(page);
      expect(response.status, page).toBe(200);
      expect(response.headers.get('content-type'), page).toBe('text/html; charset=utf-8');
    }
  });

  it('links resolve, except the missing page and the redirect loop', async () => {
    const targets = new Set<string>();
    for (const page of Object.values(DOCS_PAGES)) {
      for (const href of hrefsOf(await (await get(page)).text())) {
        const url = new URL(href, `${sites.url}${page}`);
        if (url.origin === sites.url) targets.add(url.pathname);
      }
    }
    const broken: string[] = [];
    for (const target of targets) {
      if ((await get(target)).status !== 200) broken.push(target);
    }
    expect(broken.sort()).toEqual([DOCS_TRAPS.loopA, DOCS_TRAPS.missing].sort());
    // The sandbox guide is reachable by links even though the sitemap leaves it out.
    expect(targets).toContain(DOCS_PAGES.sandbox);
    expect(targets).toContain(DOCS_PAGES.internalRunbook);
  });

  it('loop-a and loop-b redirect to each other', async () => {
    const a = await get(DOCS_TRAPS.loopA);
    expect(a.status).toBe(302);
    expect(a.headers.get('location')).toBe(DOCS_TRAPS.loopB);
    const b = await get(DOCS_TRAPS.loopB);
    expect(b.status).toBe(302);
    expect(b.headers.get('location')).toBe(DOCS_TRAPS.loopA);
  });

  it('the missing page is a 404 HTML page', async () => {
    const response = await get(DOCS_TRAPS.missing);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('knowledge bench questions', () => {
  it('each answer appears verbatim on its page and on no other page', async () => {
    const questions = JSON.parse(await readFile(QUESTIONS_FILE, 'utf8')) as Question[];
    expect(questions.length).toBeGreaterThanOrEqual(30);
    const texts = new Map<string, string>();
    for (const page of Object.values(DOCS_PAGES)) {
      texts.set(page, textOf(await (await get(page)).text()));
    }
    for (const { question, url, answer } of questions) {
      const pagesWithAnswer = [...texts].filter(([, text]) => text.includes(answer));
      expect(
        pagesWithAnswer.map(([page]) => page),
        question,
      ).toEqual([url]);
    }
    // No question may be about the staff page: robots.txt keeps it out of any index.
    expect(questions.some(({ url }) => url.includes('/internal/'))).toBe(false);
  });
});
