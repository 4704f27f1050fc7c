// One node:http server for every demo site: static files from public/ plus the JSON API.
// No framework, so the sites behave the same wherever the repo is checked out.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApi } from './api';
import { handleDocsRoute } from './docs-site';
import { HttpError, send, sendError, sendHtmlError } from './http';
import { createInjectSite } from './inject';
import { DEMO_API, DEMO_PAGES } from './pages';
import { contentTypeFor, resolveStatic } from './static-files';
import { markVariant } from './variants';

export const PUBLIC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');

export interface DemoSitesOptions {
  /** 0 (the default) picks a free port; read the chosen one from the result. */
  readonly port?: number;
  readonly host?: string;
  /** Delay before POST /api/patients answers; the EMR shows "Saving…" meanwhile. */
  readonly saveDelayMs?: number;
}

export interface DemoSites {
  /** Origin without a trailing slash: `${url}${DEMO_PAGES.emr}` is a page URL. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const SPA_ROOTS = [DEMO_PAGES.emr];

export async function startDemoSites(options: DemoSitesOptions = {}): Promise<DemoSites> {
  const { port = 0, host = '127.0.0.1', saveDelayMs = 700 } = options;
  const api = createApi({ saveDelayMs });
  const inject = createInjectSite(PUBLIC_DIR);

  async function serveStatic(req: IncomingMessage, res: ServerResponse, rawPath: string) {
    const pathname = rawPath.split('?')[0] ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendHtmlError(res, 405, pathname);
      return;
    }
    const resolved = await resolveStatic(rawPath, { root: PUBLIC_DIR, spaRoots: SPA_ROOTS });
    switch (resolved.kind) {
      case 'file': {
        const body = await readFile(resolved.filePath);
        const variant = api.variant();
        send(
          res,
          200,
          contentTypeFor(resolved.filePath),
          variant && resolved.filePath.endsWith('.html')
            ? markVariant(body.toString('utf8'), variant)
            : body,
        );
        return;
      }
      case 'redirect':
        res.writeHead(301, { location: resolved.location, 'cache-control': 'no-store' }).end();
        return;
      case 'bad-request':
        sendHtmlError(res, 400, pathname);
        return;
      case 'not-found':
        sendHtmlError(res, 404, pathname);
        return;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const rawPath = req.url ?? '/';
    // Only used to route API calls; static paths are checked raw in resolveStatic.
    const parsed = new URL(rawPath, 'http://demo.invalid');
    if (parsed.pathname === DEMO_API.reset) inject.reset();
    if (await inject.handle(req, res, parsed.pathname)) return;
    if (await api.handle(req, res, parsed.pathname, parsed.searchParams)) return;
    if (handleDocsRoute(req, res, parsed.pathname)) return;
    await serveStatic(req, res, rawPath);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        sendError(res, error);
        return;
      }
      console.error('[demo-sites]', error);
      sendError(res, new HttpError(500, 'INTERNAL', 'Internal server error.'));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const address = server.address() as AddressInfo;
  const hostInUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;

  return {
    url: `http://${hostInUrl}:${address.port}`,
    port: address.port,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        api.close();
        server.close((error) => (error ? reject(error) : resolve()));
        // Browsers keep idle keep-alive sockets open; without this close() waits for them.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
