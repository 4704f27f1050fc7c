// LangGraph checkpointer for the embedded libSQL store (thread id = taskId). Tables come from
// CHECKPOINT_MIGRATION (./checkpointer-schema.ts); see there for the layout and why channel
// values live in their own table.
import { isDeepStrictEqual } from 'node:util';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  TASKS,
  WRITES_IDX_MAP,
  compareWritesSortKeys,
  maxChannelVersion,
  writesSortKey,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import type { InStatement, InValue, Row } from '@libsql/client';
import type { SqlClient } from './native-client';

/** Per channel: the version it has at a checkpoint and the checkpoint whose blob holds it. */
type ChannelSources = Record<string, [version: string, writerCheckpointId: string]>;

type StoredCheckpoint = Omit<Checkpoint, 'channel_values'>;

interface CheckpointKey {
  threadId: string;
  checkpointNs: string;
  /** Absent: the newest checkpoint of the thread/namespace. */
  checkpointId?: string;
}

/**
 * The three reads of `getTuple`: the checkpoint row, its channel blobs and its pending
 * writes. Exported for the test that checks every one of them is an index lookup.
 */
export function loadTupleStatements(key: CheckpointKey): InStatement[] {
  const { threadId, checkpointNs } = key;
  // Without an id the newest checkpoint is resolved inside the same read transaction, so
  // a concurrent put cannot pair one checkpoint's row with another's writes.
  const target = key.checkpointId
    ? { sql: '?', args: [key.checkpointId] }
    : {
        sql: `(SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ?
                 ORDER BY checkpoint_id DESC LIMIT 1)`,
        args: [threadId, checkpointNs],
      };
  const args = [threadId, checkpointNs, ...target.args];
  return [
    {
      sql: `SELECT checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata_type, metadata
              FROM checkpoints
              WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ${target.sql}`,
      args,
    },
    {
      // CROSS JOIN fixes the join order: left to itself, SQLite scans every blob of the
      // thread and runs json_each per blob, so reading a checkpoint grew with the task's
      // length (10.8 ms on a 9-step task vs 0.24 ms by primary key, bench/interact).
      sql: `SELECT b.channel, b.type, b.value
              FROM checkpoints c
              CROSS JOIN json_each(c.channel_sources) s
              CROSS JOIN checkpoint_blobs b
                ON b.thread_id = c.thread_id AND b.checkpoint_ns = c.checkpoint_ns
               AND b.checkpoint_id = json_extract(s.value, '$[1]') AND b.channel = s.key
              WHERE c.thread_id = ? AND c.checkpoint_ns = ? AND c.checkpoint_id = ${target.sql}`,
      args,
    },
    {
      sql: `SELECT task_id, channel, type, value, task_path, idx
              FROM checkpoint_writes
              WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ${target.sql}`,
      args,
    },
  ];
}

/** Channel sources of recently written checkpoints kept in memory (see `put`). */
const SOURCES_CACHE_SIZE = 1_000;

const sourcesKey = (threadId: string, checkpointNs: string, checkpointId: string) =>
  `${threadId}\u0000${checkpointNs}\u0000${checkpointId}`;

export class LibsqlSaver extends BaseCheckpointSaver {
  /**
   * The next put of a thread names the checkpoint this process wrote last as its parent, and
   * needs that checkpoint's channel sources: remembering them saves a read per step. A
   * checkpoint's sources never change once written (ids are unique per put), so an entry can
   * only be missing, never stale; a miss reads the row. `deleteThread` drops its thread's
   * entries (a thread deleted by another process while this one still runs it is not a case
   * LangGraph has).
   */
  readonly #recentSources = new Map<string, ChannelSources>();

  constructor(
    private readonly client: SqlClient,
    serde?: SerializerProtocol,
  ) {
    super(serde);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = optionalString('thread_id', config.configurable?.thread_id);
    // LangGraph asks for the latest state of threads it has never seen; "nothing" is the answer.
    if (threadId === undefined) return undefined;
    const checkpointNs = optionalString('checkpoint_ns', config.configurable?.checkpoint_ns) ?? '';
    const checkpointId =
      optionalString('checkpoint_id', config.configurable?.checkpoint_id) ??
      // Configs written before checkpoint ids were renamed still carry `thread_ts`.
      optionalString('thread_ts', config.configurable?.thread_ts);
    return this.loadTuple({
      threadId,
      checkpointNs,
      ...(checkpointId ? { checkpointId } : {}),
    });
  }

  async *list(
    config: RunnableConfig,
    options: CheckpointListOptions = {},
  ): AsyncGenerator<CheckpointTuple> {
    const { before, filter } = options;
    const limit = options.limit === undefined ? undefined : Math.floor(options.limit);
    if (limit !== undefined && limit <= 0) return;

    const where: string[] = [];
    const args: InValue[] = [];
    const threadId = optionalString('thread_id', config.configurable?.thread_id);
    if (threadId !== undefined) {
      where.push('thread_id = ?');
      args.push(threadId);
    }
    const checkpointNs = optionalString('checkpoint_ns', config.configurable?.checkpoint_ns);
    if (checkpointNs !== undefined) {
      where.push('checkpoint_ns = ?');
      args.push(checkpointNs);
    }
    const checkpointId = optionalString('checkpoint_id', config.configurable?.checkpoint_id);
    if (checkpointId) {
      where.push('checkpoint_id = ?');
      args.push(checkpointId);
    }
    const beforeId = optionalString('checkpoint_id', before?.configurable?.checkpoint_id);
    if (beforeId !== undefined) {
      // Checkpoint ids are uuid6: their string order is their time order.
      where.push('checkpoint_id < ?');
      args.push(beforeId);
    }
    const jsFilters: [string, unknown][] = [];
    for (const [key, value] of Object.entries(filter ?? {})) {
      const predicate = metadataPredicate(key, value);
      if (predicate) {
        where.push(predicate.sql);
        args.push(...predicate.args);
      } else {
        jsFilters.push([key, value]);
      }
    }
    // A filter SQL cannot express is applied after loading, so the limit must be too.
    const sqlLimit = limit !== undefined && jsFilters.length === 0 ? ` LIMIT ${limit}` : '';

    // Keys first, tuples one at a time: a long history is never held in memory at once.
    const keys = await this.client.execute({
      sql:
        'SELECT thread_id, checkpoint_ns, checkpoint_id FROM checkpoints' +
        (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
        ' ORDER BY checkpoint_id DESC, thread_id, checkpoint_ns' +
        sqlLimit,
      args,
    });
    let yielded = 0;
    for (const key of keys.rows) {
      const tuple = await this.loadTuple({
        threadId: text(key, 'thread_id'),
        checkpointNs: text(key, 'checkpoint_ns'),
        checkpointId: text(key, 'checkpoint_id'),
      });
      // Deleted between the key query and now.
      if (!tuple) continue;
      const metadata: Record<string, unknown> = tuple.metadata ?? {};
      if (!jsFilters.every(([k, v]) => isDeepStrictEqual(metadata[k], v))) continue;
      yield tuple;
      yielded += 1;
      if (limit !== undefined && yielded >= limit) return;
    }
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId = requiredString('thread_id', config.configurable?.thread_id);
    const checkpointNs = optionalString('checkpoint_ns', config.configurable?.checkpoint_ns) ?? '';
    const parentId = optionalString('checkpoint_id', config.configurable?.checkpoint_id) || null;
    const checkpointId = requiredString('checkpoint.id', checkpoint.id);

    const { channel_values: values, ...stored } = checkpoint;
    const sources: ChannelSources = Object.create(null) as ChannelSources;
    // Channels that did not change keep pointing at the blob their parent used, as long as the
    // parent saw the same version (it always does when LangGraph calls us; a mismatch means
    // the caller's parent is not the checkpoint these versions came from).
    if (parentId !== null) {
      const parentSources =
        this.#recentSources.get(sourcesKey(threadId, checkpointNs, parentId)) ??
        (await this.readSources(threadId, checkpointNs, parentId));
      for (const [channel, version] of Object.entries(stored.channel_versions)) {
        const inherited = parentSources[channel];
        if (Object.hasOwn(newVersions, channel) || !inherited) continue;
        if (inherited[0] === String(version)) sources[channel] = inherited;
      }
    }
    const statements: InStatement[] = [];
    // One multi-row INSERT for all changed channels: a graph state has dozens of channels and
    // preparing one statement per blob was most of the cost of a checkpoint.
    const blobRows: InValue[][] = [];
    for (const [channel, version] of Object.entries(newVersions)) {
      // A channel with a new version but no value was emptied: it has no blob.
      if (!Object.hasOwn(values, channel)) continue;
      const [type, bytes] = await this.serde.dumpsTyped(values[channel]);
      sources[channel] = [String(version), checkpointId];
      blobRows.push([threadId, checkpointNs, checkpointId, channel, String(version), type, bytes]);
    }
    if (blobRows.length > 0) {
      statements.push({
        sql: `INSERT INTO checkpoint_blobs
                (thread_id, checkpoint_ns, checkpoint_id, channel, version, type, value)
              VALUES ${blobRows.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}
              ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, channel)
              DO UPDATE SET version = excluded.version, type = excluded.type, value = excluded.value`,
        args: blobRows.flat(),
      });
    }

    const [[checkpointType, checkpointBytes], [metadataType, metadataBytes]] = await Promise.all([
      this.serde.dumpsTyped(stored),
      this.serde.dumpsTyped(metadata),
    ]);
    statements.push({
      sql: `INSERT INTO checkpoints
              (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint,
               metadata_type, metadata, metadata_json, channel_sources, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET
              parent_checkpoint_id = excluded.parent_checkpoint_id,
              type = excluded.type,
              checkpoint = excluded.checkpoint,
              metadata_type = excluded.metadata_type,
              metadata = excluded.metadata,
              metadata_json = excluded.metadata_json,
              channel_sources = excluded.channel_sources`,
      args: [
        threadId,
        checkpointNs,
        checkpointId,
        parentId,
        checkpointType,
        checkpointBytes,
        metadataType,
        metadataBytes,
        searchableJson(metadata),
        JSON.stringify(sources),
        new Date().toISOString(),
      ],
    });
    await this.client.batch(statements, 'write');
    this.#remember(sourcesKey(threadId, checkpointNs, checkpointId), sources);
    return {
      configurable: {
        thread_id: threadId,
        checkpoint_ns: checkpointNs,
        checkpoint_id: checkpointId,
      },
    };
  }

  async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    const threadId = requiredString('thread_id', config.configurable?.thread_id);
    const checkpointNs = optionalString('checkpoint_ns', config.configurable?.checkpoint_ns) ?? '';
    const checkpointId = requiredString('checkpoint_id', config.configurable?.checkpoint_id);
    requiredString('taskId', taskId);
    const statements = await Promise.all(
      writes.map(async ([channel, value], position): Promise<InStatement> => {
        const idx = WRITES_IDX_MAP[channel] ?? position;
        const [type, bytes] = await this.serde.dumpsTyped(value);
        // A task that is retried writes the same regular writes again: the first ones stand.
        // Special writes (errors, interrupts, resumes: negative idx) describe the latest attempt.
        const onConflict =
          idx < 0
            ? `DO UPDATE SET channel = excluded.channel, type = excluded.type,
                 value = excluded.value, task_path = excluded.task_path`
            : 'DO NOTHING';
        return {
          sql: `INSERT INTO checkpoint_writes
                  (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value, task_path)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) ${onConflict}`,
          args: [
            threadId,
            checkpointNs,
            checkpointId,
            taskId,
            idx,
            channel,
            type,
            bytes,
            taskPath ?? '',
          ],
        };
      }),
    );
    if (statements.length > 0) await this.client.batch(statements, 'write');
  }

  async deleteThread(threadId: string): Promise<void> {
    requiredString('threadId', threadId);
    const prefix = `${threadId}\u0000`;
    for (const key of [...this.#recentSources.keys()])
      if (key.startsWith(prefix)) this.#recentSources.delete(key);
    await this.client.batch(
      ['checkpoint_writes', 'checkpoint_blobs', 'checkpoints'].map((table) => ({
        sql: `DELETE FROM ${table} WHERE thread_id = ?`,
        args: [threadId],
      })),
      'write',
    );
  }

  /** Checkpoint row, its channel blobs and its pending writes, read in one snapshot. */
  private async loadTuple(key: CheckpointKey): Promise<CheckpointTuple | undefined> {
    const { threadId, checkpointNs } = key;
    const [checkpointResult, blobResult, writesResult] = await this.client.batch(
      loadTupleStatements(key),
      'read',
    );
    const row = checkpointResult?.rows[0];
    if (!row) return undefined;
    const checkpointId = text(row, 'checkpoint_id');
    const parentId = nullableText(row, 'parent_checkpoint_id');

    const stored = (await this.serde.loadsTyped(
      text(row, 'type'),
      bytes(row, 'checkpoint'),
    )) as StoredCheckpoint;
    // fromEntries, not assignment: a channel called "__proto__" must stay an own property.
    const channelValues = Object.fromEntries(
      await Promise.all(
        (blobResult?.rows ?? []).map(
          async (blob) =>
            [
              text(blob, 'channel'),
              await this.serde.loadsTyped(text(blob, 'type'), bytes(blob, 'value')),
            ] as const,
        ),
      ),
    );
    const checkpoint: Checkpoint = { ...stored, channel_values: channelValues };
    if (checkpoint.v < 4 && parentId !== null) {
      await this.migratePendingSends(checkpoint, threadId, checkpointNs, parentId);
    }

    const tuple: CheckpointTuple = {
      config: {
        configurable: {
          thread_id: threadId,
          checkpoint_ns: checkpointNs,
          checkpoint_id: checkpointId,
        },
      },
      checkpoint,
      metadata: (await this.serde.loadsTyped(
        text(row, 'metadata_type'),
        bytes(row, 'metadata'),
      )) as CheckpointMetadata,
      pendingWrites: await this.loadWrites(writesResult?.rows ?? []),
    };
    if (parentId !== null) {
      tuple.parentConfig = {
        configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: parentId },
      };
    }
    return tuple;
  }

  /** Writes in the order live execution applies them (see `writesSortKey`). */
  private async loadWrites(rows: Row[]): Promise<CheckpointPendingWrite[]> {
    const sorted = rows
      .map((row) => ({
        row,
        key: writesSortKey(text(row, 'task_path'), text(row, 'task_id'), Number(row.idx)),
      }))
      .sort((a, b) => compareWritesSortKeys(a.key, b.key));
    return Promise.all(
      sorted.map(async ({ row }): Promise<CheckpointPendingWrite> => [
        text(row, 'task_id'),
        text(row, 'channel'),
        await this.serde.loadsTyped(text(row, 'type'), bytes(row, 'value')),
      ]),
    );
  }

  /**
   * Checkpoints older than format v4 kept pending `Send`s as writes to TASKS on their parent
   * instead of as a channel; current LangGraph expects the channel.
   */
  private async migratePendingSends(
    checkpoint: Checkpoint,
    threadId: string,
    checkpointNs: string,
    parentId: string,
  ): Promise<void> {
    const result = await this.client.execute({
      sql: `SELECT task_id, channel, type, value, task_path, idx FROM checkpoint_writes
            WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ? AND channel = ?`,
      args: [threadId, checkpointNs, parentId, TASKS],
    });
    if (result.rows.length === 0) return;
    const sends = await this.loadWrites(result.rows);
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_values[TASKS] = sends.map((write) => write[2]);
    checkpoint.channel_versions[TASKS] =
      versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }

  #remember(key: string, sources: ChannelSources): void {
    this.#recentSources.set(key, sources);
    if (this.#recentSources.size > SOURCES_CACHE_SIZE) {
      const oldest = this.#recentSources.keys().next().value;
      if (oldest !== undefined) this.#recentSources.delete(oldest);
    }
  }

  private async readSources(
    threadId: string,
    checkpointNs: string,
    checkpointId: string,
  ): Promise<ChannelSources> {
    const result = await this.client.execute({
      sql: `SELECT channel_sources FROM checkpoints
            WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?`,
      args: [threadId, checkpointNs, checkpointId],
    });
    const row = result.rows[0];
    if (!row) return Object.create(null) as ChannelSources;
    return Object.assign(
      Object.create(null) as ChannelSources,
      JSON.parse(text(row, 'channel_sources')) as ChannelSources,
    );
  }
}

// ---------------------------------------------------------------- helpers

function optionalString(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new Error(`Invalid configurable.${name}: expected a string`);
  return value;
}

function requiredString(name: string, value: unknown): string {
  const result = optionalString(name, value);
  if (result === undefined || result === '') {
    throw new Error(
      `LibsqlSaver: missing "${name}". Pass it in config.configurable, e.g. ` +
        `graph.invoke(input, { configurable: { thread_id: taskId } }).`,
    );
  }
  return result;
}

function text(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new Error(`LibsqlSaver: column ${column} is not text`);
  return value;
}

function nullableText(row: Row, column: string): string | null {
  const value = row[column];
  return value === null || value === undefined ? null : text(row, column);
}

function bytes(row: Row, column: string): Uint8Array {
  const value = row[column];
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  // Rows written by other tools may hold the serialized JSON as TEXT.
  if (typeof value === 'string') return new TextEncoder().encode(value);
  throw new Error(`LibsqlSaver: column ${column} is not a blob`);
}

/** JSON copy of the metadata for SQL filters; bigints (not JSON) become strings. */
function searchableJson(metadata: CheckpointMetadata): string {
  return JSON.stringify(metadata, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

/**
 * SQL for `metadata[key] === value` when SQL can decide it exactly: primitive values and keys
 * a JSON path can quote. json_type keeps `true` from matching 1 and "1" from matching 1.
 */
function metadataPredicate(key: string, value: unknown): { sql: string; args: InValue[] } | null {
  if (key.includes('"')) return null;
  const path = `$."${key}"`;
  if (value === null) return { sql: `json_type(metadata_json, ?) = 'null'`, args: [path] };
  if (typeof value === 'boolean') {
    return { sql: 'json_type(metadata_json, ?) = ?', args: [path, value ? 'true' : 'false'] };
  }
  if (typeof value === 'string') {
    return {
      sql: `(json_type(metadata_json, ?) = 'text' AND json_extract(metadata_json, ?) = ?)`,
      args: [path, path, value],
    };
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    return {
      sql: `(json_type(metadata_json, ?) IN ('integer', 'real') AND json_extract(metadata_json, ?) = ?)`,
      args: [path, path, value],
    };
  }
  return null;
}
