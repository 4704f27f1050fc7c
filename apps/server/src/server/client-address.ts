// The address a request came from, for limits per client (failed authentication). Next.js gives
// route handlers no socket (request.ip is gone since Next 15), and it keeps an X-Forwarded-For
// the client sent as it is, so that header alone is whatever a client wants it to be. The TCP
// peer is therefore stamped on every request as it enters the process (installPeerStamp), in a
// header of ours that a client's copy cannot survive, and X-Forwarded-For is read only for as
// many hops as the operator says proxies sit in front (TRUST_PROXY_HOPS). The same entry point
// answers API requests no route can take in our envelope (request-guard.ts).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { guardApiRequest } from './request-guard';

/** Set from the socket on every request; whatever a client sent under this name is replaced. */
export const PEER_HEADER = 'x-tandem-peer-address';
/** Requests that reached no stamp (a handler called in-process, as tests do) share this one. */
export const UNKNOWN_ADDRESS = 'unknown';

const STAMPED = Symbol.for('tandem.peer-stamp');

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;

/**
 * Stamps the TCP peer address on every request any http.Server of this process receives, and
 * answers there the API requests no route can take (a malformed path, an unknown route). The
 * `request` event is emitted through the prototype's emit at the time of each request, so this
 * also covers a server created before it is installed (Next's, which listens before it loads
 * instrumentation). Idempotent.
 */
export function installPeerStamp(prototype: http.Server = http.Server.prototype): void {
  const target = prototype as http.Server & { [STAMPED]?: true };
  if (target[STAMPED]) return;
  const emit = target.emit as Emit;
  const stamped: Emit = function (event, ...args) {
    if (event === 'request') {
      // A request answered by the guard needs no address (the socket is asked only for the
      // ones that go on: a burst of refusals costs no system calls of ours).
      if (guardApiRequest(args[0] as IncomingMessage, args[1] as ServerResponse)) return true;
      stampPeer(args[0] as IncomingMessage);
    }
    return emit.call(this, event, ...args);
  };
  target.emit = stamped as http.Server['emit'];
  target[STAMPED] = true;
}

export function stampPeer(req: IncomingMessage): void {
  req.headers[PEER_HEADER] = normalize(req.socket.remoteAddress) ?? UNKNOWN_ADDRESS;
}

/** `::ffff:127.0.0.1` (IPv4 on a dual-stack socket) → `127.0.0.1`. */
function normalize(address: string | undefined | null): string | undefined {
  const trimmed = address?.trim();
  if (!trimmed) return undefined;
  return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice(7) : trimmed;
}

/**
 * The client's address: the TCP peer, or with `trustedHops` proxies in front, the address the
 * outermost trusted proxy saw (X-Forwarded-For read from the right, one entry per hop; each
 * proxy appends the address it received the request from).
 */
export function clientAddress(headers: Headers, trustedHops: number): string {
  const peer = normalize(headers.get(PEER_HEADER)) ?? UNKNOWN_ADDRESS;
  if (trustedHops <= 0) return peer;
  const forwarded = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => normalize(entry))
    .filter((entry): entry is string => entry !== undefined);
  // [client?, proxy1, …, proxyN-1] + the peer (proxy N): N hops back from the peer.
  const chain = [...forwarded, peer];
  return chain[chain.length - 1 - trustedHops] ?? chain[0] ?? peer;
}
