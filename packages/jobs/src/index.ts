export * from './port';
export * from './lease';
export {
  createEmbeddedJobQueue,
  haltEmbeddedJobQueue,
  type EmbeddedJobQueueOptions,
} from './embedded-queue';
export { createRedisJobQueue, haltRedisJobQueue, type RedisJobQueueOptions } from './redis-queue';
export { LocalListeners, type EventBus, type LiveEventListener } from './events';
export { createEmbeddedEventBus, type EmbeddedEventBusOptions } from './embedded-events';
export { createRedisEventBus, type RedisEventBusOptions } from './redis-events';
