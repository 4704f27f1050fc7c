// The thread that copies the write-ahead log of a libSQL database file back into the file
// (wal-checkpoints.ts says why it is a thread). Plain JavaScript with no workspace imports: a
// thread opens its entry file at run time, past the bundler, so it needs nothing but `libsql`.
import { parentPort, workerData } from 'node:worker_threads';
import { readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { clearInterval, setInterval } from 'node:timers';

// `libsql` is CommonJS, loaded the way native-client.ts loads it.
const Database = createRequire(import.meta.url)('libsql');

/** @type {{ path: string; intervalMs: number; busyTimeoutMs: number }} */
const { path, intervalMs, busyTimeoutMs } = workerData;

// Below the event loop's CPU priority (nice 10), as the parse pool's threads: copying the log
// back can wait, answering requests cannot. Linux only; elsewhere the process's priority.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
} catch {
  // Not Linux, or not allowed.
}

const db = new Database(path, { timeout: busyTimeoutMs });
// This connection writes nothing itself, but a connection that opens a WAL database checkpoints
// by default at commit; off, so that only the timer below does.
db.exec('PRAGMA wal_autocheckpoint = 0');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

/** One checkpoint; `reply` (on request) says how it went, the timer's runs say nothing. */
function run(reply) {
  try {
    // PASSIVE copies what it can without waiting for readers or writers, so it never holds up
    // the server's connection; what it could not copy it copies next time.
    const row = checkpoint.get();
    if (reply)
      parentPort?.postMessage({ kind: 'checkpointed', frames: row.log, copied: row.checkpointed });
  } catch (error) {
    // SQLITE_BUSY: another process's checkpoint is running, which does the same work; anything
    // else is tried again at the next tick, as SQLite retries its own at the next commit.
    if (reply)
      parentPort?.postMessage({ kind: 'failed', message: String(error?.message ?? error) });
  }
}

const timer = setInterval(() => run(false), intervalMs);

parentPort?.on('message', (message) => {
  if (message === 'now') run(true);
  if (message === 'close') {
    clearInterval(timer);
    try {
      db.close();
    } finally {
      parentPort?.close();
    }
  }
});
