// Sitemap discovery on a site whose robots.txt names no sitemap (or a dead one): the crawler
// falls back to /sitemap.xml, then to sitemap.xml in the start URL's directory.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStore } from '@tandem/store';
import type { Store } from '@tandem/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from './crawl';

let server: Server;
let origin: string;
let store: Store;
let robots = '';
const served: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    served.push(path);
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    } else if (path === '/help/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' }).end(
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>${origin}/help/a.html</loc></url>
          <url><loc>${origin}/help/b.html</loc></url>
          <url><loc>https://elsewhere.example/c.html</loc></url>
        </urlset>`,
      );
    } else if (path.startsWith('/help/') && path.endsWith('.html')) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${path}</title>`);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  store = await createStore({ libsqlUrl: ':memory:' });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function crawlSitemap(): Promise<string[]> {
  const tenant = await store.tenants.create({ name: 'sitemap fallback' });
  const job = await store.knowledgeJobs.create(tenant.id, {
    url: `${origin}/help/index.html`,
    strategy: 'sitemap',
    maxPages: 10,
    maxDepth: 0,
    domain: '127.0.0.1',
  });
  const pages: string[] = [];
  const result = await runCrawl(
    job,
    {
      jobs: store.knowledgeJobs,
      onPage: async (page) => {
        pages.push(new URL(page.url).pathname);
        return 'ingested';
      },
    },
    { allowPrivateNetwork: true, delayMs: 0 },
  );
  expect(result.status).toBe('completed');
  return pages.sort();
}

describe('sitemap discovery fallback', () => {
  it('finds the sitemap in the start directory when robots.txt names none', async () => {
    robots = 'User-agent: *\nAllow: /\n';
    served.length = 0;
    // Off-site entries are dropped: the sitemap protocol only vouches for its own host.
    expect(await crawlSitemap()).toEqual(['/help/a.html', '/help/b.html']);
    expect(served.slice(0, 3)).toEqual(['/robots.txt', '/sitemap.xml', '/help/sitemap.xml']);
  });

  it('falls back the same way when the named sitemap is gone', async () => {
    robots = `User-agent: *\nAllow: /\nSitemap: ${origin}/old-sitemap.xml\n`;
    served.length = 0;
    expect(await crawlSitemap()).toEqual(['/help/a.html', '/help/b.html']);
    expect(served.slice(0, 4)).toEqual([
      '/robots.txt',
      '/old-sitemap.xml',
      '/sitemap.xml',
      '/help/sitemap.xml',
    ]);
  });
});
