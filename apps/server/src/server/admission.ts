// Admission, before Next.js routes a request: what one API key may put into the server at once.
// Every request costs this process milliseconds of CPU before any handler runs (Next's routing
// machinery: about 4 ms for /api/health and 9 ms for a refused POST /api/extractions, measured
// here), and requests are handled nearly one after another, so 200 runs sent at once by one key
// held every other tenant's requests for two seconds although the routes refused 198 of them.
// Here, each refusal costs a fraction of a millisecond:
// - a key with REQUESTS_IN_FLIGHT_PER_KEY requests in the server gets 429 at once;
// - a request for a run or an upload (a route that takes one of its tenant's slots,
//   tenant-slots.ts) gets the route's own 429 without reaching the route when the slots this
//   process holds for the tenant and the key's requests for that kind still on their way to a
//   route already make the cap. Counting the ones on their way matters: a burst arrives in one
//   poll phase, before any route has claimed a slot, and each request let through costs Next's
//   routing, so 200 runs at once let 8 reach the route (the per-key cap) where 2 can run, and
//   held /api/health ~70 ms on a two-core machine.
// Both only ever refuse: whether a key is valid is still the route's to say, so a key revoked
// since it was remembered is refused, never let in.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EndpointDefinition } from '@tandem/contracts';
import type { Env } from '../env';
import { admissionState, pendingKey } from './admission-state';
import type { Refusal } from './request-guard';
import {
  DOCUMENT_RUNS,
  heldHere,
  INGESTIONS,
  SLOT_OF_ROUTE,
  slotRefusal,
  type SlotKind,
} from './tenant-slots';

/** The configured caps, once the environment is read (defaults until then). */
export function configureAdmission(
  env: Pick<
    Env,
    'REQUESTS_IN_FLIGHT_PER_KEY' | 'DOCUMENT_RUNS_PER_TENANT' | 'INGESTIONS_PER_TENANT'
  >,
): void {
  const state = admissionState();
  state.perKey = env.REQUESTS_IN_FLIGHT_PER_KEY;
  state.caps.set(DOCUMENT_RUNS.name, env.DOCUMENT_RUNS_PER_TENANT);
  state.caps.set(INGESTIONS.name, env.INGESTIONS_PER_TENANT);
}

/** Which key a bearer token is: a digest of it, never the token itself. */
export const keyDigest = (token: string): string =>
  createHash('sha256').update(token).digest('base64url').slice(0, 22);

function tokenOf(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
}

/**
 * The route's own refusal when the slots this process holds for the key's tenant and the key's
 * requests of that kind already on their way to the route make the tenant's cap.
 */
function slotsFull(digest: string, kind: SlotKind): Refusal | null {
  const state = admissionState();
  const cap = state.caps.get(kind.name);
  if (cap === undefined) return null;
  const tenantId = state.tenants.get(digest);
  const taken =
    (tenantId ? heldHere(tenantId, kind, cap) : 0) +
    (state.pending.get(pendingKey(digest, kind.name))?.size ?? 0);
  if (taken < cap) return null;
  return { code: 'CONCURRENCY_LIMITED', ...slotRefusal(kind, cap) };
}

/**
 * Counts the request while it is in the server, until its answer starts or it is dropped: in
 * its key's requests in flight and, for a slot-taking route, in the key's requests of that kind
 * on their way (until it claims its slot: settlePending).
 */
function count(digest: string, kind: SlotKind | undefined, res: ServerResponse): void {
  const { inFlight, pending } = admissionState();
  inFlight.set(digest, (inFlight.get(digest) ?? 0) + 1);
  const entry = {};
  const key = kind ? pendingKey(digest, kind.name) : undefined;
  if (key) pending.set(key, (pending.get(key) ?? new Set()).add(entry));
  let counted = true;
  const done = () => {
    if (!counted) return;
    counted = false;
    const left = (inFlight.get(digest) ?? 1) - 1;
    if (left > 0) inFlight.set(digest, left);
    else inFlight.delete(digest);
    const waiting = key ? pending.get(key) : undefined;
    if (key && waiting?.delete(entry) && waiting.size === 0) pending.delete(key);
  };
  // An event stream counts while it is set up, not while it streams.
  for (const method of ['writeHead', 'write', 'end'] as const) {
    const original = res[method] as (...args: unknown[]) => unknown;
    res[method] = function (this: ServerResponse, ...args: unknown[]) {
      done();
      return original.apply(this, args);
    } as never;
  }
  res.once('close', done);
}

/** Lets the request in (counted against its key), or says why it may not enter. */
export function admit(
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: EndpointDefinition,
): Refusal | null {
  const token = tokenOf(req);
  if (token === null) return null;
  const digest = keyDigest(token);
  const { inFlight, perKey } = admissionState();
  const current = inFlight.get(digest) ?? 0;
  if (current >= perKey) {
    return {
      code: 'CONCURRENCY_LIMITED',
      message:
        `This API key already has ${current} requests in progress, the most it may have at once ` +
        '(REQUESTS_IN_FLIGHT_PER_KEY); send the next when one has been answered.',
      headers: { 'Retry-After': '1' },
    };
  }
  const kind = SLOT_OF_ROUTE[`${endpoint.method} ${endpoint.path}`];
  const full = kind ? slotsFull(digest, kind) : null;
  if (full) return full;
  count(digest, kind, res);
  return null;
}

/** Requests counted now, for tests. */
export const admittedCount = (): number =>
  [...admissionState().inFlight.values()].reduce((a, b) => a + b, 0);

/** Sets the per-key cap (tests). */
export function setAdmissionLimit(perKey: number): void {
  admissionState().perKey = perKey;
}
