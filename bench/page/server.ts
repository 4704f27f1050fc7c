// Loopback server for the bench pages. Everything is served from memory as UTF-8.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PageServer {
  url(path: string): string;
  close(): Promise<void>;
}

export async function servePages(pages: Map<string, string>): Promise<PageServer> {
  const server = http.createServer((request, response) => {
    const body = pages.get(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
