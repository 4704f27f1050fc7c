// The embedded default store: one libSQL database (a file under .data/, `:memory:` in tests,
// or a remote libSQL/Turso URL) holding every repository and the LangGraph checkpoints.
import { CheckpointSerializer } from '../checkpoint-serde';
import type { Store } from '../port';
import { LibsqlSaver } from './checkpointer';
import { openLibsqlClient, type LibsqlClientOptions } from './client';
import type { SqlClient } from './native-client';
import { libsqlCollectedItems } from './collected-items';
import { libsqlDocumentExtractions, libsqlDocuments } from './documents';
import { libsqlExtractionResults } from './extraction-results';
import { libsqlExtractionStrategies, libsqlExtractions } from './extractions';
import { libsqlIdempotency, libsqlRateLimits } from './idempotency';
import { libsqlKnowledge } from './knowledge';
import { libsqlKnowledgeJobs } from './knowledge-jobs';
import { libsqlUploads } from './uploads';
import { backfillKnowledgeVectors } from './knowledge-vectors';
import { libsqlLiveEvents } from './live-events';
import { runMigrations } from './migrations';
import { libsqlQueuedJobs } from './queued-jobs';
import { libsqlMessages, libsqlSessions } from './sessions';
import { libsqlSkills } from './skills';
import { libsqlStacks } from './stacks';
import { libsqlTaskActions } from './task-actions';
import { libsqlTasks } from './tasks';
import { libsqlApiKeys, libsqlTenants } from './tenants';
import { libsqlTokenUsage } from './token-usage';

export type LibsqlStoreOptions = LibsqlClientOptions;

/** The migration that created knowledge search (knowledge-schema.ts). */
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
