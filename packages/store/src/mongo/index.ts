// The MongoDB store: the production adapter and the scale-out path (replica sets, Atlas).
// Repositories run on their own mongoose connection (never the global one); the LangGraph
// checkpointer is the official MongoDBSaver on its own MongoClient, because the saver is typed
// against the mongodb v6 driver while mongoose 9 bundles v7. Both point at the same database.
import { AsyncLocalStorage } from 'node:async_hooks';
import { MongoDBSaver } from '@langchain/langgraph-checkpoint-mongodb';
import { MongoClient } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { CheckpointSerializer } from '../checkpoint-serde';
import type { Store, StoreHealth } from '../port';
import { createModels, type MongoModels } from './schemas';
import { mongoCollectedItems } from '../entities/collected-item/mongo';
import { mongoDocumentExtractions, mongoDocuments } from '../entities/document/mongo';
import { mongoExtractionStrategies, mongoExtractions } from '../entities/extraction/mongo';
import { mongoExtractionResults } from '../entities/extraction/mongo-results';
import { mongoIdempotency, mongoRateLimits } from '../entities/idempotency/mongo';
import { mongoKnowledge } from '../entities/knowledge/mongo';
import { mongoKnowledgeJobs } from '../entities/knowledge/mongo-jobs';
import { ensureKnowledgeVectorIndex } from '../entities/knowledge/mongo-vector-index';
import { mongoLiveEvents } from '../entities/live-event/mongo';
import { mongoQueuedJobs } from '../entities/queued-job/mongo';
import { mongoMessages, mongoSessions } from '../entities/session/mongo';
import { mongoSkills } from '../entities/skill/mongo';
import { mongoStacks } from '../entities/stack/mongo';
import { mongoRoutines } from '../entities/routine/mongo';
import { mongoTaskActions, mongoTasks } from '../entities/task/mongo';
import { mongoApiKeys, mongoTenants } from '../entities/tenant/mongo';
import { mongoTokenUsage } from '../entities/token-usage/mongo';
import { mongoUploads } from '../entities/upload/mongo';

export interface MongoStoreOptions {
  uri: string;
  /** Database name; defaults to the one in the URI (or the driver's default). */
  dbName?: string;
  /** How long start-up waits for a server before failing (default 10 s). */
  serverSelectionTimeoutMS?: number;
  /**
   * Embedding dimensions whose Atlas Vector Search index start-up creates when missing (the
   * store also creates one on the first write of a new dimension). Ignored without Atlas.
   */
  embeddingDimensions?: readonly number[];
}

/** The Store, plus the handles operations and the Mongo-specific tests need. */
export interface MongoStore extends Store {
  readonly kind: 'mongodb';
  readonly connection: Connection;
  readonly models: MongoModels;
  readonly checkpointClient: MongoClient;
}

// Operations inside connection.transaction() pick up its session from the async context, so the
// repositories need no session parameter (Store.transaction). Global, and only this store uses
// mongoose in the process.
mongoose.set('transactionAsyncLocalStorage', true);
/** Set inside Store.transaction, so a nested one joins the outer one. */
const insideTransaction = new AsyncLocalStorage<true>();

export async function createMongoStore(options: MongoStoreOptions): Promise<MongoStore> {
  const serverSelectionTimeoutMS = options.serverSelectionTimeoutMS ?? 10_000;
  const connection = mongoose.createConnection(options.uri, {
    ...(options.dbName !== undefined ? { dbName: options.dbName } : {}),
    serverSelectionTimeoutMS,
    // Indexes are built below, once and awaited, not lazily per model in the background.
    autoIndex: false,
    autoCreate: false,
  });
  let checkpointClient: MongoClient | undefined;
  try {
    await connection.asPromise();
    const models = createModels(connection);
    // syncIndexes also drops indexes that the schemas no longer declare, so an index change
    // ships with the code. Sequential: index builds on one server compete anyway.
    for (const model of Object.values(models)) await model.syncIndexes();
    // Search indexes are not B-tree indexes: syncIndexes leaves them alone, and a server
    // without Atlas Search says so (ensureKnowledgeVectorIndex then resolves false).
    for (const dimensions of new Set(options.embeddingDimensions ?? [])) {
      await ensureKnowledgeVectorIndex(models.knowledgeChunks, dimensions);
    }

    checkpointClient = new MongoClient(options.uri, { serverSelectionTimeoutMS });
    await checkpointClient.connect();
    // The database mongoose actually opened (URI default included), so both share one.
    const checkpointer = new MongoDBSaver(
      { client: checkpointClient, dbName: connection.name },
      new CheckpointSerializer(),
    );
    const [setupError] = await checkpointer.setup();
    if (setupError) throw setupError;

    const client = checkpointClient;
    const transactions = await supportsTransactions(connection);
    return {
      kind: 'mongodb',
      connection,
      models,
      checkpointClient: client,
      tenants: mongoTenants(models),
      apiKeys: mongoApiKeys(models),
      sessions: mongoSessions(models),
      messages: mongoMessages(models),
      tasks: mongoTasks(models),
      taskActions: mongoTaskActions(models),
      tokenUsage: mongoTokenUsage(models),
      skills: mongoSkills(models),
      knowledge: mongoKnowledge(models),
      knowledgeJobs: mongoKnowledgeJobs(models),
      uploads: mongoUploads(models),
      queuedJobs: mongoQueuedJobs(models),
      liveEvents: mongoLiveEvents(models),
      extractions: mongoExtractions(models),
      extractionStrategies: mongoExtractionStrategies(models),
      extractionResults: mongoExtractionResults(models),
      collectedItems: mongoCollectedItems(models),
      documents: mongoDocuments(models),
      documentExtractions: mongoDocumentExtractions(models),
      stacks: mongoStacks(models),
      routines: mongoRoutines(models),
      idempotency: mongoIdempotency(models),
      rateLimits: mongoRateLimits(models),
      checkpointer,
      atomicTransactions: transactions,
      async transaction(work) {
        // Inside one already, or a server that has none: the calls join it / run one by one.
        if (!transactions || insideTransaction.getStore()) return work();
        return connection.transaction(() => insideTransaction.run(true, work));
      },
      health: () => ping(connection),
      async close() {
        await Promise.all([connection.close(), client.close()]);
      },
    };
  } catch (error) {
    await Promise.allSettled([connection.close(), checkpointClient?.close()]);
    throw error;
  }
}

/** Multi-document transactions need a replica set member or a mongos, not a standalone mongod. */
async function supportsTransactions(connection: Connection): Promise<boolean> {
  const db = connection.db;
  if (!db) return false;
  const hello = await db.admin().command({ hello: 1 });
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
}

async function ping(connection: Connection): Promise<StoreHealth> {
  const started = performance.now();
  try {
    const db = connection.db;
    if (!db) throw new Error('MongoDB connection is not open');
    await db.command({ ping: 1 });
    return { store: 'mongodb', ok: true, latencyMs: performance.now() - started };
  } catch (error) {
    return {
      store: 'mongodb',
      ok: false,
      latencyMs: performance.now() - started,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

export { COLLECTIONS, createModels, type MongoModels } from './schemas';
export {
  ensureKnowledgeVectorIndex,
  knowledgeVectorIndexName,
  knowledgeVectorSearchIndex,
  type KnowledgeVectorSearchIndex,
} from '../entities/knowledge/mongo-vector-index';
