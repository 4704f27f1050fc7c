// The defaults both adapters store for omitted fields, checked without a store: each builder
// fills what is absent, keeps what is given, and never lets two records share a mutable default.
import { describe, expect, it } from 'vitest';
import { newMessageRecord, newSessionRecord } from './record';

const NOW = '2025-03-04T05:06:07.089Z';
const T = 'tenant-1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newSessionRecord / newMessageRecord', () => {
  it('opens a session active, with no url or title, created and updated now', () => {
    expect(newSessionRecord(T, { userId: 'u1' }, NOW)).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      userId: 'u1',
      status: 'active',
      url: null,
      title: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('keeps a given session id, url and title', () => {
    const given = { userId: 'u1', id: 's1', url: 'https://a.example/', title: 'A' };
    expect(newSessionRecord(T, given, NOW)).toMatchObject(given);
  });

  it('nulls every optional message field and leaves seq to the store', () => {
    const message = newMessageRecord(T, { sessionId: 's1', role: 'user', content: 'hi' }, NOW);
    expect(message).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      sessionId: 's1',
      role: 'user',
      content: 'hi',
      actionString: null,
      taskId: null,
      status: null,
      error: null,
      domSummary: null,
      createdAt: NOW,
    });
    expect(message).not.toHaveProperty('seq');
  });

  it('keeps given message fields', () => {
    const given = {
      sessionId: 's1',
      role: 'assistant' as const,
      content: 'ok',
      id: 'm1',
      actionString: 'click(3)',
      taskId: 'task-1',
      status: 'failure' as const,
      error: 'gone',
      domSummary: '<button>',
    };
    expect(newMessageRecord(T, given, NOW)).toEqual({ ...given, tenantId: T, createdAt: NOW });
  });
});
