// The runtime's job queue (@tandem/jobs): BullMQ on Redis when REDIS_URL is set (several web
// and worker processes, the scale path), else the embedded queue in the store (what npm start
// runs: the processes on one data directory share it, no service needed).
import { createEmbeddedJobQueue, createRedisJobQueue, type JobQueue } from '@tandem/jobs';
import type { Store } from '@tandem/store';
import type { Env } from '../env';
import type { Logger } from './logger';

export function createJobQueue(env: Pick<Env, 'REDIS_URL'>, store: Store, log: Logger): JobQueue {
  const queueLog = log.child({ component: 'jobs' });
  return env.REDIS_URL
    ? createRedisJobQueue({ url: env.REDIS_URL, log: queueLog })
    : createEmbeddedJobQueue({ store, log: queueLog });
}
