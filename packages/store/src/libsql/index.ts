// The embedded default store: one libSQL database (a file under .data/, `:memory:` in tests,
// or a remote libSQL/Turso URL) holding every repository and the LangGraph checkpoints.
import { CheckpointSerializer } from '../checkpoint-serde';
import type { Store } from '../port';
import { LibsqlSaver } from './checkpointer';
import { openLibsqlClient, type LibsqlClientOptions } from './client';
import { runMigrations } from './migrations';
import type { SqlClient } from './native-client';
import { libsqlCollectedItems } from '../entities/collected-item/libsql';
import { libsqlDocumentExtractions, libsqlDocuments } from '../entities/document/libsql';
import { libsqlExtractionStrategies, libsqlExtractions } from '../entities/extraction/libsql';
import { libsqlExtractionResults } from '../entities/extraction/libsql-results';
import { libsqlIdempotency, libsqlRateLimits } from '../entities/idempotency/libsql';
import { libsqlKnowledge } from '../entities/knowledge/libsql';
import { libsqlKnowledgeJobs } from '../entities/knowledge/libsql-jobs';
import { backfillKnowledgeVectors } from '../entities/knowledge/libsql-vectors';
import { libsqlLiveEvents } from '../entities/live-event/libsql';
import { libsqlQueuedJobs } from '../entities/queued-job/libsql';
import { libsqlRoutines } from '../entities/routine/libsql';
import { libsqlMessages, libsqlSessions } from '../entities/session/libsql';
import { libsqlSkills } from '../entities/skill/libsql';
import { libsqlStacks } from '../entities/stack/libsql';
import { libsqlTaskActions, libsqlTasks } from '../entities/task/libsql';
import { libsqlApiKeys, libsqlTenants } from '../entities/tenant/libsql';
import { libsqlTokenUsage } from '../entities/token-usage/libsql';
import { libsqlUploads } from '../entities/upload/libsql';

export type LibsqlStoreOptions = LibsqlClientOptions;

/** The migration that created knowledge search (entities/knowledge/libsql-schema.ts). */
const KNOWLEDGE_VECTORS_MIGRATION = 4;

export async function createLibsqlStore(options: LibsqlStoreOptions): Promise<Store> {
  return libsqlStoreOn(await openLibsqlClient(options));
}

/** The store over an open client (tests hand it one that createLibsqlStore would not pick). */
export async function libsqlStoreOn(client: SqlClient): Promise<Store> {
  try {
    const applied = await runMigrations(client);
    // Chunks embedded before vectors had tables become searchable once, right after the
    // migration that introduced them (the copy is idempotent should it ever run again).
    if (applied.includes(KNOWLEDGE_VECTORS_MIGRATION)) await backfillKnowledgeVectors(client);
  } catch (error) {
    client.close();
    throw error;
  }

  return {
    kind: 'libsql',
    tenants: libsqlTenants(client),
    apiKeys: libsqlApiKeys(client),
    sessions: libsqlSessions(client),
    messages: libsqlMessages(client),
    tasks: libsqlTasks(client),
    taskActions: libsqlTaskActions(client),
    tokenUsage: libsqlTokenUsage(client),
    skills: libsqlSkills(client),
    knowledge: libsqlKnowledge(client),
    knowledgeJobs: libsqlKnowledgeJobs(client),
    uploads: libsqlUploads(client),
    queuedJobs: libsqlQueuedJobs(client),
    liveEvents: libsqlLiveEvents(client),
    extractions: libsqlExtractions(client),
    extractionStrategies: libsqlExtractionStrategies(client),
    extractionResults: libsqlExtractionResults(client),
    collectedItems: libsqlCollectedItems(client),
    documents: libsqlDocuments(client),
    documentExtractions: libsqlDocumentExtractions(client),
    stacks: libsqlStacks(client),
    routines: libsqlRoutines(client),
    idempotency: libsqlIdempotency(client),
    rateLimits: libsqlRateLimits(client),
    checkpointer: new LibsqlSaver(client, new CheckpointSerializer()),
    transaction: (work) => client.transaction(work),
    atomicTransactions: true,
    async health() {
      const started = performance.now();
      try {
        await client.execute('SELECT 1');
        return { store: 'libsql', ok: true, latencyMs: performance.now() - started };
      } catch (error) {
        return {
          store: 'libsql',
          ok: false,
          latencyMs: performance.now() - started,
          error: error instanceof Error ? error.message : String(error),
        };
      }
    },
    async close() {
      client.close();
    },
  };
}

export { MIGRATIONS, listAppliedMigrations, runMigrations, type Migration } from './migrations';
export { localFilePath, openLibsqlClient } from './client';
