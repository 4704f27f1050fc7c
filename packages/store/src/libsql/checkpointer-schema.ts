// Tables for LibsqlSaver (the LangGraph checkpointer of the embedded store). The libSQL
// adapter's versioned migration runner applies CHECKPOINT_MIGRATION once; the saver itself never
// creates tables, so a database is only ever shaped by migrations.
//
// Layout (same idea as the official Postgres saver, adapted so forks stay correct):
//  - checkpoints: one row per checkpoint. The serialized checkpoint is stored WITHOUT its
//    channel_values; `channel_sources` says, per channel, which checkpoint wrote the blob that
//    holds its value at this point ({"channel": ["<version>", "<writer checkpoint id>"]}).
//  - checkpoint_blobs: channel values, written only when `put` reports a new version for the
//    channel, so a long thread does not copy its whole state into every checkpoint. Keying the
//    blob by the writing checkpoint (not by version alone) keeps two branches of a forked thread
//    that reach the same version number with different values apart.
//  - checkpoint_writes: pending writes of a checkpoint, keyed like LangGraph's own savers.
//  - `metadata_json` is a plain JSON copy of the metadata used only for `list({ filter })`; the
//    serialized `metadata` blob is what round-trips.

export const CHECKPOINT_MIGRATION: { name: string; statements: string[] } = {
  name: 'langgraph-checkpoints',
  statements: [
    `CREATE TABLE IF NOT EXISTS checkpoints (
      thread_id TEXT NOT NULL,
      checkpoint_ns TEXT NOT NULL DEFAULT '',
      checkpoint_id TEXT NOT NULL,
      parent_checkpoint_id TEXT,
      type TEXT NOT NULL,
      checkpoint BLOB NOT NULL,
      metadata_type TEXT NOT NULL,
      metadata BLOB NOT NULL,
      metadata_json TEXT NOT NULL DEFAULT '{}',
      channel_sources TEXT NOT NULL DEFAULT '{}',
      created_at TEXT NOT NULL,
      PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
    )`,
    // list() without a namespace, newest first within a thread.
    `CREATE INDEX IF NOT EXISTS checkpoints_thread_checkpoint_idx
      ON checkpoints (thread_id, checkpoint_id)`,
    `CREATE TABLE IF NOT EXISTS checkpoint_blobs (
      thread_id TEXT NOT NULL,
      checkpoint_ns TEXT NOT NULL DEFAULT '',
      checkpoint_id TEXT NOT NULL,
      channel TEXT NOT NULL,
      version TEXT NOT NULL,
      type TEXT NOT NULL,
      value BLOB NOT NULL,
      PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, channel)
    )`,
    `CREATE TABLE IF NOT EXISTS checkpoint_writes (
      thread_id TEXT NOT NULL,
      checkpoint_ns TEXT NOT NULL DEFAULT '',
      checkpoint_id TEXT NOT NULL,
      task_id TEXT NOT NULL,
      idx INTEGER NOT NULL,
      channel TEXT NOT NULL,
      type TEXT NOT NULL,
      value BLOB NOT NULL,
      task_path TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
    )`,
  ],
};
