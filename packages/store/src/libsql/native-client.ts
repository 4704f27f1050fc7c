// The SQL client for local libSQL databases (a file or `:memory:`), straight over the `libsql`
// native binding that @libsql/client itself wraps. Why not @libsql/client here: it prepares
// every statement anew, reads column metadata twice and builds each row with several
// Object.defineProperty calls, behind an async connection pool. That was a third of an interact
// step's CPU (bench/interact). This client keeps one connection, caches prepared statements and
// returns the binding's plain row objects. Remote URLs (libsql://, https://) still go through
// @libsql/client, which speaks the network protocol; both satisfy `SqlClient`.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type {
  Client,
  InArgs,
  InStatement,
  InValue,
  ResultSet,
  Row,
  TransactionMode,
} from '@libsql/client';
import type LibsqlDatabase from 'libsql';
import { WalCheckpointThread, type WalCheckpointOptions } from './wal-checkpoints';

/** What the repositories use of a libSQL client (remote-client.ts adapts @libsql/client's). */
export interface SqlClient extends Pick<Client, 'execute' | 'batch' | 'close'> {
  /**
   * Runs `work` as one write transaction: the statements it runs (awaited inside it) commit
   * together, or none does when it throws. Other callers' statements wait until it ends, so
   * they can neither join it nor be rolled back with it. A transaction inside one joins it.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
}

type NativeDatabase = InstanceType<typeof LibsqlDatabase>;
type NativeStatement = ReturnType<NativeDatabase['prepare']>;
type NativeArgs = unknown[] | Record<string, unknown>;

// `libsql` is CommonJS; loading it through require keeps one copy shared with @libsql/client.
const Database = createRequire(import.meta.url)('libsql') as typeof LibsqlDatabase;

/** Enough for every distinct statement the repositories issue; dynamic ones (IN lists, multi-row inserts) rotate out. */
const STATEMENT_CACHE_SIZE = 512;

interface CachedStatement {
  statement: NativeStatement;
  /** Whether the statement returns rows (SELECT, RETURNING, some PRAGMAs). */
  reader: boolean;
}

interface OpenTransaction {
  /** Settles when the transaction has committed or rolled back. */
  ended: Promise<void>;
}

const BEGIN: Record<TransactionMode, string> = {
  write: 'BEGIN IMMEDIATE',
  read: 'BEGIN TRANSACTION READONLY',
  deferred: 'BEGIN DEFERRED',
};

function toSqlValue(value: InValue | undefined): unknown {
  if (value === undefined) throw new TypeError('libsql: undefined is not a valid SQL value');
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.valueOf();
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  return value;
}

function toNativeArgs(args: InArgs | undefined): NativeArgs {
  if (args === undefined) return [];
  if (Array.isArray(args)) return args.map(toSqlValue);
  const named: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    // Like @libsql/client: ":x", "@x" and "$x" all bind the parameter named "x".
    const key = name[0] === ':' || name[0] === '@' || name[0] === '$' ? name.slice(1) : name;
    named[key] = toSqlValue(value);
  }
  return named;
}

function resultSet(rows: Row[], rowsAffected: number, lastInsertRowid: bigint | undefined) {
  const first = rows[0];
  const result: ResultSet = {
    columns: first ? Object.keys(first) : [],
    columnTypes: [],
    rows,
    rowsAffected,
    lastInsertRowid,
    toJSON: () => ({ columns: result.columns, rows, rowsAffected }),
  };
  return result;
}

/**
 * SQLite errors after which the failing statement is left mid-execution: it was stepped but
 * neither finished nor reset (the binding has no reset), and while it is, every COMMIT on the
 * connection fails with "cannot commit transaction - SQL statements in progress". A constraint
 * error is not one of them: that statement ran to its end.
 */
const LEAVES_STATEMENT_PENDING = /^SQLITE_(BUSY|LOCKED|INTERRUPT|IOERR|FULL|NOMEM|PROTOCOL)/;

const isPendingStatementError = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  LEAVES_STATEMENT_PENDING.test(String((error as { code?: unknown }).code ?? ''));

export class NativeSqlClient implements SqlClient {
  #db: NativeDatabase;
  readonly #statements = new Map<string, CachedStatement>();
  readonly #open: () => NativeDatabase;

  readonly #reopens: boolean;
  #closed = false;
  /** Copies the log back off this thread; null when SQLite does it at commit. */
  #checkpoints: WalCheckpointThread | null = null;
  /** The open transaction(), if any: its async context runs statements, everyone else waits. */
  #transaction: OpenTransaction | null = null;
  /** Transactions queue behind one another (one connection, one transaction at a time). */
  #transactionTurn: Promise<void> = Promise.resolve();
  readonly #context = new AsyncLocalStorage<OpenTransaction>();

  constructor(
    path: string,
    options: {
      timeoutMs?: number;
      /** Statements every new connection runs first (per-connection PRAGMAs). */
      onConnect?: readonly string[];
      /** WAL checkpoints on a thread instead of inside commits (wal-checkpoints.ts). */
      backgroundCheckpoints?: Pick<WalCheckpointOptions, 'intervalMs' | 'workerFile'>;
    } = {},
  ) {
    this.#open = () => {
      const db = new Database(path, { timeout: options.timeoutMs ?? 0 });
      try {
        for (const sql of options.onConnect ?? []) db.exec(sql);
        if (this.#checkpoints?.running) db.exec('PRAGMA wal_autocheckpoint = 0');
      } catch (error) {
        db.close();
        throw error;
      }
      return db;
    };
    this.#db = this.#open();
    // A second connection to ':memory:' would be another, empty database.
    this.#reopens = path !== ':memory:';
    if (options.backgroundCheckpoints && this.#reopens) {
      this.#checkpoints = new WalCheckpointThread({
        ...options.backgroundCheckpoints,
        path,
        busyTimeoutMs: options.timeoutMs ?? 0,
        onStopped: (reason) => this.#checkpointAtCommit(reason),
      });
      this.#db.exec('PRAGMA wal_autocheckpoint = 0');
    }
  }

  /** The checkpoint thread stopped: SQLite's own checkpoints at commit take over again. */
  #checkpointAtCommit(reason: string): void {
    if (this.#closed) return;
    this.#db.exec('PRAGMA wal_autocheckpoint = 1000');
    process.emitWarning(
      `libSQL WAL checkpoints are back on the server's thread: ${reason}`,
      'TandemStoreWarning',
    );
  }

  /** The background checkpointer, when one runs (tests, and a caller about to copy the file). */
  get walCheckpoints(): WalCheckpointThread | null {
    return this.#checkpoints;
  }

  /**
   * After an error that leaves its statement pending (a write that met another connection's lock
   * past the busy timeout), the connection is replaced: the pending statement would otherwise
   * make every later transaction on it fail to commit, for as long as the process runs.
   */
  #recoverFrom(error: unknown): void {
    if (!this.#reopens || !isPendingStatementError(error)) return;
    const old = this.#db;
    this.#statements.clear();
    this.#db = this.#open();
    try {
      old.close();
    } catch {
      // Closing is best effort: the old connection holds nothing once its transaction is gone.
    }
  }

  // The native driver aborts the whole process (a Rust panic) when a closed connection is used;
  // a late caller (a background poll, a request outliving a shutdown) gets an error instead.
  #checkOpen(): void {
    if (this.#closed) throw new Error('The store is closed.');
  }

  #prepare(sql: string): CachedStatement {
    const hit = this.#statements.get(sql);
    if (hit) {
      // Map order is insertion order: re-inserting keeps the most used statements cached.
      this.#statements.delete(sql);
      this.#statements.set(sql, hit);
      return hit;
    }
    const statement = this.#db.prepare(sql);
    const cached = { statement, reader: statement.reader };
    this.#statements.set(sql, cached);
    if (this.#statements.size > STATEMENT_CACHE_SIZE) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    return cached;
  }

  #run(sql: string, args: InArgs | undefined): ResultSet {
    const { statement, reader } = this.#prepare(sql);
    const native = toNativeArgs(args);
    if (reader) return resultSet(statement.all(native) as Row[], 0, undefined);
    const info = statement.run(native);
    return resultSet([], info.changes, BigInt(info.lastInsertRowid));
  }

  #normalize(stmt: InStatement | [string, InArgs?]): { sql: string; args: InArgs | undefined } {
    if (typeof stmt === 'string') return { sql: stmt, args: undefined };
    if (Array.isArray(stmt)) return { sql: stmt[0], args: stmt[1] };
    return { sql: stmt.sql, args: stmt.args };
  }

  /** Whether the caller runs inside the open transaction (or there is none). */
  #mayRun(): boolean {
    return this.#transaction === null || this.#context.getStore() === this.#transaction;
  }

  /** Until the caller may use the connection: another caller's transaction has ended. */
  async #outsideOthersTransaction(): Promise<void> {
    while (!this.#mayRun()) await this.#transaction?.ended;
  }

  execute(stmt: InStatement): Promise<ResultSet>;
  execute(sql: string, args?: InArgs): Promise<ResultSet>;
  async execute(stmtOrSql: InStatement, args?: InArgs): Promise<ResultSet> {
    this.#checkOpen();
    // Without a transaction open, the statement runs before this call returns, as it always has.
    if (!this.#mayRun()) await this.#outsideOthersTransaction();
    const { sql, args: stmtArgs } = this.#normalize(stmtOrSql);
    try {
      return this.#run(sql, typeof stmtOrSql === 'string' ? args : stmtArgs);
    } catch (error) {
      // A statement of a transaction begun with execute('BEGIN') leaves recovery to its ROLLBACK.
      if (!this.#db.inTransaction) this.#recoverFrom(error);
      throw error;
    }
  }

  /**
   * Runs the statements in one transaction. The whole batch executes synchronously on the one
   * connection, so no other request's statements can interleave with it in this process.
   */
  async batch(
    stmts: Array<InStatement | [string, InArgs?]>,
    mode: TransactionMode = 'deferred',
  ): Promise<ResultSet[]> {
    this.#checkOpen();
    if (!this.#mayRun()) await this.#outsideOthersTransaction();
    if (this.#transaction !== null) return this.#batchInside(stmts);
    this.#prepare(BEGIN[mode]).statement.run([]);
    try {
      const results = this.#runAll(stmts);
      this.#prepare('COMMIT').statement.run([]);
      return results;
    } catch (error) {
      if (this.#db.inTransaction) this.#prepare('ROLLBACK').statement.run([]);
      this.#recoverFrom(error);
      throw error;
    }
  }

  #runAll(stmts: Array<InStatement | [string, InArgs?]>): ResultSet[] {
    return stmts.map((stmt) => {
      const { sql, args } = this.#normalize(stmt);
      return this.#run(sql, args);
    });
  }

  /** A batch inside transaction(): all or nothing as a savepoint, the transaction goes on. */
  #batchInside(stmts: Array<InStatement | [string, InArgs?]>): ResultSet[] {
    this.#prepare('SAVEPOINT batch').statement.run([]);
    try {
      const results = this.#runAll(stmts);
      this.#prepare('RELEASE batch').statement.run([]);
      return results;
    } catch (error) {
      this.#prepare('ROLLBACK TO batch').statement.run([]);
      this.#prepare('RELEASE batch').statement.run([]);
      throw error;
    }
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    this.#checkOpen();
    const outer = this.#context.getStore();
    if (outer !== undefined && outer === this.#transaction) return work();
    let endTurn = (): void => {};
    const previous = this.#transactionTurn;
    this.#transactionTurn = new Promise((resolve) => (endTurn = resolve));
    await previous;
    // A statement outside any transaction may have been waiting on the one before: let it run.
    await this.#outsideOthersTransaction();
    let ended = (): void => {};
    const open: OpenTransaction = { ended: new Promise((resolve) => (ended = resolve)) };
    try {
      this.#checkOpen();
      this.#prepare(BEGIN.write).statement.run([]);
      this.#transaction = open;
      try {
        const result = await this.#context.run(open, work);
        this.#prepare('COMMIT').statement.run([]);
        return result;
      } catch (error) {
        if (!this.#closed && this.#db.inTransaction) this.#prepare('ROLLBACK').statement.run([]);
        if (!this.#closed) this.#recoverFrom(error);
        throw error;
      }
    } finally {
      this.#transaction = null;
      ended();
      endTurn();
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#checkpoints?.close();
    this.#statements.clear();
    this.#db.close();
  }
}
