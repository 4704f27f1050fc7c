// Query documents of sessions and their messages.
import type { SessionDoc } from './mongo-schema';
import { olderThanCursor } from '../../mongo/queries/cursor';
import type { Filter, FindSpec, UpdateSpec } from '../../mongo/queries/spec';

export const sessionFilter = (tenantId: string, id: string): Filter => ({ tenantId, id });

/** Partial semantics: a key set to undefined is "not given", never "clear it". */
export function sessionUpdate(
  tenantId: string,
  id: string,
  patch: Partial<Pick<SessionDoc, 'status' | 'url' | 'title'>>,
  now: Date,
): UpdateSpec {
  const set: Partial<SessionDoc> = { updatedAt: now };
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.url !== undefined) set.url = patch.url;
  if (patch.title !== undefined) set.title = patch.title;
  return { filter: sessionFilter(tenantId, id), update: { $set: set } };
}

/** A user's sessions, newest first, one more than `limit`. */
export function sessionsByUserQuery(
  tenantId: string,
  userId: string,
  cursor: string | null | undefined,
  limit: number,
): FindSpec {
  return {
    filter: { tenantId, userId, ...olderThanCursor(cursor) },
    sort: { createdAt: -1, id: -1 },
    limit: limit + 1,
  };
}

/** All messages oldest first, or (with `limit`) the newest `limit`, newest first. */
export function messagesQuery(tenantId: string, sessionId: string, limit?: number): FindSpec {
  return limit === undefined
    ? { filter: { tenantId, sessionId }, sort: { seq: 1 } }
    : { filter: { tenantId, sessionId }, sort: { seq: -1 }, limit };
}

/** Patches the session's newest message (one atomic findOneAndUpdate sorted by seq). */
export function lastMessageUpdate(
  tenantId: string,
  sessionId: string,
  set: Record<string, unknown>,
): UpdateSpec {
  return { filter: { tenantId, sessionId }, update: { $set: set }, sort: { seq: -1 } };
}
