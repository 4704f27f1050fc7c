// The event-bus contract on the embedded adapter: each "process" is its own store connection.
import type { Store } from '@tandem/store';
import { createEmbeddedEventBus } from './embedded-events';
import type { EventBus } from './events';
import { embeddedBackends, runEventBusContract } from './testing';

for (const backend of embeddedBackends('event bus contract')) {
  runEventBusContract(backend.name, async () => {
    const stores: Store[] = [];
    const buses: EventBus[] = [];
    return {
      async open() {
        const store = await backend.openStore();
        stores.push(store);
        // The default poll: "within a second" is measured on what a user gets.
        const bus = createEmbeddedEventBus({ store });
        buses.push(bus);
        return bus;
      },
      async cleanup() {
        await Promise.all(buses.map((bus) => bus.close()));
        await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
        await backend.cleanup();
      },
    };
  });
}
