// LibsqlSaver against LangGraph's official checkpointer conformance suite
// (@langchain/langgraph-checkpoint-validation), plus the cases that suite does not cover:
// forked threads, write replay rules, metadata filters SQL cannot express, a file database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  ERROR,
  emptyCheckpoint,
  uuid6,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
} from '@langchain/langgraph-checkpoint';
import {
  deltaChannelHistoryTests,
  specTest,
  type CheckpointSaverTestInitializer,
} from '@langchain/langgraph-checkpoint-validation';
import { createClient, type Client } from '@libsql/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LibsqlSaver, loadTupleStatements } from './checkpointer';
import { CHECKPOINT_MIGRATION } from './checkpointer-schema';

// The validation package declares its cases with Vitest's *global* API (describe, it, expect,
// hooks) instead of importing it, and this package runs Vitest without `globals`. Handing it
// the same functions through globalThis makes the suite register inside this file, under our
// runner and reporter, exactly as if it were written here.
Object.assign(globalThis, { describe, it, expect, beforeAll, afterAll, beforeEach, afterEach });

async function migratedClient(url = ':memory:'): Promise<Client> {
  const client = createClient({ url });
  // What the libSQL adapter's migration runner does, without depending on it.
  for (const statement of CHECKPOINT_MIGRATION.statements) await client.execute(statement);
  return client;
}

const clients = new WeakMap<LibsqlSaver, Client>();

const initializer: CheckpointSaverTestInitializer<LibsqlSaver> = {
  checkpointerName: 'LibsqlSaver',
  async createCheckpointer() {
    // A fresh database per checkpointer: the suite's "thread-1" cases assume an empty store.
    const client = await migratedClient();
    const saver = new LibsqlSaver(client);
    clients.set(saver, client);
    return saver;
  },
  destroyCheckpointer(saver) {
    clients.get(saver)?.close();
  },
};

specTest(initializer);
// Opt-in upstream (Beta API), but LangGraph's DeltaChannel relies on it, so we hold to it.
deltaChannelHistoryTests(initializer);

// ---------------------------------------------------------------- beyond the official suite

const meta = (step: number, extra: Record<string, unknown> = {}): CheckpointMetadata => ({
  source: 'loop',
  step,
  parents: {},
  ...extra,
});

function checkpointWith(
  values: Record<string, unknown>,
  versions: Record<string, number>,
): Checkpoint {
  return {
    ...emptyCheckpoint(),
    id: uuid6(3),
    channel_values: values,
    channel_versions: versions,
  };
}

async function collect(iterable: AsyncIterable<CheckpointTuple>): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('LibsqlSaver (beyond the validation suite)', () => {
  let client: Client;
  let saver: LibsqlSaver;

  beforeEach(async () => {
    client = await migratedClient();
    saver = new LibsqlSaver(client);
  });
  afterEach(() => client.close());

  it('keeps forked branches apart when both reach the same channel version', async () => {
    const thread = { configurable: { thread_id: 'fork', checkpoint_ns: '' } };
    const root = await saver.put(thread, checkpointWith({ v: 'root' }, { v: 1 }), meta(0), {
      v: 1,
    });
    const a = await saver.put(root, checkpointWith({ v: 'branch-a' }, { v: 2 }), meta(1), { v: 2 });
    const b = await saver.put(root, checkpointWith({ v: 'branch-b' }, { v: 2 }), meta(1), { v: 2 });
    // Children that change nothing else inherit from their own branch only.
    const a2 = await saver.put(a, checkpointWith({ v: 'branch-a' }, { v: 2 }), meta(2), {});
    const b2 = await saver.put(b, checkpointWith({ v: 'branch-b' }, { v: 2 }), meta(2), {});

    expect((await saver.getTuple(a2))?.checkpoint.channel_values).toEqual({ v: 'branch-a' });
    expect((await saver.getTuple(b2))?.checkpoint.channel_values).toEqual({ v: 'branch-b' });
    expect((await saver.getTuple(root))?.checkpoint.channel_values).toEqual({ v: 'root' });
  });

  it('stores each unchanged channel value once, however many checkpoints carry it', async () => {
    let config: RunnableConfig = { configurable: { thread_id: 'dedupe', checkpoint_ns: '' } };
    const big = 'x'.repeat(10_000);
    config = await saver.put(config, checkpointWith({ big, n: 0 }, { big: 1, n: 1 }), meta(0), {
      big: 1,
      n: 1,
    });
    for (let step = 1; step <= 5; step += 1) {
      config = await saver.put(
        config,
        checkpointWith({ big, n: step }, { big: 1, n: step + 1 }),
        meta(step),
        { n: step + 1 },
      );
    }
    const blobs = await client.execute(
      `SELECT channel, count(*) AS n FROM checkpoint_blobs GROUP BY channel ORDER BY channel`,
    );
    expect(blobs.rows.map((r) => [r.channel, r.n])).toEqual([
      ['big', 1],
      ['n', 6],
    ]);
    expect((await saver.getTuple(config))?.checkpoint.channel_values).toEqual({ big, n: 5 });
  });

  it('reads a checkpoint by index lookups only, so reading does not slow down as a thread grows', async () => {
    // A long thread: the blob table holds many rows for this thread that the read must skip.
    let config: RunnableConfig = { configurable: { thread_id: 'long', checkpoint_ns: '' } };
    for (let step = 0; step < 30; step++)
      config = await saver.put(
        config,
        checkpointWith({ v: `s${step}` }, { v: step + 1 }),
        meta(step),
        {
          v: step + 1,
        },
      );
    const latest = { threadId: 'long', checkpointNs: '' };
    const byId = { ...latest, checkpointId: String(config.configurable?.checkpoint_id) };
    for (const key of [latest, byId]) {
      for (const statement of loadTupleStatements(key)) {
        const sql = typeof statement === 'string' ? statement : statement.sql;
        const args = typeof statement === 'string' ? [] : statement.args;
        const plan = await client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args });
        const steps = plan.rows.map((row) => String(row.detail));
        // Scanning json_each over one checkpoint's channel list is fine; scanning a table is not,
        // and every blob lookup must use the whole primary key.
        expect(steps.filter((d) => d.startsWith('SCAN') && !d.includes('VIRTUAL TABLE'))).toEqual(
          [],
        );
        for (const d of steps.filter((d) => d.includes(' b USING')))
          expect(d).toContain('checkpoint_id=? AND channel=?');
      }
    }
    const tuple = await saver.getTuple(config);
    expect(tuple?.checkpoint.channel_values).toEqual({ v: 's29' });
  });

  it('keeps the first regular write of a task but the latest special write', async () => {
    const config = await saver.put(
      { configurable: { thread_id: 'writes', checkpoint_ns: '' } },
      checkpointWith({}, {}),
      meta(0),
      {},
    );
    await saver.putWrites(config, [['out', 'first']], 'task');
    await saver.putWrites(config, [['out', 'second']], 'task');
    await saver.putWrites(config, [[ERROR, 'boom 1']], 'task');
    await saver.putWrites(config, [[ERROR, 'boom 2']], 'task');
    const tuple = await saver.getTuple(config);
    // ERROR sorts first: its idx is negative.
    expect(tuple?.pendingWrites).toEqual([
      ['task', ERROR, 'boom 2'],
      ['task', 'out', 'first'],
    ]);
  });

  it('orders pending writes by task path, then task id, then index', async () => {
    const config = await saver.put(
      { configurable: { thread_id: 'order', checkpoint_ns: '' } },
      checkpointWith({}, {}),
      meta(0),
      {},
    );
    await saver.putWrites(
      config,
      [
        ['c', 3],
        ['c', 4],
      ],
      'task-z',
      '~__pregel_pull, a',
    );
    await saver.putWrites(config, [['c', 2]], 'task-b', '~__pregel_pull, b');
    await saver.putWrites(config, [['c', 1]], 'task-y');
    const tuple = await saver.getTuple(config);
    expect(tuple?.pendingWrites?.map((w) => w[2])).toEqual([1, 3, 4, 2]);
  });

  it('filters list() by metadata with exact JSON types, including non-primitive values', async () => {
    let config: RunnableConfig = { configurable: { thread_id: 'filters', checkpoint_ns: '' } };
    const metas = [
      meta(0, { flag: true, label: '1', tags: ['a'] }),
      meta(1, { flag: 1, label: 1, tags: ['a', 'b'] }),
      meta(2, { flag: false, label: null, 'dotted.key': 'yes', 'quote"key': 'q' }),
    ];
    for (const m of metas) config = await saver.put(config, checkpointWith({}, {}), m, {});
    const steps = async (filter: Record<string, unknown>, limit?: number) =>
      (
        await collect(saver.list({ configurable: { thread_id: 'filters' } }, { filter, limit }))
      ).map((t) => t.metadata?.step);

    expect(await steps({ flag: true })).toEqual([0]);
    expect(await steps({ flag: 1 })).toEqual([1]);
    expect(await steps({ label: '1' })).toEqual([0]);
    expect(await steps({ label: 1 })).toEqual([1]);
    expect(await steps({ label: null })).toEqual([2]);
    expect(await steps({ 'dotted.key': 'yes' })).toEqual([2]);
    expect(await steps({ 'quote"key': 'q' })).toEqual([2]);
    expect(await steps({ tags: ['a', 'b'] })).toEqual([1]);
    expect(await steps({ source: 'loop' }, 2)).toEqual([2, 1]);
    expect(await steps({ parents: {} }, 1)).toEqual([2]);
    expect(await steps({ missing: 'x' })).toEqual([]);
  });

  it('restores a channel literally named __proto__ as an own property', async () => {
    const config = await saver.put(
      { configurable: { thread_id: 'proto', checkpoint_ns: '' } },
      checkpointWith(JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>, {
        ['__proto__']: 1,
      }),
      meta(0),
      JSON.parse('{"__proto__": 1}') as Record<string, number>,
    );
    const values = (await saver.getTuple(config))?.checkpoint.channel_values ?? {};
    expect(Object.hasOwn(values, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('deleteThread removes checkpoints, blobs and writes of that thread only', async () => {
    for (const thread_id of ['keep', 'drop']) {
      const config = await saver.put(
        { configurable: { thread_id, checkpoint_ns: '' } },
        checkpointWith({ v: thread_id }, { v: 1 }),
        meta(0),
        { v: 1 },
      );
      await saver.putWrites(config, [['v', 'w']], 't');
    }
    await saver.deleteThread('drop');
    for (const table of ['checkpoints', 'checkpoint_blobs', 'checkpoint_writes']) {
      const rows = await client.execute(`SELECT DISTINCT thread_id FROM ${table}`);
      expect(rows.rows.map((r) => r.thread_id)).toEqual(['keep']);
    }
  });

  it('creates no tables itself: without the migration it fails loudly', async () => {
    const bare = createClient({ url: ':memory:' });
    try {
      await expect(
        new LibsqlSaver(bare).put(
          { configurable: { thread_id: 't' } },
          checkpointWith({}, {}),
          meta(0),
          {},
        ),
      ).rejects.toThrow(/no such table/);
    } finally {
      bare.close();
    }
  });
});

describe('LibsqlSaver on a file database', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tandem-checkpointer-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('survives a restart (new client on the same file)', async () => {
    const url = `file:${path.join(dir, 'checkpoints.db')}`;
    const first = await migratedClient(url);
    const written = await new LibsqlSaver(first).put(
      { configurable: { thread_id: 'task-1', checkpoint_ns: '' } },
      checkpointWith({ messages: ['hi', { nested: [1, 2, 3] }] }, { messages: 1 }),
      meta(0),
      { messages: 1 },
    );
    await new LibsqlSaver(first).putWrites(written, [['messages', ['again']]], 'node');
    first.close();

    const second = createClient({ url });
    try {
      const tuple = await new LibsqlSaver(second).getTuple({
        configurable: { thread_id: 'task-1' },
      });
      expect(tuple?.config.configurable?.checkpoint_id).toBe(written.configurable?.checkpoint_id);
      expect(tuple?.checkpoint.channel_values).toEqual({
        messages: ['hi', { nested: [1, 2, 3] }],
      });
      expect(tuple?.pendingWrites).toEqual([['node', 'messages', ['again']]]);
    } finally {
      second.close();
    }
  });
});
