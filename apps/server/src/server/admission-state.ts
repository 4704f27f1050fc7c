// What the request hook (admission.ts, before Next.js routes a request) and the routes share in
// this process. On globalThis, because Next.js may load the hook's module and a route's module
// as separate instances in one process (as it does the runtime).

export interface AdmissionState {
  /** REQUESTS_IN_FLIGHT_PER_KEY. */
  perKey: number;
  /** Requests in the server now, by key digest. */
  inFlight: Map<string, number>;
  /**
   * Requests on their way to a slot-taking route, by `digest:slot kind`: each leaves when its
   * answer starts or when it claims its slot (then `held` counts it), whichever comes first.
   */
  pending: Map<string, Set<object>>;
  /**
   * The tenant of each key digest an authentication accepted in this process. Used only to
   * refuse (a tenant whose slots are all held here), never to let a request in: a key revoked
   * since is still refused by the route.
   */
  tenants: Map<string, string>;
  /** Slots this process holds, as `tenant:slot-key`. */
  held: Set<string>;
  /** Caps of each kind of slot, by kind name (the settings; defaults until start sets them). */
  caps: Map<string, number>;
}

const STATE = Symbol.for('tandem.admission');
/** Keys remembered at most; the oldest go first. */
const MAX_KEYS = 10_000;

export function admissionState(): AdmissionState {
  const global = globalThis as typeof globalThis & { [STATE]?: AdmissionState };
  global[STATE] ??= {
    perKey: 8,
    inFlight: new Map(),
    pending: new Map(),
    tenants: new Map(),
    held: new Set(),
    caps: new Map(),
  };
  return global[STATE];
}

/** The tenant an accepted key belongs to, for the hook's refusals. */
export function rememberKey(digest: string, tenantId: string): void {
  const { tenants } = admissionState();
  tenants.delete(digest);
  tenants.set(digest, tenantId);
  if (tenants.size > MAX_KEYS) tenants.delete(tenants.keys().next().value as string);
}

/** Which pending requests a key's request of a kind of slot joins. */
export const pendingKey = (digest: string, kindName: string): string => `${digest}:${kindName}`;

/**
 * A slot of `kindName` was just claimed for `tenantId`: one of the tenant's requests on their
 * way to such a slot has arrived, so it counts as held from now on, not twice. Requests of one
 * key are alike, so any one of them leaves the count.
 */
export function settlePending(tenantId: string, kindName: string): void {
  const { tenants, pending } = admissionState();
  for (const [digest, tenant] of tenants) {
    if (tenant !== tenantId) continue;
    const waiting = pending.get(pendingKey(digest, kindName));
    const first = waiting?.values().next();
    if (!waiting || !first || first.done) continue;
    waiting.delete(first.value);
    if (waiting.size === 0) pending.delete(pendingKey(digest, kindName));
    return;
  }
}
