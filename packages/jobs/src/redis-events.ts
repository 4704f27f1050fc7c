// The Redis event bus: Redis pub/sub, one channel per event channel (under a prefix). This
// process's listeners get an event at once; the message Redis sends back to this process is
// recognised by its origin and dropped, so no listener gets an event twice.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { LocalListeners, type EventBus } from './events';
import type { PortLog } from './port';

export interface RedisEventBusOptions {
  url: string;
  /** Prefix of every pub/sub channel. Default 'tandem'. */
  prefix?: string;
  log?: PortLog;
}

interface Envelope {
  origin: string;
  data: unknown;
}

export function createRedisEventBus(options: RedisEventBusOptions): EventBus {
  const prefix = `${options.prefix ?? 'tandem'}:events:`;
  const origin = randomBytes(8).toString('hex');
  const onError = (error: unknown) => options.log?.warn('event bus: Redis error', { error });
  // Publishing fails fast while Redis is down; the subscriber reconnects and resubscribes.
  const publisher = new Redis(options.url, { maxRetriesPerRequest: 3, lazyConnect: true }).on(
    'error',
    onError,
  );
  const subscriber = new Redis(options.url, { maxRetriesPerRequest: null, lazyConnect: true }).on(
    'error',
    onError,
  );
  const listeners = new LocalListeners();
  subscriber.on('message', (key: string, message: string) => {
    if (!key.startsWith(prefix)) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch {
      return;
    }
    if (envelope.origin === origin) return;
    listeners.deliver(key.slice(prefix.length), envelope.data);
  });
  let closed = false;

  return {
    kind: 'redis',
    async publish(channel, data) {
      listeners.deliver(channel, data);
      if (closed) return;
      const envelope: Envelope = { origin, data };
      await publisher.publish(prefix + channel, JSON.stringify(envelope));
    },
    subscribe(channel, listener) {
      const entry = listeners.add(channel, listener);
      if (entry.first && !closed) {
        subscriber.subscribe(prefix + channel).catch(onError);
      }
      return () => {
        if (entry.remove() && !closed) subscriber.unsubscribe(prefix + channel).catch(onError);
      };
    },
    async close() {
      closed = true;
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
