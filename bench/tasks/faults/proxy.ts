// The fault proxy: a real loopback HTTP server between the Tandem server (its GEMINI_BASE_URL
// points here) and the scripted model. Each generateContent request either goes through
// untouched or meets one fault drawn from the plan; everything else (an embedding request, say)
// always goes through, since the faults model the chat endpoint the agent depends on.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readGeminiRequest } from '@tandem/llm/testing';
import { FAULT_KINDS, faultPicker, type FaultKind, type FaultPlan } from './plan';
import { forwardedFault, isForwarded, standaloneFault, type FaultReply } from './shapes';

/** Longer than the server's default LLM timeout (30 s): only the client ends a hang. */
const HANG_MS = 35_000;

export interface FaultEvent {
  /** Null: forwarded untouched. */
  kind: FaultKind | null;
}

export interface FaultProxy {
  url: string;
  /** One entry per generateContent request, in arrival order (tasks run one at a time). */
  readonly events: readonly FaultEvent[];
  close(): Promise<void>;
}

export const countFaults = (events: readonly FaultEvent[]) =>
  Object.fromEntries(
    FAULT_KINDS.map((kind) => [kind, events.filter((e) => e.kind === kind).length]),
  ) as Record<FaultKind, number>;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function forward(upstream: string, req: IncomingMessage, body: string): Promise<FaultReply> {
  const res = await fetch(`${upstream}${req.url ?? '/'}`, {
    method: req.method ?? 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
    ...(body !== '' ? { body } : {}),
  });
  return {
    status: res.status,
    headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' },
    body: await res.text(),
  };
}

const send = (res: ServerResponse, reply: FaultReply) =>
  res.writeHead(reply.status, reply.headers).end(reply.body);

/** Holds the request open as a stalled upstream does, until the client gives up (or 35 s). */
function hang(res: ServerResponse): void {
  const timer = setTimeout(() => res.destroy(), HANG_MS);
  res.once('close', () => clearTimeout(timer));
}

const promptChars = (body: string) => {
  try {
    const call = readGeminiRequest(JSON.parse(body) as unknown);
    return call.system.length + call.prompt.length;
  } catch {
    return body.length;
  }
};

async function handle(
  upstream: string,
  pick: () => FaultKind | null,
  events: FaultEvent[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = await readBody(req);
  const isChat = (req.url ?? '').split('?')[0]?.endsWith(':generateContent') ?? false;
  const kind = isChat ? pick() : null;
  if (isChat) events.push({ kind });
  if (kind === 'hang') return hang(res);
  if (kind === null) return void send(res, await forward(upstream, req, body));
  if (!isForwarded(kind)) return void send(res, standaloneFault(kind, promptChars(body)));
  const reply = await forward(upstream, req, body);
  send(res, reply.status === 200 ? forwardedFault(kind, reply.body) : reply);
}

export async function startFaultProxy(upstream: string, plan: FaultPlan): Promise<FaultProxy> {
  const events: FaultEvent[] = [];
  const pick = faultPicker(plan);
  const server = createServer((req, res) => {
    handle(upstream, pick, events, req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      send(res, { status: 502, headers: {}, body: `fault proxy: ${String(error)}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
