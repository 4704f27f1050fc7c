// The process under test for bench/interact: the real interact route (auth, per-tenant rate
// limit, validation, agent, LangGraph with the libSQL checkpointer on a file) behind node:http
// on loopback. It runs in its own process, as a deployed server would, so the load generator
// does not share its event loop. Next.js' router is not in the loop.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createScriptedLlm } from '@tandem/agent';
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

async function main() {
  const tasks = Number(process.argv[2] ?? '2500');
  const dir = mkdtempSync(path.join(tmpdir(), 'tandem-bench-interact-'));
  const store = await createLibsqlStore({ url: `file:${path.join(dir, 'tandem.db')}` });
  const llm = createScriptedLlm(scriptedSteps(tasks * 2 + 50), { zeroLatency: true });
  const env = parseEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dir,
    RATE_LIMIT_INTERACT_PER_MIN: '1000000',
  });
  const runtime = await createRuntime({ env, store, llm });
  const tenant = await store.tenants.create({ name: 'bench' });
  const { plaintextKey } = await store.apiKeys.create(tenant.id, {
    userId: 'bench',
    name: 'bench',
  });
  const handler = interactRoute.withRuntime(runtime);
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

  const shutdown = () => {
    server.close();
    void store.close().finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  };
  process.on('disconnect', shutdown);
  process.on('SIGTERM', shutdown);

  const ready: BenchServerReady = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agent/interact`,
    apiKey: plaintextKey,
  };
  process.send?.(ready);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
