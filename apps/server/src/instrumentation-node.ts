// Runs once at server start (Node runtime): Sentry first (so a failing start is reported),
// then open the store (running migrations) and make sure a dev tenant with a usable key
// exists, before the first request arrives.
import packageJson from '../package.json' with { type: 'json' };
import { env } from './env';
import { ensureDevTenant, reportDevTenant } from './server/bootstrap';
import { initSentry } from './server/error-reporting';
import { getRuntime } from './server/runtime';

export async function startServer(): Promise<void> {
  const sentry = initSentry(env(), packageJson.version);
  const runtime = await getRuntime();
  runtime.log.info('store opened', {
    store: runtime.store.kind,
    ...(runtime.store.kind === 'libsql' ? { dataDir: runtime.env.DATA_DIR } : {}),
  });
  runtime.log.info('observability', {
    sentry: sentry ? 'on' : 'off (SENTRY_DSN unset)',
    langfuse:
      runtime.env.LANGFUSE_PUBLIC_KEY && runtime.env.LANGFUSE_SECRET_KEY
        ? 'on'
        : 'off (LANGFUSE_PUBLIC_KEY/LANGFUSE_SECRET_KEY unset)',
  });
  reportDevTenant(await ensureDevTenant(runtime.store, runtime.env), runtime.log);
}
