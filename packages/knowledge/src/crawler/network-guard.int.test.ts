// The SSRF guard with its defaults: loopback, private and link-local targets are refused before
// any request, by name (DNS) or by address, and again on a redirect hop.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStore } from '@tandem/store';
import type { Store } from '@tandem/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from './crawl';
import { checkCrawlUrl, CrawlRefusedError } from './network-guard';

describe('checkCrawlUrl with the defaults', () => {
  it.each([
    'http://127.0.0.1/',
    'http://localhost:3000/docs',
    'http://10.1.2.3/',
    'http://192.168.0.10/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    // WHATWG URL reads these as 127.0.0.1: the guard sees the same address a client would.
    'http://2130706433/',
    'http://127.1/',
  ])('refuses %s', async (url) => {
    await expect(checkCrawlUrl(url)).rejects.toBeInstanceOf(CrawlRefusedError);
  });

  it.each(['ftp://example.com/file', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url'])(
    'refuses the scheme of %s',
    async (url) => {
      await expect(checkCrawlUrl(url)).rejects.toThrow(/Only http\(s\) URLs/);
    },
  );

  it('refuses a host outside the allowed domains before resolving it', async () => {
    await expect(
      checkCrawlUrl('https://evil.example/', { allowedDomains: ['tandem.example'] }),
    ).rejects.toThrow(/not in the allowed domains/);
    await expect(
      checkCrawlUrl('http://127.0.0.1/', {
        allowedDomains: ['docs.tandem.example'],
        allowPrivateNetwork: true,
      }),
    ).rejects.toBeInstanceOf(CrawlRefusedError);
  });

  it('accepts a public address, and loopback once private networks are allowed', async () => {
    await expect(checkCrawlUrl('http://93.184.215.14/')).resolves.toBeUndefined();
    await expect(
      checkCrawlUrl('http://localhost/', { allowPrivateNetwork: true }),
    ).resolves.toBeUndefined();
    await expect(
      checkCrawlUrl('https://docs.tandem.example/', {
        allowPrivateNetwork: true,
        allowedDomains: ['tandem.example'],
      }),
    ).resolves.toBeUndefined();
  });
});

describe('a redirect to loopback', () => {
  // A public address the crawler is allowed to reach; its requests are delivered to a real
  // server on loopback (like `curl --resolve`), because no public host of ours redirects.
  const PUBLIC_HOST = '93.184.215.14';
  let redirector: Server;
  let target: Server;
  let targetHits = 0;
  let redirectorPaths: string[] = [];
  let store: Store;

  const listen = async (server: Server): Promise<number> => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };

  beforeAll(async () => {
    target = createServer((_req, res) => {
      targetHits += 1;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>admin</title>');
    });
    const targetPort = await listen(target);
    redirector = createServer((req, res) => {
      redirectorPaths.push(req.url ?? '');
      if (req.url === '/robots.txt') res.writeHead(404).end();
      else res.writeHead(302, { location: `http://127.0.0.1:${targetPort}/admin` }).end();
    });
    const redirectorPort = await listen(redirector);
    routedFetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.hostname === PUBLIC_HOST) {
        url.hostname = '127.0.0.1';
        url.port = String(redirectorPort);
      }
      return fetch(url, init);
    };
    store = await createStore({ libsqlUrl: ':memory:' });
  });
  afterAll(async () => {
    redirector?.closeAllConnections();
    target?.closeAllConnections();
    await new Promise((resolve) => redirector?.close(resolve));
    await new Promise((resolve) => target?.close(resolve));
  });
  let routedFetch: typeof fetch;

  it('is refused at the hop: the loopback server is never contacted', async () => {
    const tenant = await store.tenants.create({ name: 'ssrf' });
    const job = await store.knowledgeJobs.create(tenant.id, {
      url: `http://${PUBLIC_HOST}/docs/start`,
      strategy: 'single',
      maxPages: 5,
      maxDepth: 0,
      domain: PUBLIC_HOST,
    });
    const pages: string[] = [];
    const result = await runCrawl(
      job,
      {
        jobs: store.knowledgeJobs,
        onPage: async (page) => {
          pages.push(page.url);
          return 'ingested';
        },
      },
      { fetch: routedFetch, delayMs: 0 },
    );
    expect(redirectorPaths).toEqual(['/robots.txt', '/docs/start']);
    expect(targetHits).toBe(0);
    expect(pages).toEqual([]);
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/^refused: 127\.0\.0\.1 resolves to a private/);
    expect(result.progress).toMatchObject({ fetched: 1, failed: 1 });
  });

  it('refuses a loopback start URL as a failed job, without a request', async () => {
    const tenant = await store.tenants.create({ name: 'ssrf start' });
    redirectorPaths = [];
    const job = await store.knowledgeJobs.create(tenant.id, {
      url: 'http://localhost:9/',
      strategy: 'spider',
      maxPages: 5,
      maxDepth: 1,
      domain: 'localhost',
    });
    const result = await runCrawl(job, {
      jobs: store.knowledgeJobs,
      onPage: async () => 'ingested',
    });
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/localhost resolves to a private or reserved address/);
    expect(result.progress.fetched).toBe(0);
  });
});
