// Migration 8: the embedded event bus's relay (@tandem/jobs). Applied once by migrations.ts;
// never edit it once shipped — add a new migration instead.
//
// Every server process on the database file appends the events it publishes here and polls for
// the others'. `seq` is the rowid; AUTOINCREMENT makes it strictly increasing over the file's
// whole life: SQLite assigns it under the write lock, so concurrent appends from several
// connections (processes) are numbered in the order they commit, and a number is never handed
// out again, not even once prune has deleted every row. A reader that has seen seq N has
// therefore seen every committed event below it. `data` is JSON text; created_at is ISO TEXT.
export const LIVE_EVENTS_MIGRATION: { name: string; statements: string[] } = {
  name: 'live-events',
  statements: [
    `CREATE TABLE IF NOT EXISTS live_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      channel TEXT NOT NULL,
      origin TEXT NOT NULL,
      data TEXT,
      created_at TEXT NOT NULL
    )`,
    // listAfter, polled several times a second by every process: the followed channels' events
    // after the last seq seen. Channels carry the tenant, so no tenant_id leads it.
    `CREATE INDEX IF NOT EXISTS live_events_channel ON live_events (channel, seq)`,
  ],
};
