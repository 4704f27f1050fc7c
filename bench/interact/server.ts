// The process under test for bench/interact: the real interact route (auth, per-tenant rate
// limit, validation, agent, LangGraph with the libSQL checkpointer on a file) behind node:http
// on loopback. It runs in its own process, as a deployed server would, so the load generator
// does not share its event loop. Next.js' router is not in the loop.
//
// `server.ts <tasks> [workers]`: with workers > 1 the primary prepares the database and forks
// that many server processes (node:cluster) sharing the port and the database file, the way
// one Node process per core is deployed; tasks move freely between them.
import cluster from 'node:cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createScriptedLlm } from '@tandem/llm/testing';
import { createRuntime, interactRoute, parseEnv } from '@tandem/server/in-process';
import { createLibsqlStore } from '@tandem/store';
import { scriptedSteps, type BenchServerReady } from './workload';

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new Request(`http://127.0.0.1${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers: req.headers as Record<string, string>,
    body: chunks.length ? Buffer.concat(chunks) : undefined,
  });
}

interface Shared {
  dir: string;
  apiKey: string;
  tasks: number;
}

const dbUrl = (dir: string) => `file:${path.join(dir, 'tandem.db')}`;

/** Creates the database, the tenant and its key, once for all server processes. */
async function prepare(tasks: number): Promise<Shared> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tandem-bench-interact-'));
  const store = await createLibsqlStore({ url: dbUrl(dir) });
  const tenant = await store.tenants.create({ name: 'bench' });
  const { plaintextKey } = await store.apiKeys.create(tenant.id, {
    userId: 'bench',
    name: 'bench',
  });
  await store.close();
  return { dir, apiKey: plaintextKey, tasks };
}

/** One server process: its own store connection, runtime and scripted model. */
async function serve(shared: Shared): Promise<{ port: number; close: () => Promise<void> }> {
  const store = await createLibsqlStore({ url: dbUrl(shared.dir) });
  const llm = createScriptedLlm(scriptedSteps(shared.tasks * 2 + 50), { zeroLatency: true });
  const env = parseEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: shared.dir,
    RATE_LIMIT_INTERACT_PER_MIN: '1000000',
  });
  const handler = interactRoute.withRuntime(await createRuntime({ env, store, llm }));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void toRequest(req)
      .then((r) => handler(r))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.close();
      await store.close();
    },
  };
}

async function primary(tasks: number, workers: number) {
  const shared = await prepare(tasks);
  const cleanUp = () => rmSync(shared.dir, { recursive: true, force: true });
  let port: number;
  let close: () => Promise<void>;
  if (workers <= 1) {
    ({ port, close } = await serve(shared));
  } else {
    cluster.setupPrimary({ args: [JSON.stringify(shared)] });
    const forked = Array.from({ length: workers }, () => cluster.fork());
    const ports = await Promise.all(
      forked.map(
        (worker) =>
          new Promise<number>((resolve, reject) => {
            worker.once('message', (message: { port: number }) => resolve(message.port));
            worker.once('exit', (code) => reject(new Error(`bench worker exited with ${code}`)));
          }),
      ),
    );
    // Cluster workers listening on port 0 share one port handed out by the primary.
    port = ports[0] ?? 0;
    close = async () => {
      await Promise.all(
        forked.map((worker) => new Promise((resolve) => worker.once('exit', resolve).kill())),
      );
    };
  }
  const shutdown = () => {
    void close().finally(() => {
      cleanUp();
      process.exit(0);
    });
  };
  process.on('disconnect', shutdown);
  process.on('SIGTERM', shutdown);
  const ready: BenchServerReady = {
    url: `http://127.0.0.1:${port}/api/agent/interact`,
    apiKey: shared.apiKey,
  };
  process.send?.(ready);
}

async function worker(shared: Shared) {
  const { port, close } = await serve(shared);
  process.on('SIGTERM', () => void close().finally(() => process.exit(0)));
  process.send?.({ port });
}

const run = cluster.isPrimary
  ? primary(Number(process.argv[2] ?? '2500'), Number(process.argv[3] ?? '1'))
  : worker(JSON.parse(process.argv[2] ?? '{}') as Shared);
run.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
