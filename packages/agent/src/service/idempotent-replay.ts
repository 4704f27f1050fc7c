// Idempotent interact requests: the same `idempotencyKey` is the same request, so a client
// retrying after a lost response gets the stored answer instead of advancing the task twice.
import { createHash } from 'node:crypto';
import { InteractResponse, type InteractRequest } from '@tandem/contracts';
import { isDuplicateKeyError, type IdempotencyRepository } from '@tandem/store';
import { InteractError } from './interact-error';
import { LEASE_MS, whileHolding } from '@tandem/jobs';

const SCOPE = 'interact';
/** How long an answered request can be replayed (a client retrying after a lost response). */
const REPLAY_MS = 10 * 60 * 1000;

export const requestHash = (request: InteractRequest): string =>
  createHash('sha256').update(JSON.stringify(request)).digest('hex');

/**
 * Answers `request` once per idempotency key: the first call runs `answer` and stores its
 * response; a repeat replays it; a repeat with a different body, or while the first is still
 * running, is a CONFLICT. A failed answer releases the key so the client may retry.
 */
export async function replayIdempotent(
  idempotency: IdempotencyRepository,
  tenantId: string,
  request: InteractRequest,
  answer: () => Promise<InteractResponse>,
): Promise<InteractResponse> {
  if (!request.idempotencyKey) return answer();
  const key = `${SCOPE}:${request.idempotencyKey}`;
  const hash = requestHash(request);
  try {
    // In progress, the claim is a lease (lease.ts): a server that dies mid-request frees the
    // key within one lease, so the client's retry is answered instead of "still in progress".
    await idempotency.begin(tenantId, { key, scope: SCOPE, requestHash: hash, ttlMs: LEASE_MS });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    return replay(idempotency, tenantId, key, hash);
  }
  try {
    const response = await whileHolding(idempotency, { tenantId, key }, answer);
    await idempotency.complete(tenantId, key, response, { ttlMs: REPLAY_MS });
    return response;
  } catch (error) {
    await idempotency.release(tenantId, key).catch(() => false);
    throw error;
  }
}

async function replay(
  idempotency: IdempotencyRepository,
  tenantId: string,
  key: string,
  hash: string,
): Promise<InteractResponse> {
  const record = await idempotency.get(tenantId, key);
  if (record && record.requestHash !== hash)
    throw new InteractError('CONFLICT', 'idempotencyKey was already used for a different request.');
  if (record?.status === 'completed') return InteractResponse.parse(record.response);
  throw new InteractError('CONFLICT', 'A request with this idempotencyKey is still in progress.');
}
