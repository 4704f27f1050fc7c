// The event-bus contract on Redis pub/sub, on a redis-server this suite starts and stops; each
// "process" is its own createRedisEventBus (its own connections).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { EventBus } from './events';
import { createRedisEventBus } from './redis-events';
import {
  redisServerInstalled,
  redisServerMissing,
  runEventBusContract,
  startRedisServer,
  type RedisServer,
} from './testing';

if (!redisServerInstalled()) {
  console.info(redisServerMissing('the Redis event-bus suite'));
  describe.skip('event bus: redis', () => {
    it('needs redis-server', () => undefined);
  });
} else {
  describe('event bus: redis', () => {
    let server: RedisServer;
    beforeAll(async () => {
      server = await startRedisServer();
    });
    afterAll(async () => {
      await server?.stop();
    });
    runEventBusContract('redis', async () => {
      const prefix = `test-${randomUUID().slice(0, 8)}`;
      const opened: EventBus[] = [];
      return {
        async open() {
          const bus = createRedisEventBus({ url: server.url, prefix });
          opened.push(bus);
          return bus;
        },
        async cleanup() {
          await Promise.all(opened.map((bus) => bus.close()));
        },
      };
    });
  });
}
