// Sessions and messages.
import { describe, expect, it } from 'vitest';
import type { Session } from '../../port';
import { expectIso, newTenant, tick, uniq, useStore, type MakeStore } from './harness';

export function conversationsContract(makeStore: MakeStore): void {
  describe('sessions', () => {
    const store = useStore(makeStore);

    it('creates with defaults and gets', async () => {
      const tenantId = await newTenant(store());
      const session = await store().sessions.create(tenantId, { userId: 'u1' });
      expect(session).toMatchObject({
        tenantId,
        userId: 'u1',
        status: 'active',
        url: null,
        title: null,
      });
      expectIso(session.createdAt);
      expectIso(session.updatedAt);
      expect(await store().sessions.get(tenantId, session.id)).toEqual(session);
      expect(await store().sessions.get(tenantId, uniq('missing'))).toBeNull();
    });

    it('keeps a given id, url and title', async () => {
      const tenantId = await newTenant(store());
      const id = uniq('session');
      const session = await store().sessions.create(tenantId, {
        id,
        userId: 'u1',
        url: 'https://example.com/a',
        title: 'A',
      });
      expect(session).toMatchObject({ id, url: 'https://example.com/a', title: 'A' });
    });

    it('updates only the patched fields', async () => {
      const tenantId = await newTenant(store());
      const session = await store().sessions.create(tenantId, {
        userId: 'u1',
        url: 'https://example.com',
        title: 'old',
      });
      await tick();
      const updated = await store().sessions.update(tenantId, session.id, {
        status: 'completed',
        title: 'new',
      });
      expect(updated).toMatchObject({
        id: session.id,
        status: 'completed',
        title: 'new',
        url: 'https://example.com',
        createdAt: session.createdAt,
      });
      expect(updated && updated.updatedAt > session.updatedAt).toBe(true);
      expect(await store().sessions.get(tenantId, session.id)).toEqual(updated);
      expect(await store().sessions.update(tenantId, session.id, { url: null })).toMatchObject({
        url: null,
        title: 'new',
      });
      expect(await store().sessions.update(tenantId, uniq('missing'), { title: 'x' })).toBeNull();
    });

    it('pages a user’s sessions with a cursor', async () => {
      const tenantId = await newTenant(store());
      const mine: Session[] = [];
      for (let i = 0; i < 5; i += 1) {
        mine.push(await store().sessions.create(tenantId, { userId: 'u1', title: `s${i}` }));
        await tick();
      }
      await store().sessions.create(tenantId, { userId: 'u2' });

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await store().sessions.listByUser(tenantId, 'u1', { limit: 2, cursor });
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items.map((s) => s.id));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== null && pages < 10);
      expect(pages).toBe(3);
      expect(new Set(seen).size).toBe(5);
      expect(seen.sort()).toEqual(mine.map((s) => s.id).sort());

      const all = await store().sessions.listByUser(tenantId, 'u1');
      expect(all.items).toHaveLength(5);
      expect(all.nextCursor).toBeNull();
      expect((await store().sessions.listByUser(tenantId, 'nobody')).items).toEqual([]);
    });
  });

  describe('messages', () => {
    const store = useStore(makeStore);

    it('appends with defaults and a per-session seq', async () => {
      const tenantId = await newTenant(store());
      const session = await store().sessions.create(tenantId, { userId: 'u1' });
      const first = await store().messages.append(tenantId, {
        sessionId: session.id,
        role: 'user',
        content: 'find shoes',
      });
      expect(first).toMatchObject({
        tenantId,
        sessionId: session.id,
        role: 'user',
        content: 'find shoes',
        actionString: null,
        taskId: null,
        status: null,
        error: null,
        domSummary: null,
      });
      expectIso(first.createdAt);
      const second = await store().messages.append(tenantId, {
        id: uniq('msg'),
        sessionId: session.id,
        role: 'assistant',
        content: 'clicking',
        actionString: 'click(12)',
        taskId: 'task-1',
        status: 'pending',
        error: null,
        domSummary: '<button id=12>',
      });
      expect(second.seq).toBeGreaterThan(first.seq);
      expect(second).toMatchObject({
        actionString: 'click(12)',
        status: 'pending',
        taskId: 'task-1',
      });

      // Another session numbers on its own.
      const other = await store().sessions.create(tenantId, { userId: 'u1' });
      const otherFirst = await store().messages.append(tenantId, {
        sessionId: other.id,
        role: 'user',
        content: 'x',
      });
      expect(otherFirst.seq).toBe(first.seq);
    });

    it('keeps seq unique and ordered under concurrent appends', async () => {
      const tenantId = await newTenant(store());
      const session = await store().sessions.create(tenantId, { userId: 'u1' });
      const appended = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          store().messages.append(tenantId, {
            sessionId: session.id,
            role: 'user',
            content: `m${i}`,
          }),
        ),
      );
      expect(new Set(appended.map((m) => m.seq)).size).toBe(10);
      const listed = await store().messages.list(tenantId, session.id);
      expect(listed.map((m) => m.seq)).toEqual(appended.map((m) => m.seq).sort((a, b) => a - b));
    });

    it('lists oldest first and keeps the newest `limit`', async () => {
      const tenantId = await newTenant(store());
      const session = await store().sessions.create(tenantId, { userId: 'u1' });
      for (const content of ['a', 'b', 'c', 'd']) {
        await store().messages.append(tenantId, { sessionId: session.id, role: 'user', content });
      }
      const all = await store().messages.list(tenantId, session.id);
      expect(all.map((m) => m.content)).toEqual(['a', 'b', 'c', 'd']);
      const lastTwo = await store().messages.list(tenantId, session.id, { limit: 2 });
      expect(lastTwo.map((m) => m.content)).toEqual(['c', 'd']);
      expect(await store().messages.list(tenantId, uniq('missing'))).toEqual([]);
    });

    it('updates the status of the newest message only', async () => {
      const tenantId = await newTenant(store());
      const session = await store().sessions.create(tenantId, { userId: 'u1' });
      expect(
        await store().messages.updateLast(tenantId, session.id, { status: 'success' }),
      ).toBeNull();
      const older = await store().messages.append(tenantId, {
        sessionId: session.id,
        role: 'assistant',
        content: 'one',
        status: 'pending',
      });
      const newer = await store().messages.append(tenantId, {
        sessionId: session.id,
        role: 'assistant',
        content: 'two',
        status: 'pending',
      });
      const updated = await store().messages.updateLast(tenantId, session.id, {
        status: 'failure',
        error: 'element not found',
      });
      expect(updated).toMatchObject({
        id: newer.id,
        status: 'failure',
        error: 'element not found',
      });
      const [first, second] = await store().messages.list(tenantId, session.id);
      expect(first).toEqual(older);
      expect(second).toEqual(updated);
    });
  });
}
