// Runs once at server start (Node runtime): validate the environment, start Sentry (so a
// failing start is reported), open the store (running migrations) and make sure a dev tenant
// with a usable key exists, before the first request arrives. A start that cannot succeed ends
// the process with the reason: a server that answers every request with a 500 looks alive to
// `npm start`, to health checks and to supervisors, while the cause sits in a log.
import * as Sentry from '@sentry/nextjs';
import packageJson from '../package.json' with { type: 'json' };
import { env, type Env } from './env';
import { ensureDevTenant, reportDevTenant } from './server/bootstrap';
import { configureAdmission } from './server/admission';
import { installPeerStamp } from './server/client-address';
import { initSentry } from './server/error-reporting';
import { getRuntime, type Runtime } from './server/runtime';
import { describeStartupFailure } from './server/startup-failure';

export interface StartOptions {
  /**
   * Exit the process when the start fails. `next start` does; `next dev` keeps running with the
   * message printed, and retries on the next request (after .env.local is fixed).
   */
  exitOnFailure: boolean;
  /** Where the environment and the runtime come from, and how to exit (tests pass their own). */
  env?: () => Env;
  runtime?: () => Promise<Runtime>;
  exit?: (code: number) => void;
}

async function start(config: Env, runtimeOf: () => Promise<Runtime>): Promise<void> {
  const runtime = await runtimeOf();
  runtime.log.info('store opened', {
    store: runtime.store.kind,
    ...(runtime.store.kind === 'libsql' ? { dataDir: runtime.env.DATA_DIR } : {}),
  });
  runtime.log.info('observability', {
    sentry: Sentry.getClient() ? 'on' : 'off (SENTRY_DSN unset)',
    langfuse:
      config.LANGFUSE_PUBLIC_KEY && config.LANGFUSE_SECRET_KEY
        ? 'on'
        : 'off (LANGFUSE_PUBLIC_KEY/LANGFUSE_SECRET_KEY unset)',
  });
  reportDevTenant(await ensureDevTenant(runtime.store, runtime.env), runtime.log);
  runtime.log.info('knowledge', {
    embeddings: runtime.knowledge.embedder?.id ?? 'off (lexical retrieval only)',
  });
  runtime.log.info('jobs', {
    queue: runtime.jobs.kind === 'redis' ? 'BullMQ on REDIS_URL' : 'embedded (in the store)',
    run: config.RUN_JOBS ? 'here and in any worker' : 'by workers only (RUN_JOBS=false)',
  });
  // Crawls a stopped server left unfinished carry on from their stored frontier, and uploads
  // it left unread are read from their stored files.
  const resumed =
    (await runtime.knowledge.jobs.resumeUnfinished()) +
    (await runtime.knowledge.uploads.resumeUnfinished());
  if (resumed > 0) runtime.log.info('knowledge jobs resumed', { jobs: resumed });
}

async function fail(error: unknown, config: Env | undefined, options: StartOptions) {
  const message = describeStartupFailure(error, config);
  // stderr is synchronous for files and pipes on Linux, so this is out before exit() runs.
  console.error(`\n${message}\n`);
  if (Sentry.getClient()) {
    // The printed message, not the raw error: it is the one with credentials cut out.
    Sentry.captureException(new Error(message));
    await Sentry.flush(2_000);
  }
  if (options.exitOnFailure) (options.exit ?? ((code) => process.exit(code)))(1);
}

export async function startServer(options: StartOptions): Promise<void> {
  let config: Env | undefined;
  // Before the first request: limits per client address read the TCP peer this stamps.
  installPeerStamp();
  try {
    config = (options.env ?? env)();
    configureAdmission(config);
    initSentry(config, packageJson.version);
    await start(config, options.runtime ?? getRuntime);
  } catch (error) {
    await fail(error, config, options);
  }
}
