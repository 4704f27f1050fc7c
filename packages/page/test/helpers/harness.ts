// One Chromium and one loopback HTTP server per test file. The server serves the fixtures,
// the IIFE bundle (built in-process, never from dist/) and a few API endpoints with delays.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, chromiumPath } from '@tandem/chromium';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { buildIife } from '../../scripts/build-iife';

const fixturesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

export interface Harness {
  baseUrl: string;
  browser: Browser;
  /** Opens a fixture with the bundle injected before any page script, in every frame. */
  open(fixture: string, options?: { width?: number; height?: number }): Promise<Page>;
  /** The IIFE bundles as served (page: window.TandemPage; network: MAIN-world tracker). */
  bundles: { page: string; network: string };
  /** Requests the API endpoints received, in order ("/api/slow?ms=400"). */
  requests: string[];
  close(): Promise<void>;
}

function handle(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  bundle: string,
  requests: string[],
): void {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (url.pathname.startsWith('/api/')) requests.push(url.pathname + url.search);
  if (url.pathname === '/tandem-page.iife.js') {
    response.writeHead(200, { 'content-type': 'text/javascript' });
    response.end(bundle);
    return;
  }
  if (url.pathname === '/api/slow') {
    const ms = Number(url.searchParams.get('ms') ?? '400');
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: true, ms }));
    }, ms);
    return;
  }
  if (url.pathname === '/api/fast') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
    return;
  }
  const name = path.basename(url.pathname);
  readFile(path.join(fixturesDir, name))
    .then((body) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(body);
    })
    .catch(() => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    });
}

export async function startHarness(): Promise<Harness> {
  const bundles = await buildIife({ write: false, minify: true });
  const requests: string[] = [];
  const server = http.createServer((req, res) => handle(req, res, bundles.page, requests));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
    headless: true,
  });
  // One context for the file: a new context per page costs more than the page itself.
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  await context.addInitScript({ content: bundles.page });
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    browser,
    bundles,
    requests,
    async open(fixture, options = {}) {
      const page = await context.newPage();
      if (options.width !== undefined || options.height !== undefined) {
        await page.setViewportSize({ width: options.width ?? 1000, height: options.height ?? 700 });
      }
      await page.goto(`${baseUrl}/${fixture}`);
      return page;
    },
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
