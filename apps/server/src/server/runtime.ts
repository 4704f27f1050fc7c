// The process-wide runtime: validated env, the store, rate limiters and the logger. Built once
// and cached on globalThis, because Next.js may load route modules and instrumentation as
// separate module instances in one process.
import { createStore, type Store } from '@tandem/store';
import { env as processEnv, type Env } from '../env';
import { createLogger, type Logger } from './logger';
import { createRateLimiters, type RateLimiters } from './rate-limit';
import packageJson from '../../package.json' with { type: 'json' };

export interface Runtime {
  env: Env;
  store: Store;
  rateLimiters: RateLimiters;
  log: Logger;
  startedAt: number;
  version: string;
}

export async function createRuntime(options: {
  env: Env;
  store?: Store;
  log?: Logger;
}): Promise<Runtime> {
  const { env } = options;
  const log = options.log ?? createLogger(env.LOG_LEVEL);
  const store =
    options.store ?? (await createStore({ mongodbUri: env.MONGODB_URI, dataDir: env.DATA_DIR }));
  return {
    env,
    store,
    log,
    rateLimiters: createRateLimiters(store.rateLimits, {
      interact: env.RATE_LIMIT_INTERACT_PER_MIN,
      default: env.RATE_LIMIT_DEFAULT_PER_MIN,
    }),
    startedAt: Date.now(),
    version: packageJson.version,
  };
}

const globalRuntime = globalThis as typeof globalThis & {
  __tandemRuntime?: Promise<Runtime>;
};

/** The shared runtime of this server process. */
export function getRuntime(): Promise<Runtime> {
  globalRuntime.__tandemRuntime ??= createRuntime({ env: processEnv() }).catch((error: unknown) => {
    // Let the next request try again instead of caching a failure forever.
    globalRuntime.__tandemRuntime = undefined;
    throw error;
  });
  return globalRuntime.__tandemRuntime;
}
