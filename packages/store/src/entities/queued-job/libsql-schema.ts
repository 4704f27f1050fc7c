// Migration 7: the embedded job queue's rows (@tandem/jobs). Applied once by migrations.ts;
// never edit it once shipped — add a new migration instead.
//
// Every server process on the database file claims from this one table, so the key is the
// caller's (queue, id): adding the same job twice, from any process, finds the first row.
// `data` is JSON text; times are ISO TEXT, compared as text (the repository normalises them).
export const QUEUED_JOBS_MIGRATION: { name: string; statements: string[] } = {
  name: 'queued-jobs',
  statements: [
    `CREATE TABLE IF NOT EXISTS queued_jobs (
      queue TEXT NOT NULL,
      id TEXT NOT NULL,
      tenant_id TEXT NOT NULL,
      data TEXT,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      max_attempts INTEGER NOT NULL,
      backoff_ms INTEGER NOT NULL,
      run_at TEXT NOT NULL,
      owner TEXT,
      lease_expires_at TEXT,
      error TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      finished_at TEXT,
      PRIMARY KEY (queue, id)
    )`,
    // claim: a queue's waiting jobs in runAt order, and its active ones (expired leases, the
    // tenants busy under onePerTenant). Workers serve every tenant, so the queue leads.
    `CREATE INDEX IF NOT EXISTS queued_jobs_claim ON queued_jobs (queue, status, run_at)`,
  ],
};
