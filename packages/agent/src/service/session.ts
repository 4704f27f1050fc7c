// Sessions and messages (docs/specs.md, "session"): every request belongs to a session, the one it
// names or a new one for the tab; a continuation's report on the last action is written onto
// the session's last message.
import type { InteractRequest } from '@tandem/contracts';
import type { Store } from '@tandem/store';
import type { InteractCaller } from './context';
import { InteractError } from './interact-error';

export async function openSession(
  store: Store,
  caller: InteractCaller,
  request: InteractRequest,
): Promise<string> {
  const sessionId = request.sessionId;
  if (!sessionId) {
    const session = await store.sessions.create(caller.tenantId, {
      userId: caller.userId,
      url: request.url,
      title: request.pageTitle ?? null,
    });
    return session.id;
  }
  const session = await store.sessions.get(caller.tenantId, sessionId);
  if (!session) throw new InteractError('NOT_FOUND', `Session ${sessionId} not found.`);
  if (request.taskId && request.lastActionStatus) {
    await store.messages.updateLast(caller.tenantId, sessionId, {
      status: request.lastActionStatus,
      error: request.lastActionError ?? null,
    });
  }
  return sessionId;
}
