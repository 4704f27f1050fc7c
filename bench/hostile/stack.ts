// What the hostile suite attacks: the real server (`next start` on the production build, as
// bench/soak and bench/tasks start it) with every default, its scripted model, and tenants made
// in its store as the CLI makes them: the attacker, tenant B (whose latency is measured while
// the attacker's inputs run, and whose ids the fuzz must not reach) and fresh ones on demand.
// A server that dies under a case is started again (with new tenants) so the cases after it
// still measure something; the restart is counted and fails the run.
import { readFileSync } from 'node:fs';
import { createStore } from '@tandem/store';
import { startServer, type TandemServer } from '../tasks/harness/server';
import { hostileServerEnv } from './env';
import { startModelProcess, type ModelHandle } from './model';

export interface Tenant {
  id: string;
  name: string;
  /** An admin key, so the fuzz reaches the admin routes' validation too. */
  key: string;
}

export interface HostileStack {
  readonly url: string;
  readonly pid: number;
  readonly dataDir: string;
  readonly model: ModelHandle;
  readonly attacker: Tenant;
  readonly tenantB: Tenant;
  /** Times the server died and was started again. */
  readonly restarts: number;
  /** New tenants with a key each, in the running server's store. */
  tenants(prefix: string, count: number): Promise<Tenant[]>;
  /**
   * A finished crawl job of `tenant`, recorded in the store: a real crawl needs a URL that
   * resolves to a public address, i.e. the internet, which a bench must not fetch.
   */
  finishedJob(tenant: Tenant): Promise<string>;
  /** Whether the server process still runs (a zombie does not). */
  alive(): boolean;
  /** Starts a server again when this one died; true when it did. */
  revive(): Promise<boolean>;
  output(): string;
  close(): Promise<void>;
}

export async function createTenants(
  dataDir: string,
  prefix: string,
  count: number,
): Promise<Tenant[]> {
  const store = await createStore({ dataDir });
  try {
    const out: Tenant[] = [];
    for (let n = 0; n < count; n++) {
      const name = `${prefix}-${n}`;
      const tenant = await store.tenants.create({ name });
      const { plaintextKey } = await store.apiKeys.create(tenant.id, {
        userId: `${name}-user`,
        name,
        role: 'admin',
      });
      out.push({ id: tenant.id, name, key: plaintextKey });
    }
    return out;
  } finally {
    await store.close();
  }
}

async function recordFinishedJob(dataDir: string, tenant: Tenant): Promise<string> {
  const store = await createStore({ dataDir });
  try {
    const job = await store.knowledgeJobs.create(tenant.id, {
      url: `https://${tenant.name}.fuzz.example/`,
      strategy: 'single',
      maxPages: 1,
      maxDepth: 0,
      domain: `${tenant.name}.fuzz.example`,
      userId: `${tenant.name}-user`,
    });
    const now = new Date().toISOString();
    await store.knowledgeJobs.update(tenant.id, job.id, { status: 'completed', finishedAt: now });
    return job.id;
  } finally {
    await store.close();
  }
}

export function processAlive(pid: number): boolean {
  try {
    const state = /State:\s+(\S)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return state !== undefined && state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** `nodeArgs`: flags for the server's node process (floor.ts's --cpu-prof). */
export async function startHostileStack(nodeArgs: string[] = []): Promise<HostileStack> {
  const model = await startModelProcess();
  const boot = async () => {
    const server = await startServer((own) => hostileServerEnv(own, model), nodeArgs);
    const [attacker, tenantB] = await createTenants(server.dataDir, 'hostile', 2);
    if (!attacker || !tenantB) throw new Error('could not create the tenants');
    return { server, attacker, tenantB };
  };
  let current: { server: TandemServer; attacker: Tenant; tenantB: Tenant };
  try {
    current = await boot();
  } catch (error) {
    await model.close();
    throw error;
  }
  let restarts = 0;
  let earlierOutput = '';
  return {
    get url() {
      return current.server.url;
    },
    get pid() {
      return current.server.pid;
    },
    get dataDir() {
      return current.server.dataDir;
    },
    model,
    get attacker() {
      return current.attacker;
    },
    get tenantB() {
      return current.tenantB;
    },
    get restarts() {
      return restarts;
    },
    tenants: (prefix, count) => createTenants(current.server.dataDir, prefix, count),
    finishedJob: (tenant) => recordFinishedJob(current.server.dataDir, tenant),
    alive: () => processAlive(current.server.pid),
    async revive() {
      if (processAlive(current.server.pid)) return false;
      earlierOutput += current.server.output();
      await current.server.close().catch(() => undefined);
      restarts += 1;
      current = await boot();
      return true;
    },
    output: () => earlierOutput + current.server.output(),
    async close() {
      await current.server.close().catch(() => undefined);
      await model.close();
    },
  };
}
