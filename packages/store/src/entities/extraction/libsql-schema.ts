// The extraction tables. Shipped migrations (libsql/migrations.ts applies them once): never edit
// one, add a new migration instead.

/** Core schema (migration 1); migration 3 below reshapes extraction_strategies. */
export const EXTRACTION_TABLES_V1: string[] = [
  `CREATE TABLE IF NOT EXISTS extractions (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    task_id TEXT,
    url TEXT NOT NULL,
    schema TEXT NOT NULL,
    data TEXT,
    status TEXT NOT NULL,
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS extractions_tenant_created ON extractions (tenant_id, created_at, id)`,
  `CREATE INDEX IF NOT EXISTS extractions_tenant_task ON extractions (tenant_id, task_id, created_at, id)`,

  `CREATE TABLE IF NOT EXISTS extraction_strategies (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    domain TEXT NOT NULL,
    path_pattern TEXT NOT NULL,
    schema_hash TEXT NOT NULL,
    selectors TEXT NOT NULL,
    success_count INTEGER NOT NULL,
    failure_count INTEGER NOT NULL,
    last_used TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS extraction_strategies_key ON extraction_strategies (tenant_id, domain, path_pattern, schema_hash)`,
];

// Migration 3: structured extraction as docs/specs.md, "extraction overhaul" stores it. Applied
// once by migrations.ts; never edit it once shipped — add a new migration instead.
//
// - extraction_strategies is reshaped (URL glob, CSS selector, output schema, query template,
//   replay recipe). Nothing ever wrote the version-1 table, so it is dropped and recreated
//   rather than copied.
// - extraction_results holds one row per extraction of one page.
//
// A strategy's key is (tenant, url pattern, schema hash, css selector) with a null selector
// (the whole page) as a value of its own. SQLite unique indexes treat NULLs as distinct, so the
// key indexes COALESCE(css_selector, '') together with `css_selector IS NULL`: two null
// selectors collide, and a null and an empty-string selector stay apart, as they do in the
// Mongo adapter's unique index. upsert's ON CONFLICT names the same expressions.
export const EXTRACTION_STRATEGY_KEY =
  "tenant_id, url_pattern, schema_hash, COALESCE(css_selector, ''), css_selector IS NULL";

export const EXTRACTION_MIGRATION: { name: string; statements: string[] } = {
  name: 'extraction-results-and-strategies',
  statements: [
    // Drops its indexes too.
    `DROP TABLE IF EXISTS extraction_strategies`,
    `CREATE TABLE extraction_strategies (
      id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL,
      domain TEXT NOT NULL,
      url_pattern TEXT NOT NULL,
      css_selector TEXT,
      output_schema TEXT NOT NULL,
      schema_hash TEXT NOT NULL,
      query_template TEXT NOT NULL,
      replay TEXT,
      success_count INTEGER NOT NULL,
      failure_count INTEGER NOT NULL,
      last_used TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE UNIQUE INDEX extraction_strategies_key ON extraction_strategies (${EXTRACTION_STRATEGY_KEY})`,
    // listByDomain: a domain's strategies, most recently used first.
    `CREATE INDEX extraction_strategies_tenant_domain_used ON extraction_strategies (tenant_id, domain, last_used, id)`,

    `CREATE TABLE IF NOT EXISTS extraction_results (
      id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL,
      task_id TEXT,
      extraction_id TEXT,
      query TEXT NOT NULL,
      source_url TEXT,
      data TEXT,
      schema_used TEXT,
      is_partial INTEGER NOT NULL,
      method TEXT NOT NULL,
      content_stats TEXT NOT NULL,
      warnings TEXT NOT NULL,
      errors TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS extraction_results_tenant_task ON extraction_results (tenant_id, task_id, created_at, id)`,
    // listByTask({ extractionId }): one aggregate's pages, still oldest first.
    `CREATE INDEX IF NOT EXISTS extraction_results_tenant_task_extraction ON extraction_results (tenant_id, task_id, extraction_id, created_at, id)`,
  ],
};
