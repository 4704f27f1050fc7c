// The worker process: runs background jobs (crawls, document-extraction runs) and nothing else,
// no HTTP. Web processes with RUN_JOBS=false queue jobs and leave them to workers, so no request
// shares a CPU with a crawl or a model run; with REDIS_URL the jobs are BullMQ's, else the
// embedded queue in the store (a worker on the same data directory as the server). Started by
// `npm run worker` at the repository root.
//
// It reads the settings the server reads: the environment, then apps/server/.env*.local and
// .env* files, loaded by Next.js's own loader (@next/env: the same files, order, precedence and
// ${VAR} expansion; a variable already set is never overwritten), so a worker beside
// `npm start` opens the same store and the same queue.
import path from 'node:path';
import nextEnv from '@next/env';
import { fileURLToPath } from 'node:url';
import packageJson from '../package.json' with { type: 'json' };
import { env, type Env } from './env';
import { initSentry } from './server/error-reporting';
import { createRuntime, type Runtime } from './server/runtime';
import { describeStartupFailure } from './server/startup-failure';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningWorker {
  runtime: Runtime;
  /** Hands running jobs back (their leases released) and closes the runtime. */
  stop(): Promise<void>;
}

export async function startWorker(config: Env): Promise<RunningWorker> {
  const runtime = await createRuntime({ env: config, runJobs: true });
  const log = runtime.log.child({ component: 'worker' });
  log.info('worker started', {
    store: runtime.store.kind,
    ...(runtime.store.kind === 'libsql' ? { dataDir: config.DATA_DIR } : {}),
    queue: runtime.jobs.kind === 'redis' ? 'BullMQ on REDIS_URL' : 'embedded (in the store)',
  });
  // Crawls a stopped process left unfinished carry on from their stored frontier, and uploads
  // it left unread are read from their stored files.
  const resumed =
    (await runtime.knowledge.jobs.resumeUnfinished()) +
    (await runtime.knowledge.uploads.resumeUnfinished());
  if (resumed > 0) log.info('knowledge jobs resumed', { jobs: resumed });
  let stopping: Promise<void> | null = null;
  return {
    runtime,
    stop: () => {
      stopping ??= (async () => {
        log.info('worker stopping: running jobs are handed back');
        await runtime.close();
        log.info('worker stopped');
      })();
      return stopping;
    },
  };
}

async function main(): Promise<void> {
  // A CommonJS bundle whose named exports Node cannot see from ESM: through its default.
  nextEnv.loadEnvConfig(serverDir, false, { info: () => undefined, error: console.error });
  let config: Env | undefined;
  try {
    config = env();
    initSentry(config, packageJson.version);
    const worker = await startWorker(config);
    // The queue's timers do not hold a process open (a CLI must exit); a worker stays up.
    const alive = setInterval(() => undefined, 60_000);
    const stop = () => {
      clearInterval(alive);
      void worker.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`The worker did not stop cleanly: ${String(error)}`);
          process.exit(1);
        },
      );
    };
    // `on`, not `once`: Ctrl-C reaches the worker twice (the terminal's process group, and
    // npm run worker forwarding it), and a second default SIGINT would kill it mid-handover.
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  } catch (error) {
    console.error(`\n${describeStartupFailure(error, config)}\n`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
