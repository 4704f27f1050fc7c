// SQL statements and write transactions per interact request (the store work of one request),
// counted at the libSQL binding under the real route, runtime and agent, on a database file,
// with the scripted model: a SIMPLE start ("click Logout"), its continuation (tier-1 verify →
// finish), a COMPLEX start and a COMPLEX step (verify → advance → refine → predict).
//
//   npm run bench:statements [-- --verbose]
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createScriptedLlm } from '@tandem/llm/testing';
import { createRuntime, interactRoute, parseEnv } from '@tandem/server/in-process';
import { createLibsqlStore } from '@tandem/store';
import { scriptedSteps, tree } from './workload';

const verbose = process.argv.includes('--verbose');

// The binding the store uses (one copy, loaded through require as the store loads it).
const storeRequire = createRequire(import.meta.resolve('@tandem/store'));
const Database = storeRequire('libsql') as {
  prototype: { prepare(sql: string): { run: unknown; all: unknown } };
};

interface Counts {
  statements: number;
  reads: number;
  writes: number;
  /** Commits: an explicit transaction's COMMIT, or a write outside one (autocommit). */
  transactions: number;
  sql: string[];
}
let counts: Counts | null = null;
let inTransaction = false;
let transactionWrites = 0;
const sqlOf = new WeakMap<object, string>();

// Count every statement the binding runs: statements are cached by the client, so `run`/`all`
// are patched on each statement's prototype, and `prepare` remembers the SQL of each.
const originalPrepare = Database.prototype.prepare;
let patched = false;
let depth = 0;
Database.prototype.prepare = function (this: unknown, sql: string) {
  const statement = originalPrepare.call(this, sql) as { run: unknown; all: unknown };
  sqlOf.set(statement, sql);
  if (!patched) {
    patched = true;
    const proto = Object.getPrototypeOf(statement) as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    for (const method of ['run', 'all', 'get', 'iterate'] as const) {
      const original = proto[method];
      if (typeof original !== 'function') continue;
      proto[method] = function (this: object, ...args: unknown[]) {
        // The binding's `all` runs through its own `iterate`: count the outer call only.
        if (counts && depth === 0)
          note(counts, (sqlOf.get(this) ?? '?').replace(/\s+/g, ' ').trim());
        depth += 1;
        try {
          return original.apply(this, args);
        } finally {
          depth -= 1;
        }
      };
    }
  }
  return statement;
};

function note(c: Counts, sql: string): void {
  const verb = sql.split(' ')[0]?.toUpperCase() ?? '';
  if (verb === 'BEGIN') {
    inTransaction = true;
    transactionWrites = 0;
    c.sql.push(sql);
    return;
  }
  if (verb === 'COMMIT' || verb === 'ROLLBACK') {
    inTransaction = false;
    // A read-only transaction takes no write lock.
    if (transactionWrites > 0) c.transactions += 1;
    c.sql.push(sql);
    return;
  }
  c.statements += 1;
  const write = /^(INSERT|UPDATE|DELETE|REPLACE)/i.test(sql);
  if (write) c.writes += 1;
  else c.reads += 1;
  if (write && !inTransaction) c.transactions += 1;
  if (write && inTransaction) transactionWrites += 1;
  c.sql.push(`${inTransaction ? '  ' : ''}${sql.slice(0, 110)}`);
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tandem-bench-statements-'));
  try {
    const store = await createLibsqlStore({ url: `file:${path.join(dir, 'tandem.db')}` });
    const tenant = await store.tenants.create({ name: 'bench' });
    const { plaintextKey } = await store.apiKeys.create(tenant.id, { userId: 'bench', name: 'b' });
    const env = parseEnv({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: dir });
    const llm = createScriptedLlm(scriptedSteps(10), { zeroLatency: true });
    const runtime = await createRuntime({ env, store, llm });
    const handler = interactRoute.withRuntime(runtime);
    const post = async (name: string, body: unknown) => {
      counts = { statements: 0, reads: 0, writes: 0, transactions: 0, sql: [] };
      const response = await handler(
        new Request('http://127.0.0.1/api/agent/interact', {
          method: 'POST',
          headers: { authorization: `Bearer ${plaintextKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
      const json = (await response.json()) as { taskId: string; sessionId: string };
      // Writes the answer leaves behind (usage, traces) settle within a tick or two.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const result = { name, status: response.status, ...counts };
      counts = null;
      return { json, result };
    };

    const start = (name: string, url: string, query: string, n: number) =>
      post(name, { url, query, interactiveTree: tree(n) });
    // The next request of a task: its last action succeeded and moved the page.
    const next = (
      name: string,
      task: { taskId: string; sessionId: string },
      url: string,
      interactiveTree: unknown,
    ) =>
      post(name, {
        url,
        ...task,
        lastActionStatus: 'success',
        clientObservations: { didUrlChange: true },
        interactiveTree,
      });
    const signIn = [{ i: 'signin', r: 'btn', n: 'Sign in' }];

    // Warm-up: the first request of a process prepares statements and caches the tenant.
    const warm = await start('warm-up', 'https://app.example/w', 'click Logout', 0);
    await next('warm-up', warm.json, 'https://app.example/w2', signIn);

    const simple = await start('SIMPLE start', 'https://app.example/1', 'click Logout', 1);
    const simpleNext = await next(
      'SIMPLE continuation',
      simple.json,
      'https://app.example/login-1',
      signIn,
    );
    const complex = await start(
      'COMPLEX start',
      'https://list.example/1',
      'page through the whole list',
      2,
    );
    const complexNext = await next(
      'COMPLEX step',
      complex.json,
      'https://list.example/p2-1',
      tree(100_000),
    );
    const rows = [simple, simpleNext, complex, complexNext].map((request) => request.result);
    await runtime.close();

    console.log(
      '\nbench/interact statements — SQL per request at the libSQL binding (file database)',
    );
    console.log('request                 status  statements  reads  writes  write transactions');
    for (const row of rows) {
      console.log(
        `${row.name.padEnd(24)}${String(row.status).padEnd(8)}${String(row.statements).padEnd(12)}${String(row.reads).padEnd(7)}${String(row.writes).padEnd(8)}${row.transactions}`,
      );
      if (verbose) for (const sql of row.sql) console.log(`    ${sql}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
