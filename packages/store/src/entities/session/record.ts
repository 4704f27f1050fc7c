// Chat sessions and their messages (ordered by a per-session seq).
import type { ActionStatus, MessageRole, SessionStatus } from '@tandem/contracts';
import type { Page } from '../../port';
import { newId } from '../../shared';

export interface Session {
  id: string;
  tenantId: string;
  userId: string;
  status: SessionStatus;
  url: string | null;
  title: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Message {
  id: string;
  tenantId: string;
  sessionId: string;
  /** Monotonic per session; defines message order. */
  seq: number;
  role: MessageRole;
  content: string;
  /** The grammar action the assistant returned with this message, if any. */
  actionString: string | null;
  taskId: string | null;
  status: ActionStatus | null;
  error: string | null;
  domSummary: string | null;
  createdAt: string;
}

export type NewMessage = Pick<Message, 'sessionId' | 'role' | 'content'> &
  Partial<Pick<Message, 'id' | 'actionString' | 'taskId' | 'status' | 'error' | 'domSummary'>>;

export interface SessionRepository {
  create(
    tenantId: string,
    input: { userId: string; url?: string | null; title?: string | null; id?: string },
  ): Promise<Session>;
  get(tenantId: string, id: string): Promise<Session | null>;
  update(
    tenantId: string,
    id: string,
    patch: Partial<Pick<Session, 'status' | 'url' | 'title'>>,
  ): Promise<Session | null>;
  listByUser(
    tenantId: string,
    userId: string,
    options?: { limit?: number; cursor?: string | null },
  ): Promise<Page<Session>>;
}

export interface MessageRepository {
  append(tenantId: string, input: NewMessage): Promise<Message>;
  /** Oldest first. `limit` keeps the newest `limit` messages (still returned oldest first). */
  list(tenantId: string, sessionId: string, options?: { limit?: number }): Promise<Message[]>;
  /** Updates status/error of the newest message of the session (lastActionStatus). */
  updateLast(
    tenantId: string,
    sessionId: string,
    patch: Partial<Pick<Message, 'status' | 'error'>>,
  ): Promise<Message | null>;
}

// The repository declares this input inline; named here so the builder reads.
export type NewSession = Parameters<SessionRepository['create']>[1];

export function newSessionRecord(tenantId: string, input: NewSession, now: string): Session {
  return {
    id: input.id ?? newId(),
    tenantId,
    userId: input.userId,
    status: 'active',
    url: input.url ?? null,
    title: input.title ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

export function newMessageRecord(
  tenantId: string,
  input: NewMessage,
  now: string,
): Omit<Message, 'seq'> {
  return {
    id: input.id ?? newId(),
    tenantId,
    sessionId: input.sessionId,
    role: input.role,
    content: input.content,
    actionString: input.actionString ?? null,
    taskId: input.taskId ?? null,
    status: input.status ?? null,
    error: input.error ?? null,
    domSummary: input.domSummary ?? null,
    createdAt: now,
  };
}
