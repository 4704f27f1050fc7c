// Migration 13: routines. Applied once by migrations.ts; never edit it once
// shipped — add a new migration instead.
//
// One row per version. The unique key (tenant, site, template, version) is what makes two
// concurrent "next version" writes for the same routine unable to take the same number.
export const ROUTINES_MIGRATION: { name: string; statements: string[] } = {
  name: 'routines',
  statements: [
    `CREATE TABLE IF NOT EXISTS routines (
      id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL,
      site TEXT NOT NULL,
      goal_template TEXT NOT NULL,
      name TEXT NOT NULL,
      parameters TEXT NOT NULL,
      steps TEXT NOT NULL,
      version INTEGER NOT NULL,
      source_task_id TEXT,
      enabled INTEGER NOT NULL,
      runs INTEGER NOT NULL,
      heals INTEGER NOT NULL,
      tokens_saved INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    // findLatest and the next version number: one index range per routine.
    `CREATE UNIQUE INDEX IF NOT EXISTS routines_key
      ON routines (tenant_id, site, goal_template, version)`,
    // list: newest first, optionally one site's.
    `CREATE INDEX IF NOT EXISTS routines_tenant_created ON routines (tenant_id, created_at, id)`,
    `CREATE INDEX IF NOT EXISTS routines_tenant_site_created
      ON routines (tenant_id, site, created_at, id)`,
  ],
};
