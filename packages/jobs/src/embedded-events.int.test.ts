// The event-bus contract on the embedded adapter: each "process" is its own store connection on
// one libSQL file, and on MongoDB wherever MONGODB_URI is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLibsqlStore, createStore, type Store } from '@tandem/store';
import { testEnv } from '@tandem/store/testing';
import { createEmbeddedEventBus } from './embedded-events';
import { runEventBusContract, type EventBusHarness } from './testing';

function harnessOn(openStore: () => Promise<Store>, cleanup: () => Promise<void>) {
  return async (): Promise<EventBusHarness> => {
    const stores: Store[] = [];
    const buses: { close(): Promise<void> }[] = [];
    return {
      async open() {
        const store = await openStore();
        stores.push(store);
        // The default poll: "within a second" is measured on what a user gets.
        const bus = createEmbeddedEventBus({ store });
        buses.push(bus);
        return bus;
      },
      async cleanup() {
        await Promise.all(buses.map((bus) => bus.close()));
        await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
        await cleanup();
      },
    };
  };
}

const dir = mkdtempSync(path.join(tmpdir(), 'tandem-events-'));
const url = `file:${path.join(dir, 'tandem.db')}`;
runEventBusContract(
  'embedded on libSQL (one file, a connection per process)',
  harnessOn(
    () => createLibsqlStore({ url }),
    async () => rmSync(dir, { recursive: true, force: true }),
  ),
);

const mongoUri = testEnv.MONGODB_URI;
if (mongoUri === undefined) {
  console.info('event bus contract: skipped embedded on MongoDB (MONGODB_URI is not set)');
} else {
  runEventBusContract(
    'embedded on MongoDB',
    harnessOn(
      () => createStore({ mongodbUri: mongoUri }),
      async () => undefined,
    ),
  );
}
