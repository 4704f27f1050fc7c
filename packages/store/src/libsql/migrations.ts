// Versioned migrations. Each one runs once, in its own write transaction together with the
// row that records it, so a crash mid-migration leaves the database at the previous version
// and the next open simply retries it.
import { CHECKPOINT_MIGRATION } from './checkpointer-schema';
import type { SqlClient } from './native-client';
import { CORE_SCHEMA_V1 } from './schema';
import { DOCUMENT_STATUS_MIGRATION, DOCUMENT_TABLES_V6 } from '../entities/document/libsql-schema';
import { EXTRACTION_MIGRATION } from '../entities/extraction/libsql-schema';
import { KNOWLEDGE_FTS_SCOPE_MIGRATION } from '../entities/knowledge/libsql-fts-scope';
import { KNOWLEDGE_SEARCH_MIGRATION } from '../entities/knowledge/libsql-schema';
import { LIVE_EVENTS_MIGRATION } from '../entities/live-event/libsql-schema';
import { QUEUED_JOBS_MIGRATION } from '../entities/queued-job/libsql-schema';
import { ROUTINES_MIGRATION } from '../entities/routine/libsql-schema';
import { STACK_TABLES_V6 } from '../entities/stack/libsql-schema';
import { TOKEN_USAGE_PARTS_MIGRATION } from '../entities/token-usage/libsql-schema';
import { UPLOAD_PARTS_MIGRATION, UPLOADS_MIGRATION } from '../entities/upload/libsql-schema';

export interface Migration {
  /** Strictly increasing; never reuse or renumber a shipped version. */
  version: number;
  name: string;
  statements: string[];
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'core-schema', statements: CORE_SCHEMA_V1 },
  {
    version: 2,
    name: CHECKPOINT_MIGRATION.name,
    statements: CHECKPOINT_MIGRATION.statements,
  },
  {
    version: 3,
    name: EXTRACTION_MIGRATION.name,
    statements: EXTRACTION_MIGRATION.statements,
  },
  {
    version: 4,
    name: KNOWLEDGE_SEARCH_MIGRATION.name,
    statements: KNOWLEDGE_SEARCH_MIGRATION.statements,
  },
  {
    version: 5,
    name: KNOWLEDGE_FTS_SCOPE_MIGRATION.name,
    statements: KNOWLEDGE_FTS_SCOPE_MIGRATION.statements,
  },
  {
    version: 6,
    name: 'document-extraction',
    statements: [...DOCUMENT_TABLES_V6, ...STACK_TABLES_V6],
  },
  {
    version: 7,
    name: QUEUED_JOBS_MIGRATION.name,
    statements: QUEUED_JOBS_MIGRATION.statements,
  },
  {
    version: 8,
    name: LIVE_EVENTS_MIGRATION.name,
    statements: LIVE_EVENTS_MIGRATION.statements,
  },
  {
    version: 9,
    name: UPLOADS_MIGRATION.name,
    statements: UPLOADS_MIGRATION.statements,
  },
  {
    version: 10,
    name: DOCUMENT_STATUS_MIGRATION.name,
    statements: DOCUMENT_STATUS_MIGRATION.statements,
  },
  {
    version: 11,
    name: UPLOAD_PARTS_MIGRATION.name,
    statements: UPLOAD_PARTS_MIGRATION.statements,
  },
  {
    version: 12,
    name: TOKEN_USAGE_PARTS_MIGRATION.name,
    statements: TOKEN_USAGE_PARTS_MIGRATION.statements,
  },
  {
    version: 13,
    name: ROUTINES_MIGRATION.name,
    statements: ROUTINES_MIGRATION.statements,
  },
];

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;

export interface AppliedMigration {
  version: number;
  name: string;
  appliedAt: string;
}

export async function listAppliedMigrations(client: SqlClient): Promise<AppliedMigration[]> {
  await client.execute(CREATE_MIGRATIONS_TABLE);
  const result = await client.execute(
    'SELECT version, name, applied_at FROM schema_migrations ORDER BY version',
  );
  return result.rows.map((row) => ({
    version: Number(row.version),
    name: String(row.name),
    appliedAt: String(row.applied_at),
  }));
}

/** Applies the migrations not yet recorded; returns the versions it applied (empty if none). */
export async function runMigrations(
  client: SqlClient,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  assertOrdered(migrations);
  const done = new Set((await listAppliedMigrations(client)).map((m) => m.version));
  const applied: number[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    try {
      await client.batch(
        [
          ...migration.statements,
          {
            sql: 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
            args: [migration.version, migration.name, new Date().toISOString()],
          },
        ],
        'write',
      );
      applied.push(migration.version);
    } catch (error) {
      // Two processes opening the same file race here; the loser's transaction rolls back
      // on the version's primary key. That is success as long as the version is now recorded.
      const now = new Set((await listAppliedMigrations(client)).map((m) => m.version));
      if (!now.has(migration.version)) throw error;
    }
  }
  return applied;
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    const previous = migrations[index - 1];
    if (previous !== undefined && migration.version <= previous.version) {
      throw new Error(
        `Migrations must have strictly increasing versions (${previous.version} → ${migration.version})`,
      );
    }
  });
}
