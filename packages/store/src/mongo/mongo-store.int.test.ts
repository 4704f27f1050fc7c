// The MongoDB adapter against the shared store contract, plus what only Mongo has (indexes with
// TTL/unique options, the official MongoDBSaver). Needs a real server: MONGODB_URI. None can run
// on our machines or in CI, so without it this file registers one skipped test and says why.
import { randomBytes } from 'node:crypto';
import {
  emptyCheckpoint,
  uuid6,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
} from '@langchain/langgraph-checkpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStoreContractSuite } from '../testing/contract-suite';
import { testEnv } from '../testing/env';
import { createMongoStore, type MongoStore } from './index';
import { COLLECTIONS, type MongoModels } from './schemas';

const uri = testEnv.MONGODB_URI;

/** A store on a database of its own, dropped again on close (the server may be shared). */
async function openTestStore(mongodbUri: string): Promise<MongoStore> {
  const store = await createMongoStore({
    uri: mongodbUri,
    dbName: `tandem_test_${randomBytes(6).toString('hex')}`,
  });
  return {
    ...store,
    async close() {
      try {
        await store.connection.dropDatabase();
      } finally {
        await store.close();
      }
    },
  };
}

if (uri === undefined) {
  console.info(
    'store contract suite: skipped MongoDB (MONGODB_URI is not set; no MongoDB server is available here)',
  );
  it.skip('store contract: mongodb (set MONGODB_URI to run it)', () => {});
} else {
  runStoreContractSuite('mongodb', () => openTestStore(uri));
  mongoSpecifics(uri);
}

interface IndexInfo {
  name?: string;
  key: Record<string, unknown>;
  unique?: boolean;
  expireAfterSeconds?: number;
}

function mongoSpecifics(mongodbUri: string): void {
  describe('mongodb store specifics', () => {
    let store: MongoStore;
    beforeAll(async () => {
      store = await openTestStore(mongodbUri);
    }, 60_000);
    afterAll(async () => {
      await store?.close();
    });

    const indexesOf = async (collection: string): Promise<IndexInfo[]> => {
      const db = store.connection.db;
      if (!db) throw new Error('connection is not open');
      return (await db.collection(collection).indexes()) as IndexInfo[];
    };
    const findIndex = (list: IndexInfo[], key: Record<string, number>) =>
      list.find((index) => JSON.stringify(index.key) === JSON.stringify(key));

    it('builds the skills TTL, lookup and dedupe indexes', async () => {
      const skills = await indexesOf(COLLECTIONS.skills);
      expect(findIndex(skills, { lastUsed: 1 })?.expireAfterSeconds).toBe(90 * 24 * 60 * 60);
      expect(findIndex(skills, { tenantId: 1, domain: 1, goal: 1 })).toBeDefined();
      expect(
        findIndex(skills, {
          tenantId: 1,
          domain: 1,
          goal: 1,
          'failedState.action': 1,
          'successfulAction.action': 1,
        })?.unique,
      ).toBe(true);
    });

    it('builds every unique index the repositories rely on', async () => {
      const unique: [keyof MongoModels, Record<string, number>][] = [
        ['tenants', { id: 1 }],
        ['apiKeys', { keyHash: 1 }],
        ['idempotency', { tenantId: 1, key: 1 }],
        ['collectedItems', { tenantId: 1, taskId: 1, type: 1, uniqueKey: 1 }],
        ['tokenUsage', { id: 1 }],
        ['extractionStrategies', { tenantId: 1, urlPattern: 1, schemaHash: 1, cssSelector: 1 }],
        ['extractionResults', { tenantId: 1, id: 1 }],
        ['messages', { tenantId: 1, sessionId: 1, seq: 1 }],
        ['tasks', { tenantId: 1, id: 1 }],
        ['rateLimits', { key: 1 }],
        ['counters', { tenantId: 1, scope: 1, key: 1 }],
        ['knowledgeSettings', { tenantId: 1 }],
        ['knowledgeJobs', { tenantId: 1, id: 1 }],
        ['uploads', { tenantId: 1, id: 1 }],
        ['uploadChunks', { tenantId: 1, uploadId: 1, n: 1 }],
        ['queuedJobs', { queue: 1, id: 1 }],
        ['liveEvents', { seq: 1 }],
      ];
      for (const [model, key] of unique) {
        const found = findIndex(await indexesOf(COLLECTIONS[model]), key);
        expect([model, key, found?.unique]).toEqual([model, key, true]);
      }
      expect(
        findIndex(await indexesOf(COLLECTIONS.idempotency), { expiresAt: 1 })?.expireAfterSeconds,
      ).toBe(0);
    });

    it('leads every index of a tenant-owned collection with tenantId', async () => {
      const exempt = new Set([
        '_id_',
        'apiKeys:{"keyHash":1}',
        'tokenUsage:{"id":1}',
        'skills:{"lastUsed":1}',
        'idempotency:{"expiresAt":1}',
        'knowledgeJobs:{"status":1,"createdAt":1,"id":1}', // listUnfinished spans tenants
        'uploads:{"createdAt":1,"id":1}', // the sweep of forgotten uploads spans tenants
        // Keyed by (queue, id); workers claim across a queue's tenants.
        'queuedJobs:{"queue":1,"id":1}',
        'queuedJobs:{"queue":1,"status":1,"runAt":1}',
        'queuedJobs:{"queue":1,"status":1,"leaseExpiresAt":1}',
      ]);
      // Live events are store-wide: the channel names the tenant (unique seq, channel + seq).
      const tenantOwned = (Object.keys(COLLECTIONS) as (keyof MongoModels)[]).filter(
        (model) => model !== 'tenants' && model !== 'rateLimits' && model !== 'liveEvents',
      );
      for (const model of tenantOwned) {
        for (const index of await indexesOf(COLLECTIONS[model])) {
          const label = `${model}:${JSON.stringify(index.key)}`;
          if (index.name === '_id_' || exempt.has(label)) continue;
          expect([label, Object.keys(index.key)[0]]).toEqual([label, 'tenantId']);
        }
      }
    });

    it('builds the chunks text index and stores embeddings as doubles', async () => {
      const chunkIndexes = await indexesOf(COLLECTIONS.knowledgeChunks);
      const text = chunkIndexes.find((index) => index.name === 'knowledge_chunks_text');
      expect(text?.key).toMatchObject({ tenantId: 1, _fts: 'text' });

      const tenant = await store.tenants.create({ name: 'vectors' });
      const doc = await store.knowledge.createDocument(tenant.id, {
        domain: 'a.test',
        title: 'd',
        mimeType: 'text/plain',
      });
      const [chunk] = await store.knowledge.addChunks(tenant.id, doc.id, [
        { ordinal: 0, content: 'x', embedding: [1, 0, 0.5] },
      ]);
      // Atlas Vector Search indexes arrays of doubles: integral values must not become int32.
      const doubles = await store.models.knowledgeChunks.collection.countDocuments({
        tenantId: tenant.id,
        id: chunk?.id,
        embedding: { $not: { $elemMatch: { $not: { $type: 'double' } } } },
      });
      expect(doubles).toBe(1);
      expect(chunk?.embedding).toEqual([1, 0, 0.5]);
    });

    it('stores times as dates and hands back plain records', async () => {
      const tenant = await store.tenants.create({ name: 'dates' });
      const task = await store.tasks.create(tenant.id, {
        userId: 'u',
        url: 'https://a.test',
        query: 'q',
      });
      const raw = await store.models.tasks.collection.findOne({ tenantId: tenant.id, id: task.id });
      expect(raw?.createdAt).toBeInstanceOf(Date);
      expect(raw?.updatedAt).toBeInstanceOf(Date);
      const fetched = await store.tasks.get(tenant.id, task.id);
      expect(Object.keys(fetched ?? {})).not.toContain('_id');
      expect(Object.keys(fetched ?? {})).not.toContain('__v');
      expect(fetched).toEqual(task);
    });

    it("stores a null selector as null and a result's errors as extractionErrors", async () => {
      const tenant = await store.tenants.create({ name: 'extraction' });
      const strategy = await store.extractionStrategies.upsert(tenant.id, {
        domain: 'a.test',
        urlPattern: 'https://a.test/*',
        cssSelector: null,
        outputSchema: { type: 'object' },
        schemaHash: 'h',
        queryTemplate: 'q',
      });
      const rawStrategy = await store.models.extractionStrategies.collection.findOne({
        tenantId: tenant.id,
        id: strategy.id,
      });
      // Written by the upsert's filter equality, so the unique index sees null, not a gap.
      expect(rawStrategy).toHaveProperty('cssSelector', null);

      const errors = [
        {
          kind: 'empty' as const,
          message: 'nothing matched',
          chunkIndex: null,
          retries: 0,
          retriesExhausted: false,
          fallbackUsed: false,
        },
      ];
      const result = await store.extractionResults.create(tenant.id, {
        taskId: null,
        extractionId: null,
        query: 'q',
        sourceUrl: null,
        data: 'text',
        schemaUsed: null,
        isPartial: false,
        method: 'model',
        contentStats: {
          sourceChars: 1,
          markdownChars: 1,
          chunks: 1,
          failedChunks: 0,
          structuralContext: [],
          items: null,
          modelCalls: 1,
          inputTokens: 1,
          outputTokens: 1,
          costMicroUsd: 1,
          durationMs: 1,
        },
        warnings: [],
        errors,
      });
      const rawResult = await store.models.extractionResults.collection.findOne({
        tenantId: tenant.id,
        id: result.id,
      });
      expect(rawResult).toHaveProperty('extractionErrors', errors);
      expect(rawResult).not.toHaveProperty('errors');
      expect(rawResult?.createdAt).toBeInstanceOf(Date);
      expect(await store.extractionResults.get(tenant.id, result.id)).toEqual(result);
    });

    it('round-trips checkpoints through the official MongoDBSaver in the same database', async () => {
      const saver = store.checkpointer;
      const threadId = `task-${randomBytes(4).toString('hex')}`;
      const checkpoint: Checkpoint = {
        ...emptyCheckpoint(),
        id: uuid6(-1),
        channel_values: { messages: ['hello', { role: 'ai', content: 'hi' }] },
        channel_versions: { messages: 1 },
      };
      const metadata: CheckpointMetadata = { source: 'input', step: -1, parents: {} };
      const saved = await saver.put(
        { configurable: { thread_id: threadId, checkpoint_ns: '' } },
        checkpoint,
        metadata,
        { messages: 1 },
      );
      await saver.putWrites(saved, [['messages', ['again']]], 'node-1');

      const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
      expect(tuple?.checkpoint).toEqual(checkpoint);
      expect(tuple?.metadata).toEqual(metadata);
      expect(tuple?.pendingWrites).toEqual([['node-1', 'messages', ['again']]]);

      const listed: CheckpointTuple[] = [];
      for await (const item of saver.list({ configurable: { thread_id: threadId } })) {
        listed.push(item);
      }
      expect(listed.map((t) => t.checkpoint.id)).toEqual([checkpoint.id]);

      const db = store.checkpointClient.db(store.connection.name);
      const collections = (await db.listCollections().toArray()).map((c) => c.name);
      expect(collections).toEqual(expect.arrayContaining(['checkpoints', 'checkpoint_writes']));

      await saver.deleteThread(threadId);
      expect(await saver.getTuple({ configurable: { thread_id: threadId } })).toBeUndefined();
    });

    it('opens a second store on an existing database (index sync is idempotent)', async () => {
      const again = await createMongoStore({ uri: mongodbUri, dbName: store.connection.name });
      try {
        expect((await again.health()).ok).toBe(true);
      } finally {
        await again.close();
      }
    });
  });
}
