import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLibsqlClient } from './client';
import { NativeSqlClient } from './native-client';

describe('NativeSqlClient', () => {
  const clients: NativeSqlClient[] = [];
  const open = () => {
    const client = new NativeSqlClient(':memory:');
    clients.push(client);
    return client;
  };
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  it('binds positional and named arguments and converts booleans, dates and blobs', async () => {
    const db = open();
    await db.execute(
      'CREATE TABLE t (id INTEGER PRIMARY KEY, flag INTEGER, at INTEGER, data BLOB)',
    );
    const at = new Date('2026-01-02T03:04:05.000Z');
    await db.execute({
      sql: 'INSERT INTO t (flag, at, data) VALUES (?, ?, ?)',
      args: [true, at, new Uint8Array([1, 2, 3]).buffer],
    });
    await db.execute({
      sql: 'INSERT INTO t (flag, at, data) VALUES (:flag, @at, $data)',
      args: { ':flag': false, '@at': 7, $data: null },
    });
    const { rows, columns } = await db.execute('SELECT flag, at, data FROM t ORDER BY id');
    expect(columns).toEqual(['flag', 'at', 'data']);
    expect(rows[0]?.flag).toBe(1);
    expect(rows[0]?.at).toBe(at.valueOf());
    // Blobs come back as ArrayBuffers, as from @libsql/client.
    expect([...new Uint8Array(rows[0]?.data as ArrayBuffer)]).toEqual([1, 2, 3]);
    expect(rows[1]).toMatchObject({ flag: 0, at: 7, data: null });
  });

  it('runs a batch inside a transaction as a savepoint: a failed batch undoes only itself', async () => {
    const db = open();
    await db.execute('CREATE TABLE t (v TEXT UNIQUE)');
    const values = async () =>
      (await db.execute('SELECT v FROM t ORDER BY v')).rows.map((r) => r.v);
    await db.transaction(async () => {
      await db.execute({ sql: 'INSERT INTO t (v) VALUES (?)', args: ['a'] });
      await expect(
        db.batch([
          { sql: 'INSERT INTO t (v) VALUES (?)', args: ['b'] },
          { sql: 'INSERT INTO t (v) VALUES (?)', args: ['a'] },
        ]),
      ).rejects.toThrow(/UNIQUE/);
      await db.batch([{ sql: 'INSERT INTO t (v) VALUES (?)', args: ['c'] }], 'write');
    });
    expect(await values()).toEqual(['a', 'c']);
  });

  it('holds other callers back while a transaction runs, then lets them in', async () => {
    const db = open();
    await db.execute('CREATE TABLE t (v TEXT)');
    const order: string[] = [];
    let opened = (): void => {};
    const outside = new Promise<void>((resolve) => (opened = resolve)).then(async () => {
      await db.execute({ sql: 'INSERT INTO t (v) VALUES (?)', args: ['outside'] });
      order.push('outside ran');
    });
    await db
      .transaction(async () => {
        await db.execute({ sql: 'INSERT INTO t (v) VALUES (?)', args: ['inside'] });
        opened();
        await new Promise((resolve) => setTimeout(resolve, 10));
        order.push('transaction ends');
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await outside;
    expect(order).toEqual(['transaction ends', 'outside ran']);
    expect((await db.execute('SELECT v FROM t')).rows.map((r) => r.v)).toEqual(['outside']);
  });

  it('reports changes and the last rowid for writes, rows for RETURNING', async () => {
    const db = open();
    await db.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const insert = await db.execute({ sql: 'INSERT INTO t (v) VALUES (?), (?)', args: ['a', 'b'] });
    expect(insert.rowsAffected).toBe(2);
    expect(insert.lastInsertRowid).toBe(2n);
    const returning = await db.execute({
      sql: 'UPDATE t SET v = ? WHERE id = ? RETURNING *',
      args: ['c', 1],
    });
    expect(returning.rows).toEqual([{ id: 1, v: 'c' }]);
  });

  it('commits a batch atomically and rolls the whole batch back when one statement fails', async () => {
    const db = open();
    await db.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)');
    await db.batch(
      [
        { sql: 'INSERT INTO t (v) VALUES (?)', args: ['a'] },
        ['INSERT INTO t (v) VALUES (?)', ['b']],
      ],
      'write',
    );
    await expect(
      db.batch(
        [
          { sql: 'INSERT INTO t (v) VALUES (?)', args: ['c'] },
          { sql: 'INSERT INTO t (v) VALUES (?)', args: ['a'] },
        ],
        'write',
      ),
    ).rejects.toThrow(/UNIQUE constraint failed/);
    const { rows } = await db.execute('SELECT v FROM t ORDER BY v');
    expect(rows.map((r) => r.v)).toEqual(['a', 'b']);
    // The failed batch left no transaction open: the next one starts cleanly.
    await db.batch([{ sql: 'INSERT INTO t (v) VALUES (?)', args: ['d'] }], 'write');
    expect((await db.execute('SELECT count(*) AS n FROM t')).rows[0]?.n).toBe(3);
  });

  it('keeps working past the statement cache size (evicted statements are prepared again)', async () => {
    const db = open();
    await db.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)');
    for (let k = 0; k < 600; k++) {
      // 600 distinct SQL texts: more than the cache holds.
      await db.execute({ sql: `INSERT INTO t (v) VALUES (? + ${k})`, args: [0] });
    }
    await db.execute({ sql: 'INSERT INTO t (v) VALUES (? + 0)', args: [1] });
    const { rows } = await db.execute('SELECT count(*) AS n, sum(v) AS s FROM t');
    expect(rows[0]).toMatchObject({ n: 601, s: (599 * 600) / 2 + 1 });
  });

  it('answers a statement after close with an error, not a crash of the process', async () => {
    const client = open();
    await client.execute('CREATE TABLE t (a INTEGER)');
    client.close();
    await expect(client.execute('SELECT a FROM t')).rejects.toThrow('The store is closed.');
    await expect(client.batch(['SELECT 1'])).rejects.toThrow('The store is closed.');
    client.close();
  });

  it('rejects undefined arguments instead of binding them as NULL', async () => {
    const db = open();
    await db.execute('CREATE TABLE t (v TEXT)');
    await expect(
      db.execute({ sql: 'INSERT INTO t (v) VALUES (?)', args: [undefined as unknown as null] }),
    ).rejects.toThrow(/undefined/);
  });
});

describe('openLibsqlClient', () => {
  it('opens a file database in WAL mode with NORMAL synchronous', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tandem-native-client-'));
    try {
      const client = await openLibsqlClient({ url: `file:${path.join(dir, 'nested', 'x.db')}` });
      expect((await client.execute('PRAGMA journal_mode')).rows[0]?.journal_mode).toBe('wal');
      // 1 = NORMAL (2 would be FULL): see client.ts for why.
      expect((await client.execute('PRAGMA synchronous')).rows[0]?.synchronous).toBe(1);
      client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('NativeSqlClient after another connection held the lock', () => {
  it('a write that timed out on the lock does not poison later transactions', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tandem-native-busy-'));
    const file = path.join(dir, 'busy.db');
    const client = new NativeSqlClient(file, {
      timeoutMs: 50,
      onConnect: ['PRAGMA journal_mode = WAL'],
    });
    const other = new NativeSqlClient(file, { timeoutMs: 50 });
    try {
      await client.execute('CREATE TABLE t (x INTEGER)');
      await client.execute('INSERT INTO t (x) VALUES (?)', [1]);
      // Another process holds the write lock: this write waits out the busy timeout and fails.
      await other.execute('BEGIN IMMEDIATE');
      await expect(
        client.execute('UPDATE t SET x = x + 10 WHERE x = ?', [1]),
      ).rejects.toMatchObject({
        code: expect.stringMatching(/^SQLITE_BUSY/),
      });
      await other.execute('ROLLBACK');
      // Before, the timed-out statement stayed pending and every later COMMIT on the connection
      // failed with "SQL statements in progress", until the process restarted.
      await client.batch(
        [['INSERT INTO t (x) VALUES (?)', [4]], 'SELECT count(*) AS n FROM t'],
        'write',
      );
      await client.execute('INSERT INTO t (x) VALUES (?)', [5]);
      const { rows } = await client.execute('SELECT x FROM t ORDER BY x');
      expect(rows.map((r) => r.x)).toEqual([1, 4, 5]);
    } finally {
      client.close();
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
