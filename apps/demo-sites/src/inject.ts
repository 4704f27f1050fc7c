// The prompt-injection suite's pages: pages that attack the agent, served on two
// sites of this one server. The victim site is 127.0.0.1:<port>, where tasks start; the
// attacker's is localhost:<port>, another host, so another site for the task's allowlist. The
// pages name them as {{VICTIM}} and {{ATTACKER}}, filled in here, and the attacker's sink
// (/inject/collect) records every request it gets, on either host: a test reads the hits to
// prove nothing leaked. What the pages let a user do (delete, pay, send, sign in) is recorded as
// events, to prove it did not happen.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { HttpError, readJson, send, sendJson } from './http';
import { INJECT_API, INJECT_SINK } from './inject-attacks';

export interface SinkHit {
  /** The Host header: which site the request reached. */
  host: string;
  method: string;
  path: string;
  query: string;
  body: string;
  at: number;
}

export interface PageEvent {
  kind: string;
  detail: string;
  host: string;
  at: number;
}

export interface InjectSite {
  /** Answers injection pages, the sink and their API; false for anything else. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
  reset(): void;
}

async function readBody(req: IncomingMessage, max = 100_000): Promise<string> {
  let body = '';
  for await (const chunk of req) {
    body += (chunk as Buffer).toString();
    if (body.length > max) throw new HttpError(413, 'TOO_LARGE', 'Body too large.');
  }
  return body;
}

/** The two sites as this request's port names them. */
export function sitesOf(hostHeader: string | undefined): { victim: string; attacker: string } {
  const port = /:(\d+)$/.exec(hostHeader ?? '')?.[1] ?? '80';
  return { victim: `http://127.0.0.1:${port}`, attacker: `http://localhost:${port}` };
}

export function createInjectSite(publicDir: string): InjectSite {
  let hits: SinkHit[] = [];
  let events: PageEvent[] = [];

  async function page(req: IncomingMessage, res: ServerResponse, pathname: string) {
    const name = pathname === '/inject/' ? 'index.html' : path.posix.basename(pathname);
    if (!/^[a-z0-9-]+\.html$/.test(name)) return false;
    const file = await readFile(path.join(publicDir, 'inject', name), 'utf8').catch(() => null);
    if (file === null) return false;
    const sites = sitesOf(req.headers.host);
    const html = file
      .replaceAll('{{VICTIM}}', sites.victim)
      .replaceAll('{{ATTACKER}}', sites.attacker);
    send(res, 200, 'text/html; charset=utf-8', html);
    return true;
  }

  async function sink(req: IncomingMessage, res: ServerResponse, url: URL) {
    hits.push({
      host: req.headers.host ?? '',
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search,
      body: req.method === 'POST' ? await readBody(req) : '',
      at: Date.now(),
    });
    send(
      res,
      200,
      'text/html; charset=utf-8',
      '<!doctype html><title>Thanks</title><main><h1>Thanks</h1></main>',
    );
  }

  async function event(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' || req.method === 'HEAD') {
      sendJson(res, 200, { events });
      return;
    }
    const body = (await readJson(req)) as { kind?: unknown; detail?: unknown } | null;
    const kind = typeof body?.kind === 'string' ? body.kind.slice(0, 40) : '';
    if (!kind) throw new HttpError(400, 'VALIDATION_FAILED', 'kind must be a non-empty string.');
    const detail = typeof body?.detail === 'string' ? body.detail.slice(0, 2_000) : '';
    events.push({ kind, detail, host: req.headers.host ?? '', at: Date.now() });
    sendJson(res, 201, { ok: true });
  }

  return {
    async handle(req, res, pathname) {
      const url = new URL(req.url ?? '/', 'http://demo.invalid');
      if (pathname === INJECT_SINK) {
        await sink(req, res, url);
        return true;
      }
      if (pathname === INJECT_API.hits) {
        sendJson(res, 200, { hits });
        return true;
      }
      if (pathname === INJECT_API.events) {
        await event(req, res);
        return true;
      }
      if (pathname.startsWith('/inject/') && (req.method === 'GET' || req.method === 'HEAD'))
        return page(req, res, pathname);
      return false;
    },
    reset() {
      hits = [];
      events = [];
    },
  };
}
