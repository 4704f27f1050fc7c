export { runJobQueueContract, type JobQueueHarness } from './job-queue-contract';
export {
  freePort,
  redisServerInstalled,
  redisServerMissing,
  startRedisServer,
  type RedisServer,
} from './redis-server';
export { runEventBusContract, type EventBusHarness } from './event-bus-contract';
export { embeddedBackends, type EmbeddedBackend } from './embedded-backends';
