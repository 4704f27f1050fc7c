// The runtime's job queue and event bus (@tandem/jobs): BullMQ and pub/sub on Redis when
// REDIS_URL is set (several web and worker processes, the scale path), else the embedded ones
// in the store (what npm start runs: the processes on one data directory share them, no
// service needed).
import {
  createEmbeddedEventBus,
  createEmbeddedJobQueue,
  createRedisEventBus,
  createRedisJobQueue,
  type EventBus,
  type JobQueue,
} from '@tandem/jobs';
import type { Store } from '@tandem/store';
import type { Env } from '../env';
import type { Logger } from '@tandem/observability';

export function createJobQueue(env: Pick<Env, 'REDIS_URL'>, store: Store, log: Logger): JobQueue {
  const queueLog = log.child({ component: 'jobs' });
  return env.REDIS_URL
    ? createRedisJobQueue({ url: env.REDIS_URL, log: queueLog })
    : createEmbeddedJobQueue({ store, log: queueLog });
}

export function createEventBus(env: Pick<Env, 'REDIS_URL'>, store: Store, log: Logger): EventBus {
  const busLog = log.child({ component: 'events' });
  return env.REDIS_URL
    ? createRedisEventBus({ url: env.REDIS_URL, log: busLog })
    : createEmbeddedEventBus({ store, log: busLog });
}
