// The job-queue contract on the embedded adapter: each "process" is its own store connection.
import type { Store } from '@tandem/store';
import { createEmbeddedJobQueue, haltEmbeddedJobQueue } from './embedded-queue';
import type { JobQueue } from './port';
import { embeddedBackends, runJobQueueContract } from './testing';

// Polled often: the contract waits on takeovers and backoffs, and the poll is not its subject.
const POLL_MS = 100;

for (const backend of embeddedBackends('job queue contract')) {
  runJobQueueContract(backend.name, async () => {
    const stores = new Map<JobQueue, Store>();
    return {
      async open(options) {
        const store = await backend.openStore();
        const queue = createEmbeddedJobQueue({ store, pollMs: POLL_MS, ...options });
        stores.set(queue, store);
        return queue;
      },
      async kill(queue) {
        haltEmbeddedJobQueue(queue);
      },
      async cleanup() {
        await Promise.all([...stores.values()].map((s) => s.close().catch(() => undefined)));
        await backend.cleanup();
      },
    };
  });
}
