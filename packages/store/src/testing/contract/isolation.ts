// Tenant isolation: with tenant B's ids, tenant A can neither read (null / empty) nor change
// (null / false / 0) anything, and B's records are unchanged afterwards.
import { describe, expect, it } from 'vitest';
import type { Store } from '../../port';
import { resultInput } from './extraction-results';
import {
  actionInput,
  isoAt,
  newTenant,
  uniq,
  usageInput,
  useStore,
  type MakeStore,
} from './harness';

async function twoTenants(store: Store): Promise<{ a: string; b: string }> {
  return { a: await newTenant(store), b: await newTenant(store) };
}

const FUTURE = (): string => isoAt(Date.now() + 60 * 60 * 1000);

export function isolationContract(makeStore: MakeStore): void {
  describe('tenant isolation', () => {
    const store = useStore(makeStore);

    it('apiKeys', async () => {
      const { a, b } = await twoTenants(store());
      const { record, plaintextKey } = await store().apiKeys.create(b, { userId: 'ub', name: 'k' });
      expect(await store().apiKeys.list(a)).toEqual([]);
      await store().apiKeys.touch(a, record.id, isoAt(Date.now()));
      expect(await store().apiKeys.revoke(a, record.id)).toBe(false);
      expect(await store().apiKeys.findByPlaintext(plaintextKey)).toEqual(record);
      expect(await store().apiKeys.list(b)).toEqual([record]);
    });

    it('sessions and messages', async () => {
      const { a, b } = await twoTenants(store());
      const session = await store().sessions.create(b, { userId: 'ub', title: 'b' });
      const message = await store().messages.append(b, {
        sessionId: session.id,
        role: 'assistant',
        content: 'b',
        status: 'pending',
      });
      expect(await store().sessions.get(a, session.id)).toBeNull();
      expect(await store().sessions.update(a, session.id, { title: 'hacked' })).toBeNull();
      expect((await store().sessions.listByUser(a, 'ub')).items).toEqual([]);
      expect(await store().messages.list(a, session.id)).toEqual([]);
      expect(await store().messages.updateLast(a, session.id, { status: 'failure' })).toBeNull();
      // Appending under A with B's session id writes A's own row, never into B's session.
      await store().messages.append(a, { sessionId: session.id, role: 'user', content: 'a' });

      expect(await store().sessions.get(b, session.id)).toEqual(session);
      expect(await store().messages.list(b, session.id)).toEqual([message]);
    });

    it('tasks and task actions', async () => {
      const { a, b } = await twoTenants(store());
      const task = await store().tasks.create(b, {
        userId: 'ub',
        url: 'https://b.test/',
        query: 'b',
        sessionId: 'sb',
      });
      const action = await store().taskActions.insert(b, actionInput(task.id, 0));
      expect(await store().tasks.get(a, task.id)).toBeNull();
      expect(await store().tasks.update(a, task.id, { status: 'failed' })).toBeNull();
      expect(
        await store().tasks.update(a, task.id, { status: 'failed' }, { ifVersion: task.version }),
      ).toBeNull();
      expect((await store().tasks.list(a)).items).toEqual([]);
      expect((await store().tasks.list(a, { sessionId: 'sb', userId: 'ub' })).items).toEqual([]);
      expect(await store().tasks.findActive(a, { sessionId: 'sb' })).toBeNull();
      expect(await store().tasks.expireStale(a, { olderThan: FUTURE(), sessionId: 'sb' })).toBe(0);
      expect(await store().tasks.expireStale(a, { olderThan: FUTURE() })).toBe(0);

      expect(await store().taskActions.get(a, action.id)).toBeNull();
      expect(await store().taskActions.listByTask(a, task.id)).toEqual([]);
      expect(await store().taskActions.getLast(a, task.id)).toBeNull();
      expect(await store().taskActions.update(a, action.id, { status: 'failure' })).toBeNull();

      expect(await store().tasks.get(b, task.id)).toEqual(task);
      expect(await store().taskActions.listByTask(b, task.id)).toEqual([action]);
    });

    it('tokenUsage', async () => {
      const { a, b } = await twoTenants(store());
      const log = usageInput({ taskId: 'tb' });
      await store().tokenUsage.append(b, log);
      expect(await store().tokenUsage.list(a)).toEqual([]);
      expect(await store().tokenUsage.list(a, { taskId: 'tb' })).toEqual([]);
      for (const groupBy of ['day', 'model', 'actionType', 'user'] as const) {
        expect(await store().tokenUsage.rollup(a, { groupBy })).toEqual([]);
      }
      expect(await store().tokenUsage.list(b)).toEqual([{ ...log, tenantId: b }]);
    });

    it('skills', async () => {
      const { a, b } = await twoTenants(store());
      const input = {
        domain: 'b.test',
        goal: 'g',
        failedState: { action: 'click(1)', elementDescription: 'x', errorType: 'E' },
        successfulAction: { action: 'click(2)', elementDescription: 'y', strategy: 'S' },
      };
      const skill = await store().skills.upsert(b, input);
      expect(await store().skills.get(a, skill.id)).toBeNull();
      expect(await store().skills.find(a, { domain: 'b.test' })).toEqual([]);
      expect(await store().skills.recordOutcome(a, skill.id, false)).toBeNull();
      expect(await store().skills.count(a)).toBe(0);
      // The same dedupe key under A is A's own skill, not a bump of B's.
      const mine = await store().skills.upsert(a, input);
      expect(mine.id).not.toBe(skill.id);
      expect(mine.successCount).toBe(1);

      expect(await store().skills.get(b, skill.id)).toEqual(skill);
      expect(await store().skills.count(b)).toBe(1);
    });

    it('knowledge', async () => {
      const { a, b } = await twoTenants(store());
      const doc = await store().knowledge.createDocument(b, {
        domain: 'b.test',
        title: 'b',
        mimeType: 'text/plain',
      });
      const chunks = await store().knowledge.addChunks(b, doc.id, [{ ordinal: 0, content: 'b' }]);
      const chunkId = chunks[0]?.id ?? '';
      expect(await store().knowledge.getDocument(a, doc.id)).toBeNull();
      expect(await store().knowledge.listDocuments(a)).toEqual([]);
      expect(await store().knowledge.listDocuments(a, { domain: 'b.test' })).toEqual([]);
      expect(await store().knowledge.updateDocument(a, doc.id, { title: 'hacked' })).toBeNull();
      expect(await store().knowledge.deleteDocument(a, doc.id)).toBe(false);
      await store()
        .knowledge.addChunks(a, doc.id, [{ ordinal: 1, content: 'a' }])
        .catch(() => []);
      expect(await store().knowledge.listChunks(a, { documentId: doc.id })).toEqual([]);
      expect(await store().knowledge.listChunks(a, { domain: 'b.test' })).toEqual([]);
      expect(await store().knowledge.markSuperseded(a, [chunkId], uniq('chunk'))).toBe(0);

      expect(await store().knowledge.getDocument(b, doc.id)).toEqual(doc);
      expect(
        await store().knowledge.listChunks(b, { documentId: doc.id, includeSuperseded: true }),
      ).toEqual(chunks);
    });

    it('knowledge search, counters and settings', async () => {
      const { a, b } = await twoTenants(store());
      const doc = await store().knowledge.createDocument(b, {
        domain: 'b.test',
        title: 'b',
        mimeType: 'text/plain',
        sourceUrl: 'https://b.test/secret',
        metadata: { sizeBytes: 42 },
      });
      const chunks = await store().knowledge.addChunks(b, doc.id, [
        { ordinal: 0, content: 'secret pricing formula', embedding: [1, 0, 0, 0] },
      ]);
      await store().knowledge.updateSettings(b, { allowedDomains: ['b.test'] });

      const lexical = { domains: ['b.test'], query: 'secret pricing', limit: 10 };
      const vector = { domains: ['b.test'], embedding: [1, 0, 0, 0], limit: 10 };
      expect(await store().knowledge.searchLexical(a, lexical)).toEqual([]);
      expect(await store().knowledge.searchVector(a, vector)).toEqual([]);
      expect(await store().knowledge.hasChunks(a, ['b.test'])).toBe(false);
      expect(await store().knowledge.countChunks(a)).toEqual({});
      expect(await store().knowledge.usage(a)).toEqual({ documents: 0, chunks: 0, bytes: 0 });
      expect(
        await store().knowledge.listDocuments(a, { sourceUrl: 'https://b.test/secret' }),
      ).toEqual([]);
      expect(await store().knowledge.getSettings(a)).toEqual({
        tenantId: a,
        allowedDomains: [],
        updatedAt: null,
      });
      // A's own settings never overwrite B's.
      await store().knowledge.updateSettings(a, { allowedDomains: ['a.test'] });

      // Search results are the stored chunks without their vectors.
      const found = chunks.map((chunk) => ({ ...chunk, embedding: null }));
      expect((await store().knowledge.searchLexical(b, lexical)).map((r) => r.chunk)).toEqual(
        found,
      );
      expect((await store().knowledge.searchVector(b, vector)).map((r) => r.chunk)).toEqual(found);
      expect(await store().knowledge.usage(b)).toEqual({ documents: 1, chunks: 1, bytes: 42 });
      expect((await store().knowledge.getSettings(b)).allowedDomains).toEqual(['b.test']);
    });

    it('knowledge jobs', async () => {
      const { a, b } = await twoTenants(store());
      const job = await store().knowledgeJobs.create(b, {
        url: 'https://b.test/',
        strategy: 'single',
        maxPages: 1,
        maxDepth: 0,
        domain: 'b.test',
      });
      expect(await store().knowledgeJobs.get(a, job.id)).toBeNull();
      expect(await store().knowledgeJobs.list(a)).toEqual([]);
      expect(await store().knowledgeJobs.list(a, { status: ['queued'] })).toEqual([]);
      expect(await store().knowledgeJobs.update(a, job.id, { status: 'cancelled' })).toBeNull();

      expect(await store().knowledgeJobs.get(b, job.id)).toEqual(job);
      expect(await store().knowledgeJobs.list(b)).toEqual([job]);
    });

    it('extractions and extraction strategies', async () => {
      const { a, b } = await twoTenants(store());
      const extraction = await store().extractions.create(b, {
        url: 'https://b.test/',
        schema: { type: 'object' },
        taskId: 'tb',
      });
      const key = {
        domain: 'b.test',
        urlPattern: 'https://b.test/*',
        cssSelector: null,
        outputSchema: { type: 'object' },
        schemaHash: 'h',
        queryTemplate: 'b',
      };
      const strategy = await store().extractionStrategies.upsert(b, { ...key, replay: { b: 1 } });

      expect(await store().extractions.get(a, extraction.id)).toBeNull();
      expect(await store().extractions.list(a)).toEqual([]);
      expect(await store().extractions.list(a, { taskId: 'tb' })).toEqual([]);
      expect(await store().extractions.update(a, extraction.id, { status: 'failed' })).toBeNull();
      expect(await store().extractionStrategies.get(a, strategy.id)).toBeNull();
      expect(await store().extractionStrategies.listByDomain(a, 'b.test')).toEqual([]);
      expect(await store().extractionStrategies.recordResult(a, strategy.id, false)).toBeNull();
      expect(await store().extractionStrategies.setReplay(a, strategy.id, { a: 1 })).toBeNull();
      expect(await store().extractionStrategies.delete(a, strategy.id)).toBe(false);
      // The same key under A is A's own strategy, not a replacement of B's.
      const mine = await store().extractionStrategies.upsert(a, {
        ...key,
        queryTemplate: 'a',
        replay: { a: 1 },
      });
      expect(mine.id).not.toBe(strategy.id);

      expect(await store().extractions.get(b, extraction.id)).toEqual(extraction);
      expect(await store().extractionStrategies.get(b, strategy.id)).toEqual(strategy);
      expect(await store().extractionStrategies.listByDomain(b, 'b.test')).toEqual([strategy]);
    });

    it('extraction results', async () => {
      const { a, b } = await twoTenants(store());
      const result = await store().extractionResults.create(b, resultInput({ taskId: 'tb' }));
      expect(await store().extractionResults.get(a, result.id)).toBeNull();
      expect(await store().extractionResults.listByTask(a, 'tb')).toEqual([]);
      expect(
        await store().extractionResults.listByTask(a, 'tb', { extractionId: 'strategy-1' }),
      ).toEqual([]);
      // A result under A with B's task id is A's own, never listed for B.
      await store().extractionResults.create(a, resultInput({ taskId: 'tb' }));

      expect(await store().extractionResults.get(b, result.id)).toEqual(result);
      expect(await store().extractionResults.listByTask(b, 'tb')).toEqual([result]);
    });

    it('collectedItems', async () => {
      const { a, b } = await twoTenants(store());
      const { item } = await store().collectedItems.insert(b, {
        taskId: 'tb',
        type: 'job',
        uniqueKey: 'k1',
        data: { owner: 'b' },
      });
      expect(await store().collectedItems.list(a, 'tb')).toEqual([]);
      expect(await store().collectedItems.countByType(a, 'tb')).toEqual({});
      // Same (task, type, key) under A is A's own item, not a duplicate of B's.
      const mine = await store().collectedItems.insert(a, {
        taskId: 'tb',
        type: 'job',
        uniqueKey: 'k1',
        data: { owner: 'a' },
      });
      expect(mine.inserted).toBe(true);
      expect(mine.item.id).not.toBe(item.id);

      expect(await store().collectedItems.list(b, 'tb')).toEqual([item]);
    });

    it('idempotency', async () => {
      const { a, b } = await twoTenants(store());
      const key = uniq('idem');
      const record = await store().idempotency.begin(b, {
        key,
        scope: 'interact',
        requestHash: 'hb',
        ttlMs: 60_000,
      });
      expect(await store().idempotency.get(a, key)).toBeNull();
      expect(await store().idempotency.complete(a, key, { stolen: true })).toBeNull();
      expect(await store().idempotency.release(a, key)).toBe(false);
      await store().idempotency.begin(a, {
        key,
        scope: 'interact',
        requestHash: 'ha',
        ttlMs: 60_000,
      });

      expect(await store().idempotency.get(b, key)).toEqual(record);
    });
  });
}
