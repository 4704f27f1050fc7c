import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openLibsqlClient } from './client';
import { NativeSqlClient } from './native-client';

const ROW = 'x'.repeat(3_000);

describe('WAL checkpoints off the server thread', () => {
  const dirs: string[] = [];
  const clients: NativeSqlClient[] = [];
  const file = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tandem-wal-'));
    dirs.push(dir);
    return path.join(dir, 'tandem.db');
  };
  const track = (client: NativeSqlClient) => {
    clients.push(client);
    return client;
  };
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function fill(client: NativeSqlClient, rows: number): Promise<void> {
    await client.execute('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT)');
    for (let i = 0; i < rows; i++) {
      await client.execute({ sql: 'INSERT INTO t (body) VALUES (?)', args: [ROW] });
    }
  }

  it('the server opens file databases with checkpoints on the thread', async () => {
    const client = (await openLibsqlClient({ url: `file:${file()}` })) as NativeSqlClient;
    track(client);
    const auto = await client.execute('PRAGMA wal_autocheckpoint');
    expect(Object.values(auto.rows[0] ?? {})).toEqual([0]);
    expect(client.walCheckpoints?.running).toBe(true);
  });

  it('commits leave the log to the thread, which copies it back into the file', async () => {
    const dbFile = file();
    // The timer is out of the way: this test asks for the checkpoint itself.
    const client = track(
      new NativeSqlClient(dbFile, {
        timeoutMs: 5_000,
        onConnect: ['PRAGMA journal_mode = WAL', 'PRAGMA synchronous = NORMAL'],
        backgroundCheckpoints: { intervalMs: 3_600_000 },
      }),
    );
    // ~3,000 pages: three times what SQLite would have checkpointed at commit by itself.
    await fill(client, 4_000);
    const before = statSync(dbFile).size;
    const checkpoints = client.walCheckpoints;
    if (!checkpoints) throw new Error('no checkpoint thread');
    const result = await checkpoints.checkpointNow();
    expect(result.frames).toBeGreaterThan(3_000);
    expect(result.copied).toBe(result.frames);
    // The rows are in the database file itself now, not only in the log.
    expect(statSync(dbFile).size).toBeGreaterThan(before + 10_000_000);
    const count = await client.execute('SELECT count(*) AS n FROM t');
    expect(count.rows[0]?.n).toBe(4_000);
  });

  it('the timer checkpoints without being asked', async () => {
    const dbFile = file();
    const client = track(
      new NativeSqlClient(dbFile, {
        timeoutMs: 5_000,
        onConnect: ['PRAGMA journal_mode = WAL', 'PRAGMA synchronous = NORMAL'],
        backgroundCheckpoints: { intervalMs: 50 },
      }),
    );
    await fill(client, 300);
    const deadline = Date.now() + 5_000;
    while (statSync(dbFile).size < 300 * ROW.length && Date.now() < deadline) await sleep(25);
    expect(statSync(dbFile).size).toBeGreaterThan(300 * ROW.length);
  });

  it('SQLite checkpoints at commit again when the thread cannot run, with a warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const client = track(
        new NativeSqlClient(file(), {
          timeoutMs: 5_000,
          onConnect: ['PRAGMA journal_mode = WAL'],
          backgroundCheckpoints: { workerFile: path.join(tmpdir(), 'no-such-worker.mjs') },
        }),
      );
      const deadline = Date.now() + 5_000;
      while (client.walCheckpoints?.running && Date.now() < deadline) await sleep(10);
      expect(client.walCheckpoints?.running).toBe(false);
      const auto = await client.execute('PRAGMA wal_autocheckpoint');
      expect(Object.values(auto.rows[0] ?? {})).toEqual([1_000]);
      await sleep(0);
      expect(warnings.join('\n')).toMatch(/checkpoints are back on the server's thread/);
      await expect(client.walCheckpoints?.checkpointNow()).rejects.toThrow(/not running/);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('an in-memory database starts no thread', () => {
    const client = track(new NativeSqlClient(':memory:', { backgroundCheckpoints: {} }));
    expect(client.walCheckpoints).toBeNull();
  });
});
