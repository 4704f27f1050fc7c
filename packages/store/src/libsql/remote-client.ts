// The SqlClient for remote libSQL (libsql://, https://, Turso) over @libsql/client, which speaks
// the network protocol. Its interactive transactions run on a stream of their own, so unlike
// the native client nobody else has to wait: statements inside transaction() go to that stream
// (found through the async context), every other caller's go to the client as before.
import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  Client,
  InArgs,
  InStatement,
  ResultSet,
  Transaction,
  TransactionMode,
} from '@libsql/client';
import type { SqlClient } from './native-client';

export class RemoteSqlClient implements SqlClient {
  readonly #client: Client;
  readonly #context = new AsyncLocalStorage<Transaction>();

  constructor(client: Client) {
    this.#client = client;
  }

  /** The caller's open transaction, if it runs inside one. */
  #open(): Transaction | undefined {
    const transaction = this.#context.getStore();
    return transaction && !transaction.closed ? transaction : undefined;
  }

  execute(stmt: InStatement): Promise<ResultSet>;
  execute(sql: string, args?: InArgs): Promise<ResultSet>;
  async execute(stmtOrSql: InStatement, args?: InArgs): Promise<ResultSet> {
    const stmt: InStatement =
      typeof stmtOrSql === 'string' && args !== undefined ? { sql: stmtOrSql, args } : stmtOrSql;
    const transaction = this.#open();
    return transaction ? transaction.execute(stmt) : this.#client.execute(stmt);
  }

  async batch(
    stmts: Array<InStatement | [string, InArgs?]>,
    mode?: TransactionMode,
  ): Promise<ResultSet[]> {
    const transaction = this.#open();
    if (!transaction) return this.#client.batch(stmts, mode);
    const normalized = stmts.map((stmt): InStatement =>
      Array.isArray(stmt)
        ? stmt[1] === undefined
          ? stmt[0]
          : { sql: stmt[0], args: stmt[1] }
        : stmt,
    );
    return transaction.batch(normalized);
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.#open()) return work();
    const transaction = await this.#client.transaction('write');
    try {
      const result = await this.#context.run(transaction, work);
      await transaction.commit();
      return result;
    } catch (error) {
      if (!transaction.closed) await transaction.rollback().catch(() => undefined);
      throw error;
    } finally {
      transaction.close();
    }
  }

  close(): void {
    this.#client.close();
  }
}
