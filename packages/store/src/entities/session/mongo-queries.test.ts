// Sessions and messages: their query documents, evaluated by mingo.
import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../shared';
import type { MessageDoc, SessionDoc } from './mongo-schema';
import { nextSeqUpdate } from '../../mongo/queries/cursor';
import { MingoCollection } from '../../mongo/queries/mingo-collection';
import {
  lastMessageUpdate,
  messagesQuery,
  sessionFilter,
  sessionsByUserQuery,
  sessionUpdate,
} from './mongo-queries';

const at = (iso: string) => new Date(iso);

const session = (id: string, createdAt: string, over: Partial<SessionDoc> = {}): SessionDoc => ({
  id,
  tenantId: 't1',
  userId: 'u1',
  status: 'active',
  url: null,
  title: null,
  createdAt: at(createdAt),
  updatedAt: at(createdAt),
  ...over,
});

const message = (seq: number, over: Partial<MessageDoc> = {}): MessageDoc => ({
  id: `m${seq}`,
  tenantId: 't1',
  sessionId: 's1',
  seq,
  role: 'user',
  content: `message ${seq}`,
  actionString: null,
  taskId: null,
  status: null,
  error: null,
  domSummary: null,
  createdAt: at('2025-01-01T00:00:00Z'),
  ...over,
});

describe('sessions and messages', () => {
  it("pages a user's sessions newest first on the cursor; patches only the given fields", () => {
    const sessions = new MingoCollection([
      session('a', '2025-01-01T00:00:00Z'),
      session('b', '2025-01-02T00:00:00Z'),
      session('c', '2025-01-03T00:00:00Z'),
      session('d', '2025-01-04T00:00:00Z', { userId: 'u2' }),
    ]);
    expect(sessions.find(sessionsByUserQuery('t1', 'u1', null, 1)).map((s) => s.id)).toEqual([
      'c',
      'b',
    ]);
    const cursor = encodeCursor(['2025-01-03T00:00:00.000Z', 'c']);
    expect(sessions.find(sessionsByUserQuery('t1', 'u1', cursor, 5)).map((s) => s.id)).toEqual([
      'b',
      'a',
    ]);
    const now = at('2025-02-01T00:00:00Z');
    const updated = sessions.findOneAndUpdate(
      sessionUpdate('t1', 'a', { title: 'T', url: undefined }, now),
    );
    expect(updated).toMatchObject({
      id: 'a',
      title: 'T',
      url: null,
      status: 'active',
      updatedAt: now,
    });
    expect(sessions.findOneAndUpdate(sessionUpdate('t2', 'a', { title: 'x' }, now))).toBeNull();
    expect(sessions.findOne({ filter: sessionFilter('t1', 'b') })?.id).toBe('b');
  });

  it('messages: all oldest first, the newest N, and the newest one patched', () => {
    const messages = new MingoCollection([
      message(2),
      message(1),
      message(3),
      message(1, { sessionId: 's2', id: 'x' }),
    ]);
    expect(messages.find(messagesQuery('t1', 's1')).map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(messages.find(messagesQuery('t1', 's1', 2)).map((m) => m.seq)).toEqual([3, 2]);
    const patched = messages.findOneAndUpdate(
      lastMessageUpdate('t1', 's1', { status: 'failure', error: 'boom' }),
    );
    expect(patched).toMatchObject({ seq: 3, status: 'failure', error: 'boom' });
    expect(messages.docs.filter((m) => m.status === 'failure')).toHaveLength(1);
  });

  it('sequence numbers: one counter per scope and key, created by the first $inc', () => {
    const counters = new MingoCollection();
    const next = (key: string) =>
      counters.findOneAndUpdate(nextSeqUpdate('t1', 'messages', key))?.seq;
    expect([next('s1'), next('s1'), next('s2'), next('s1')]).toEqual([1, 2, 1, 3]);
  });
});
