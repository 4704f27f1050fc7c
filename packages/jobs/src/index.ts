export * from './port';
export {
  createEmbeddedJobQueue,
  haltEmbeddedJobQueue,
  type EmbeddedJobQueueOptions,
} from './embedded-queue';
export { createRedisJobQueue, haltRedisJobQueue, type RedisJobQueueOptions } from './redis-queue';
