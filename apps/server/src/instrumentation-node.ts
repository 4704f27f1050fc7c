// Runs once at server start (Node runtime): open the store (running migrations) and make sure
// a dev tenant with a usable key exists, before the first request arrives.
import { ensureDevTenant, reportDevTenant } from './server/bootstrap';
import { getRuntime } from './server/runtime';

export async function startServer(): Promise<void> {
  const runtime = await getRuntime();
  runtime.log.info('store opened', {
    store: runtime.store.kind,
    ...(runtime.store.kind === 'libsql' ? { dataDir: runtime.env.DATA_DIR } : {}),
  });
  reportDevTenant(await ensureDevTenant(runtime.store, runtime.env), runtime.log);
}
