import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../create-store';
import type { LiveEventRecord, Store } from '../port';
import { runStoreContractSuite } from '../testing/contract-suite';
import { localFilePath } from './client';
import { transactionsContract } from '../testing/contract/transactions';
import { createLibsqlStore, libsqlStoreOn } from './index';
import { RemoteSqlClient } from './remote-client';
import { MIGRATIONS, listAppliedMigrations, runMigrations } from './migrations';

// A fresh in-memory database per describe block of the suite.
runStoreContractSuite('libsql', () => createLibsqlStore({ url: ':memory:' }));

// Transactions again where they differ: a file database (WAL, busy timeout) on the native
// client, and @libsql/client's interactive transactions, the path remote libsql:// URLs take.
describe('libsql transactions on other clients', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-libsql-tx-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const file = () => `file:${path.join(dir, `tx-${(n += 1)}.db`)}`;
  describe('native, file', () => transactionsContract(() => createLibsqlStore({ url: file() })));
  describe('@libsql/client', () =>
    transactionsContract(() => libsqlStoreOn(new RemoteSqlClient(createClient({ url: file() }))), {
      concurrentWriters: false,
    }));
});

describe('libsql migrations', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-libsql-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has strictly increasing versions, the checkpointer tables among them', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(
      MIGRATIONS.some((m) => m.statements.some((s) => /CREATE TABLE[^(]*checkpoints/i.test(s))),
    ).toBe(true);
  });

  it('creates the parent directory, applies every migration once and keeps data on re-open', async () => {
    const url = `file:${path.join(dir, 'nested', 'deeper', 'tandem.db')}`;
    const first = await createLibsqlStore({ url });
    const tenant = await first.tenants.create({ name: 'persisted' });
    const task = await first.tasks.create(tenant.id, {
      userId: 'u',
      url: 'https://a.test',
      query: 'q',
    });
    await first.close();

    const second = await createLibsqlStore({ url });
    expect(await second.tenants.get(tenant.id)).toEqual(tenant);
    expect(await second.tasks.get(tenant.id, task.id)).toEqual(task);
    await second.close();

    const client = createClient({ url });
    try {
      const applied = await listAppliedMigrations(client);
      expect(applied.map((m) => [m.version, m.name])).toEqual(
        MIGRATIONS.map((m) => [m.version, m.name]),
      );
      // Re-running is a no-op: nothing is applied twice.
      expect(await runMigrations(client)).toEqual([]);
      expect(await listAppliedMigrations(client)).toEqual(applied);
      const journal = await client.execute('PRAGMA journal_mode');
      expect(String(journal.rows[0]?.[0]).toLowerCase()).toBe('wal');
    } finally {
      client.close();
    }
  });

  it('applies only the migrations a database is missing', async () => {
    const client = createClient({ url: `file:${path.join(dir, 'partial.db')}` });
    try {
      const [firstMigration] = MIGRATIONS;
      expect(await runMigrations(client, firstMigration ? [firstMigration] : [])).toEqual([1]);
      expect(await runMigrations(client)).toEqual(MIGRATIONS.slice(1).map((m) => m.version));
      expect(await runMigrations(client)).toEqual([]);
    } finally {
      client.close();
    }
  });

  it('rolls back a failing migration and records nothing for it', async () => {
    const client = createClient({ url: ':memory:' });
    try {
      await expect(
        runMigrations(client, [
          { version: 1, name: 'ok', statements: ['CREATE TABLE a (x INTEGER)'] },
          { version: 2, name: 'broken', statements: ['CREATE TABLE b (x INTEGER)', 'NOT SQL'] },
        ]),
      ).rejects.toThrow();
      expect((await listAppliedMigrations(client)).map((m) => m.version)).toEqual([1]);
      const tables = await client.execute("SELECT name FROM sqlite_master WHERE name = 'b'");
      expect(tables.rows).toHaveLength(0);
    } finally {
      client.close();
    }
  });

  it('reshapes the version-1 extraction strategies and adds extraction results (v3)', async () => {
    const url = `file:${path.join(dir, 'extraction-v2.db')}`;
    const client = createClient({ url });
    try {
      expect(await runMigrations(client, MIGRATIONS.slice(0, 2))).toEqual([1, 2]);
      // Nothing wrote the old table in practice; a row here shows the drop is deliberate.
      await client.execute(
        `INSERT INTO extraction_strategies VALUES
           ('s1', 't1', 'a.test', '/p/*', 'h', '{}', 0, 0, '2025-01-01T00:00:00.000Z',
            '2025-01-01T00:00:00.000Z')`,
      );
      expect(await runMigrations(client, MIGRATIONS.slice(0, 3))).toEqual([3]);
      const columns = async (table: string) =>
        (await client.execute(`SELECT name FROM pragma_table_info('${table}')`)).rows.map((r) =>
          String(r.name),
        );
      expect(await columns('extraction_strategies')).toEqual([
        'id',
        'tenant_id',
        'domain',
        'url_pattern',
        'css_selector',
        'output_schema',
        'schema_hash',
        'query_template',
        'replay',
        'success_count',
        'failure_count',
        'last_used',
        'created_at',
        'updated_at',
      ]);
      expect(await columns('extraction_results')).toContain('extraction_id');
      const left = await client.execute('SELECT COUNT(*) AS n FROM extraction_strategies');
      expect(Number(left.rows[0]?.n)).toBe(0);
    } finally {
      client.close();
    }

    const store = await createLibsqlStore({ url });
    try {
      const tenant = await store.tenants.create({ name: 'migrated' });
      const input = {
        domain: 'a.test',
        urlPattern: 'https://a.test/p/*',
        cssSelector: null,
        outputSchema: { type: 'object' },
        schemaHash: 'h',
        queryTemplate: 'q',
      };
      const strategy = await store.extractionStrategies.upsert(tenant.id, input);
      expect((await store.extractionStrategies.upsert(tenant.id, input)).id).toBe(strategy.id);
    } finally {
      await store.close();
    }
  });

  it('indexes chunks written before knowledge search (v4) for both searches', async () => {
    const url = `file:${path.join(dir, 'knowledge-v3.db')}`;
    const client = createClient({ url });
    try {
      expect(await runMigrations(client, MIGRATIONS.slice(0, 3))).toEqual([1, 2, 3]);
      const chunk = (id: string, content: string, embedding: string) =>
        client.execute({
          sql: `INSERT INTO knowledge_chunks (id, tenant_id, document_id, domain, ordinal, content,
                  heading_path, token_count, embedding, phase, trigger_action, superseded_by,
                  created_at)
                VALUES (?, 't1', 'd1', 'a.test', 0, ?, '["Old"]', 0, ?, NULL, NULL, NULL,
                  '2025-01-01T00:00:00.000Z')`,
          args: [id, content, embedding],
        });
      await chunk('c1', 'legacy walrus notes', '[1,0,0]');
      await chunk('c2', 'walrus without vector', 'null');
      await chunk('c3', 'broken vector', '[1,null,0]');
    } finally {
      client.close();
    }

    const store = await createLibsqlStore({ url });
    try {
      const lexical = await store.knowledge.searchLexical('t1', {
        domains: ['a.test'],
        query: 'walrus',
        limit: 10,
      });
      expect(lexical.map((r) => r.chunk.id).sort()).toEqual(['c1', 'c2']);
      const vector = await store.knowledge.searchVector('t1', {
        domains: ['a.test'],
        embedding: [1, 0, 0],
        limit: 10,
      });
      expect(vector.map((r) => r.chunk.id)).toEqual(['c1']);
    } finally {
      await store.close();
    }
  });

  it('deletes a document’s FTS rows and vectors with it, and keeps listChunks’ exact embeddings', async () => {
    const url = `file:${path.join(dir, 'knowledge-delete.db')}`;
    const store = await createLibsqlStore({ url });
    const tenant = await store.tenants.create({ name: 'vectors' });
    const doc = await store.knowledge.createDocument(tenant.id, {
      domain: 'a.test',
      title: 'Doc',
      mimeType: 'text/plain',
    });
    await store.knowledge.addChunks(tenant.id, doc.id, [
      { ordinal: 0, content: 'four dims', embedding: [0.1, 0.2, 0.3, 0.4] },
      { ordinal: 1, content: 'six dims', embedding: [1, 2, 3, 4, 5, 6] },
      { ordinal: 2, content: 'no vector' },
    ]);
    const client = createClient({ url });
    const count = async (sql: string) => Number((await client.execute(sql)).rows[0]?.[0]);
    try {
      expect(await count('SELECT COUNT(*) FROM knowledge_vectors_4')).toBe(1);
      expect(await count('SELECT COUNT(*) FROM knowledge_vectors_6')).toBe(1);
      expect(
        await count(
          "SELECT COUNT(*) FROM knowledge_chunks_fts WHERE knowledge_chunks_fts MATCH 'dims'",
        ),
      ).toBe(2);
      // The JSON column keeps the exact values; the vector table holds float32.
      const [first] = await store.knowledge.listChunks(tenant.id, { documentId: doc.id });
      expect(first?.embedding).toEqual([0.1, 0.2, 0.3, 0.4]);

      expect(await store.knowledge.deleteDocument(tenant.id, doc.id)).toBe(true);
      expect(await count('SELECT COUNT(*) FROM knowledge_vectors_4')).toBe(0);
      expect(await count('SELECT COUNT(*) FROM knowledge_vectors_6')).toBe(0);
      expect(
        await count(
          "SELECT COUNT(*) FROM knowledge_chunks_fts WHERE knowledge_chunks_fts MATCH 'dims'",
        ),
      ).toBe(0);
      // The external-content index still agrees with its table.
      await client.execute(
        "INSERT INTO knowledge_chunks_fts (knowledge_chunks_fts, rank) VALUES ('integrity-check', 1)",
      );
    } finally {
      client.close();
      await store.close();
    }
  });

  it('refuses out-of-order migration lists', async () => {
    const client = createClient({ url: ':memory:' });
    try {
      await expect(
        runMigrations(client, [
          { version: 2, name: 'b', statements: [] },
          { version: 1, name: 'a', statements: [] },
        ]),
      ).rejects.toThrow(/increasing/);
    } finally {
      client.close();
    }
  });
});

describe('libsql queued jobs across connections', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-queue-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Each store is its own connection to one file, as each server process on DATA_DIR is.
  it('adds and claims each job exactly once across stores sharing one file', async () => {
    const url = `file:${path.join(dir, 'queue.db')}`;
    const stores: Store[] = [];
    for (let i = 0; i < 3; i += 1) stores.push(await createLibsqlStore({ url }));
    const at = (ms: number) => new Date(Date.parse('2025-06-01T00:00:00.000Z') + ms).toISOString();
    const job = (id: string) => ({
      id,
      queue: 'crawl',
      tenantId: 't1',
      data: { id },
      maxAttempts: 3,
      backoffMs: 1_000,
      runAt: at(0),
    });
    try {
      const adds = await Promise.all(
        stores.flatMap((store) => [1, 2].map(() => store.queuedJobs.add(job('same'), at(0)))),
      );
      expect(adds.filter((a) => a.created)).toHaveLength(1);
      for (let i = 0; i < 9; i += 1) {
        await stores[i % 3]?.queuedJobs.add(job(`job-${i}`), at(i + 1));
      }

      const claims = await Promise.all(
        Array.from({ length: 21 }, (_, i) =>
          stores[i % 3]?.queuedJobs.claim('crawl', `worker-${i}`, 30_000, {}, at(100)),
        ),
      );
      const won = claims.filter((c) => c !== null && c !== undefined);
      expect(won).toHaveLength(10);
      expect(new Set(won.map((c) => c.id)).size).toBe(10);
      // Every store sees every claim: the owner finishes from its store, the others cannot.
      const [first] = won;
      const owner = first?.owner ?? '';
      const id = first?.id ?? '';
      expect(await stores[2]?.queuedJobs.complete('crawl', id, 'someone-else', at(101))).toBe(
        false,
      );
      const ownerStore = stores[Number(owner.split('-')[1]) % 3];
      expect(await ownerStore?.queuedJobs.complete('crawl', id, owner, at(101))).toBe(true);
      expect((await stores[1]?.queuedJobs.get('t1', 'crawl', id))?.status).toBe('completed');
    } finally {
      for (const store of stores) await store.close();
    }
  });
});

describe('libsql live events across connections', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-live-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Each store is its own connection to one file, as each server process on DATA_DIR is.
  it('numbers concurrent appends from several stores distinctly; another store reads them all', async () => {
    const url = `file:${path.join(dir, 'live.db')}`;
    const writers: Store[] = [];
    for (let i = 0; i < 3; i += 1) writers.push(await createLibsqlStore({ url }));
    const reader = await createLibsqlStore({ url });
    const channels = ['task:t1:a', 'task:t2:b'];
    try {
      expect(await reader.liveEvents.lastSeq()).toBe(0);
      expect(await reader.liveEvents.listAfter(0, { channels })).toEqual([]);

      // The reader polls from where it started while the writers append, as the bus does.
      const seen: number[] = [];
      let lastSeen = 0;
      const poll = async () => {
        const events = await reader.liveEvents.listAfter(lastSeen, { channels, limit: 7 });
        for (const event of events) seen.push(event.seq);
        lastSeen = events.at(-1)?.seq ?? lastSeen;
      };
      // Three writers append at once, each its own sequence of awaits, interleaved with the polls.
      const appended: LiveEventRecord[] = [];
      let writing = true;
      await Promise.all([
        Promise.all(
          writers.map(async (writer, w) => {
            for (let i = 0; i < 20; i += 1) {
              appended.push(
                await writer.liveEvents.append({
                  channel: channels[i % 2] ?? '',
                  origin: `proc-${w}`,
                  data: { w, i },
                }),
              );
            }
          }),
        ).finally(() => {
          writing = false;
        }),
        (async () => {
          while (writing) await poll();
        })(),
      ]);
      for (;;) {
        const before = seen.length;
        await poll();
        if (seen.length === before) break;
      }

      const all = appended.map((event) => event.seq).sort((x, y) => x - y);
      expect(new Set(all).size).toBe(60);
      // Every event, once each, in seq order: nothing skipped behind the last seq read.
      expect(seen).toEqual(all);
      const listed = await reader.liveEvents.listAfter(0, { channels, limit: 1000 });
      expect(listed.map((event) => event.seq)).toEqual(all);
      expect(listed.map((event) => event.origin).sort()).toEqual(
        appended.map((event) => event.origin).sort(),
      );
      expect(await reader.liveEvents.lastSeq()).toBe(all.at(-1));
      expect(await writers[0]?.liveEvents.lastSeq()).toBe(all.at(-1));

      // A seq is never handed out again, not even once every event has been pruned.
      expect(await writers[1]?.liveEvents.prune('2999-01-01T00:00:00.000Z')).toBe(60);
      expect(await reader.liveEvents.listAfter(0, { channels })).toEqual([]);
      const next = await writers[2]?.liveEvents.append({
        channel: 'task:t1:a',
        origin: 'proc-2',
        data: null,
      });
      expect(next?.seq).toBeGreaterThan(all.at(-1) ?? Infinity);
      expect(await reader.liveEvents.listAfter(lastSeen, { channels })).toEqual([next]);
    } finally {
      for (const store of [...writers, reader]) await store.close();
    }
  });
});

describe('createStore', () => {
  it('uses libSQL at libsqlUrl, else <dataDir>/tandem.db', async () => {
    const memory = await createStore({ libsqlUrl: ':memory:' });
    expect(memory.kind).toBe('libsql');
    await memory.close();

    const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-create-store-'));
    try {
      const dataDir = path.join(dir, '.data');
      const store = await createStore({ dataDir });
      const tenant = await store.tenants.create({ name: 'on disk' });
      await store.close();
      const reopened = await createLibsqlStore({ url: `file:${path.join(dataDir, 'tandem.db')}` });
      expect(await reopened.tenants.get(tenant.id)).toEqual(tenant);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('libsql client', () => {
  it('maps file URLs to paths', () => {
    expect(localFilePath('file:.data/tandem.db')).toBe('.data/tandem.db');
    expect(localFilePath('file:/var/lib/t.db')).toBe('/var/lib/t.db');
    expect(localFilePath('file:///var/lib/t.db')).toBe('/var/lib/t.db');
    expect(localFilePath('file://localhost/var/lib/t.db')).toBe('/var/lib/t.db');
    expect(localFilePath('file:my%20db.db')).toBe('my db.db');
    expect(localFilePath(':memory:')).toBeNull();
    expect(localFilePath('file::memory:')).toBeNull();
    expect(localFilePath('libsql://db.turso.io')).toBeNull();
  });

  it('leads every index of a tenant-owned table with tenant_id', async () => {
    const client = createClient({ url: ':memory:' });
    try {
      await runMigrations(client);
      const indexes = await client.execute(
        `SELECT m.name AS table_name, il.name AS index_name
         FROM sqlite_master m JOIN pragma_index_list(m.name) il
         WHERE m.type = 'table' AND m.name NOT IN ('tenants', 'rate_limits', 'schema_migrations')
           AND m.name NOT LIKE 'checkpoint%' AND m.name NOT LIKE 'sqlite_%'`,
      );
      const exempt = new Set([
        'api_keys_key_hash', // authentication looks a key up before the tenant is known
        'token_usage_id', // generation ids are globally unique
        'skills_last_used', // deleteExpired is a cross-tenant sweep
        'idempotency_keys_expires',
        'knowledge_jobs_unfinished', // listUnfinished: a restarted server resumes every tenant's
        'queued_jobs_claim', // workers claim from a queue across its tenants
        'live_events_channel', // the relay is store-wide: the channel names the tenant
        'uploads_created', // the sweep of forgotten uploads runs across tenants
      ]);
      for (const row of indexes.rows) {
        const indexName = String(row.index_name);
        if (exempt.has(indexName) || indexName.startsWith('sqlite_autoindex')) continue;
        const columns = await client.execute(`SELECT name FROM pragma_index_info('${indexName}')`);
        expect([indexName, columns.rows[0]?.name]).toEqual([indexName, 'tenant_id']);
      }
    } finally {
      client.close();
    }
  });
});
