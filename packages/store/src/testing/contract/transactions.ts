// Store.transaction: the unit of work an interact request writes its step with. All or nothing,
// its own writes visible inside it, and nobody else's writes joined to it or lost with it.
import { describe, expect, it } from 'vitest';
import { VersionConflictError } from '../../port';
import { newTenant, sleep, useStore, type MakeStore } from './harness';

class Abort extends Error {}

export function transactionsContract(
  makeStore: MakeStore,
  options: {
    /**
     * Whether other writers run while a transaction is open. False only for @libsql/client on a
     * local file, which has no busy timeout (a remote libSQL server queues writers itself).
     */
    concurrentWriters?: boolean;
  } = {},
): void {
  const concurrent = options.concurrentWriters ?? true;
  describe('transactions', () => {
    const store = useStore(makeStore);
    const sessionWithTask = async (tenantId: string) => {
      const session = await store().sessions.create(tenantId, { userId: 'u1' });
      const task = await store().tasks.create(tenantId, {
        userId: 'u1',
        sessionId: session.id,
        url: 'https://example.com',
        query: 'q',
      });
      return { session, task };
    };

    it('commits every write of the work together and returns its result', async () => {
      const tenantId = await newTenant(store());
      const result = await store().transaction(async () => {
        const made = await sessionWithTask(tenantId);
        await store().messages.append(tenantId, {
          sessionId: made.session.id,
          role: 'user',
          content: 'hello',
        });
        // Its own writes are visible inside it.
        expect(await store().sessions.get(tenantId, made.session.id)).toEqual(made.session);
        expect(await store().tasks.get(tenantId, made.task.id)).toEqual(made.task);
        return made;
      });
      expect(await store().sessions.get(tenantId, result.session.id)).toEqual(result.session);
      expect(await store().tasks.get(tenantId, result.task.id)).toEqual(result.task);
      const messages = await store().messages.list(tenantId, result.session.id);
      expect(messages.map((message) => message.content)).toEqual(['hello']);
    });

    it('writes nothing when the work throws, and rethrows its error', async () => {
      const tenantId = await newTenant(store());
      const { session, task } = await sessionWithTask(tenantId);
      if (!store().atomicTransactions) return;
      let created = '';
      const failing = store().transaction(async () => {
        await store().tasks.update(
          tenantId,
          task.id,
          { status: 'completed' },
          { ifVersion: task.version },
        );
        await store().messages.append(tenantId, {
          sessionId: session.id,
          role: 'assistant',
          content: 'done',
        });
        created = (await store().sessions.create(tenantId, { userId: 'u1' })).id;
        throw new Abort('the step failed after its writes');
      });
      await expect(failing).rejects.toBeInstanceOf(Abort);
      expect(await store().tasks.get(tenantId, task.id)).toEqual(task);
      expect(await store().messages.list(tenantId, session.id)).toEqual([]);
      expect(created).not.toBe('');
      expect(await store().sessions.get(tenantId, created)).toBeNull();
    });

    it('rolls back on a lost compare-and-set, keeping the earlier writes of the work out', async () => {
      const tenantId = await newTenant(store());
      const { session, task } = await sessionWithTask(tenantId);
      await store().tasks.update(tenantId, task.id, { status: 'cancelled' });
      if (!store().atomicTransactions) return;
      await expect(
        store().transaction(async () => {
          await store().sessions.update(tenantId, session.id, { status: 'completed' });
          // Stale: the Stop above moved the task on.
          await store().tasks.update(
            tenantId,
            task.id,
            { status: 'completed' },
            { ifVersion: task.version },
          );
        }),
      ).rejects.toBeInstanceOf(VersionConflictError);
      expect(await store().sessions.get(tenantId, session.id)).toMatchObject({ status: 'active' });
      expect(await store().tasks.get(tenantId, task.id)).toMatchObject({ status: 'cancelled' });
    });

    it.runIf(concurrent)(
      'neither joins nor loses a write made outside it while it runs',
      async () => {
        const tenantId = await newTenant(store());
        const session = await store().sessions.create(tenantId, { userId: 'u1' });
        // Another request, outside the transaction's async context, writes while it is open.
        let opened = (): void => {};
        const outside = new Promise<void>((resolve) => (opened = resolve)).then(() =>
          store().messages.append(tenantId, {
            sessionId: session.id,
            role: 'user',
            content: 'outside',
          }),
        );
        const failing = store().transaction(async () => {
          await store().messages.append(tenantId, {
            sessionId: session.id,
            role: 'assistant',
            content: 'inside',
          });
          opened();
          await sleep(20);
          throw new Abort('rolled back');
        });
        await expect(failing).rejects.toBeInstanceOf(Abort);
        await outside;
        const contents = (await store().messages.list(tenantId, session.id)).map(
          (message) => message.content,
        );
        expect(contents).toContain('outside');
        if (store().atomicTransactions) expect(contents).toEqual(['outside']);
      },
    );

    it.runIf(concurrent)('runs concurrent transactions each whole', async () => {
      const tenantId = await newTenant(store());
      const session = await store().sessions.create(tenantId, { userId: 'u1' });
      await Promise.all(
        [0, 1, 2, 3].map((n) =>
          store().transaction(async () => {
            await store().messages.append(tenantId, {
              sessionId: session.id,
              role: 'user',
              content: `${n}a`,
            });
            await sleep(5);
            await store().messages.append(tenantId, {
              sessionId: session.id,
              role: 'user',
              content: `${n}b`,
            });
          }),
        ),
      );
      const contents = (await store().messages.list(tenantId, session.id)).map(
        (message) => message.content,
      );
      expect([...contents].sort()).toEqual(['0a', '0b', '1a', '1b', '2a', '2b', '3a', '3b']);
    });

    it('joins a transaction started inside it: one commit, one rollback', async () => {
      const tenantId = await newTenant(store());
      const session = await store().sessions.create(tenantId, { userId: 'u1' });
      const append = (content: string) =>
        store().messages.append(tenantId, { sessionId: session.id, role: 'user', content });
      await store().transaction(async () => {
        await append('outer');
        await store().transaction(() => append('inner'));
      });
      if (!store().atomicTransactions) return;
      await expect(
        store().transaction(async () => {
          await store().transaction(() => append('inner, rolled back'));
          throw new Abort('outer fails');
        }),
      ).rejects.toBeInstanceOf(Abort);
      const contents = (await store().messages.list(tenantId, session.id)).map(
        (message) => message.content,
      );
      expect(contents).toEqual(['outer', 'inner']);
    });
  });
}
