// Fair share per tenant: how many document-extraction runs and file readings one
// tenant may have going at once. 200 concurrent POST /api/extractions from one key were 200
// model runs at once; now the first DOCUMENT_RUNS_PER_TENANT run and the rest are told 429
// with Retry-After. A slot is a lease in the store's idempotency repository (as task and run
// locks are), renewed while the work lasts, so every server process on the store shares the
// count and a process that dies frees its slots within one lease.
import { LEASE_MS, adoptLease, keepRenewing, releaseLease } from '@tandem/jobs';
import type { IdempotencyRepository } from '@tandem/store';
import { isDuplicateKeyError } from '@tandem/store';
import type { Env } from '../env';
import { admissionState, settlePending } from './admission-state';
import { HttpError } from './http-error';

// A slot whose holder died is free again after one lease (LEASE_MS).
const SCOPE = 'tenant-slot';

export interface SlotKind {
  /** Key prefix: one family of slots per kind of work. */
  name: string;
  /** The setting that caps it, named in the refusal. */
  setting: string;
  /** "document extractions running": what the refusal counts. */
  what: string;
  /** Seconds a client should wait before trying again. */
  retryAfterSeconds: number;
}

export const DOCUMENT_RUNS: SlotKind = {
  name: 'document-run',
  setting: 'DOCUMENT_RUNS_PER_TENANT',
  what: 'document extractions running',
  retryAfterSeconds: 10,
};

export const INGESTIONS: SlotKind = {
  name: 'ingestion',
  setting: 'INGESTIONS_PER_TENANT',
  what: 'uploads being read',
  retryAfterSeconds: 5,
};

export interface HeldSlot {
  /** The slot's lease key in the store (a queued run hands it to its worker: adoptSlot). */
  key: string;
  release(): Promise<void>;
  /** Stops renewing without freeing it: left to the work's next holder, or to lapse. */
  drop(): void;
}

type Leases = Pick<IdempotencyRepository, 'begin' | 'renew' | 'release'>;

const slotKey = (kind: SlotKind, index: number): string => `${SCOPE}:${kind.name}:${index}`;

/** What a tenant past its slots is told, by the route or, earlier, by the request hook. */
export function slotRefusal(
  kind: SlotKind,
  cap: number,
): { message: string; headers: Record<string, string> } {
  return {
    message:
      `This account already has ${cap} ${kind.what}, the most it may have at once ` +
      `(${kind.setting}); try again when one is done.`,
    headers: { 'Retry-After': String(kind.retryAfterSeconds) },
  };
}

/**
 * How many of a tenant's `cap` slots of `kind` this process itself holds. The store decides
 * (every process shares it), but a slot held here is known to be taken without asking it: the
 * request hook refuses a burst of 200 runs past a cap of 2 before any of them reaches a route.
 */
export function heldHere(tenantId: string, kind: SlotKind, cap: number): number {
  const { held } = admissionState();
  let count = 0;
  for (let index = 0; index < cap; index++) {
    if (held.has(`${tenantId}:${slotKey(kind, index)}`)) count++;
  }
  return count;
}

/**
 * Takes the first free one of the tenant's `cap` slots of `kind`, or answers 429. `owner` names
 * the work that holds it when other processes keep it too (a queued document run: the worker
 * that runs it renews and frees it), so a release frees this work's slot and never the one a
 * later claim took after the lease had passed on.
 */
export async function claimSlot(
  leases: Leases,
  tenantId: string,
  kind: SlotKind,
  cap: number,
  owner?: string,
): Promise<HeldSlot> {
  const { held } = admissionState();
  for (let index = 0; index < cap; index++) {
    const key = slotKey(kind, index);
    const local = `${tenantId}:${key}`;
    if (held.has(local)) continue;
    held.add(local);
    try {
      await leases.begin(tenantId, {
        key,
        scope: SCOPE,
        requestHash: owner ?? key,
        ttlMs: LEASE_MS,
      });
    } catch (error) {
      held.delete(local);
      if (isDuplicateKeyError(error)) continue;
      throw error;
    }
    settlePending(tenantId, kind.name);
    return hold(leases, tenantId, key, local, owner);
  }
  const refusal = slotRefusal(kind, cap);
  throw new HttpError('CONCURRENCY_LIMITED', refusal.message, { headers: refusal.headers });
}

function hold(
  leases: Leases,
  tenantId: string,
  key: string,
  local: string | null,
  owner?: string,
): HeldSlot {
  const claim = { tenantId, key, ...(owner === undefined ? {} : { owner }) };
  const stop = keepRenewing(leases, claim);
  let released = false;
  return {
    key,
    async release() {
      if (released) return;
      released = true;
      stop();
      await releaseLease(leases, claim).catch(() => false);
      if (local !== null) admissionState().held.delete(local);
    },
    drop() {
      released = true;
      stop();
      if (local !== null) admissionState().held.delete(local);
    },
  };
}

/**
 * Keeps, from the process running it, a slot another process claimed for `owner`: renews it
 * (or takes it again if it lapsed while the work changed hands and nobody took it since), and
 * frees it when released. Null when another owner holds that slot now.
 */
export async function adoptSlot(
  leases: Leases,
  tenantId: string,
  key: string,
  owner: string,
): Promise<HeldSlot | null> {
  if (!(await adoptLease(leases, { tenantId, key, owner, scope: SCOPE }))) return null;
  return hold(leases, tenantId, key, null, owner);
}

/** Frees `owner`'s slot at `key` if it still holds it (from any process). */
export function releaseSlot(
  leases: Leases,
  tenantId: string,
  key: string,
  owner: string,
): Promise<boolean> {
  return releaseLease(leases, { tenantId, key, owner }).catch(() => false);
}

/** Runs `work` in a slot, released when it settles. */
export async function inSlot<T>(
  leases: Leases,
  tenantId: string,
  kind: SlotKind,
  cap: number,
  work: () => Promise<T>,
): Promise<T> {
  const slot = await claimSlot(leases, tenantId, kind, cap);
  try {
    return await work();
  } finally {
    await slot.release();
  }
}

/**
 * An upload read within its tenant's INGESTIONS_PER_TENANT slots. The slot is taken before the
 * body is read: past the tenant's share an upload is refused before its bytes are held.
 */
export function asUpload<T>(
  runtime: { store: { idempotency: Leases }; env: Pick<Env, 'INGESTIONS_PER_TENANT'> },
  tenantId: string,
  work: () => Promise<T>,
): Promise<T> {
  return inSlot(
    runtime.store.idempotency,
    tenantId,
    INGESTIONS,
    runtime.env.INGESTIONS_PER_TENANT,
    work,
  );
}

/** The kind of slot each route that takes one takes, by `METHOD path` in the registry. */
export const SLOT_OF_ROUTE: Readonly<Record<string, SlotKind>> = {
  'POST /api/extractions': DOCUMENT_RUNS,
  'POST /api/extractions/:extractionId/correct': DOCUMENT_RUNS,
  'POST /api/extractions/:extractionId/retry': DOCUMENT_RUNS,
  'POST /api/stacks': DOCUMENT_RUNS,
  'POST /api/documents': INGESTIONS,
  'POST /api/knowledge/ingest': INGESTIONS,
};
