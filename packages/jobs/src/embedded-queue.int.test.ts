// The job-queue contract on the embedded adapter: each "process" is its own store connection
// on one libSQL file (as server processes on one DATA_DIR are), and on MongoDB wherever
// MONGODB_URI is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLibsqlStore, createStore, type Store } from '@tandem/store';
import { testEnv } from '@tandem/store/testing';
import { createEmbeddedJobQueue, haltEmbeddedJobQueue } from './embedded-queue';
import type { JobQueue } from './port';
import { runJobQueueContract, type JobQueueHarness } from './testing';

// Polled often: the contract waits on takeovers and backoffs, and the poll is not its subject.
const POLL_MS = 100;

function harnessOn(openStore: () => Promise<Store>, cleanup: () => Promise<void>) {
  return async (): Promise<JobQueueHarness> => {
    const stores = new Map<JobQueue, Store>();
    return {
      async open(options) {
        const store = await openStore();
        const queue = createEmbeddedJobQueue({ store, pollMs: POLL_MS, ...options });
        stores.set(queue, store);
        return queue;
      },
      async kill(queue) {
        haltEmbeddedJobQueue(queue);
      },
      async cleanup() {
        await Promise.all([...stores.values()].map((s) => s.close().catch(() => undefined)));
        await cleanup();
      },
    };
  };
}

const dir = mkdtempSync(path.join(tmpdir(), 'tandem-jobs-'));
const url = `file:${path.join(dir, 'tandem.db')}`;
runJobQueueContract(
  'embedded on libSQL (one file, a connection per process)',
  harnessOn(
    () => createLibsqlStore({ url }),
    async () => rmSync(dir, { recursive: true, force: true }),
  ),
);

const mongoUri = testEnv.MONGODB_URI;
if (mongoUri === undefined) {
  console.info('job queue contract: skipped embedded on MongoDB (MONGODB_URI is not set)');
} else {
  // Random queue and tenant names per test: safe on a shared database, nothing to drop.
  runJobQueueContract(
    'embedded on MongoDB',
    harnessOn(
      () => createStore({ mongodbUri: mongoUri }),
      async () => undefined,
    ),
  );
}
