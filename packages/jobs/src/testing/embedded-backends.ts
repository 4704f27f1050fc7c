// The stores the embedded adapters' contract runs on: one libSQL file that every "process"
// opens a connection of its own to (as server processes on one DATA_DIR do), and MongoDB
// wherever MONGODB_URI is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLibsqlStore, createStore, type Store } from '@tandem/store';
import { testEnv } from '@tandem/store/testing';

export interface EmbeddedBackend {
  name: string;
  /** A store connection, as one process opens it. */
  openStore(): Promise<Store>;
  /** After every connection is closed. */
  cleanup(): Promise<void>;
}

export function embeddedBackends(suite: string): EmbeddedBackend[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'tandem-jobs-'));
  const url = `file:${path.join(dir, 'tandem.db')}`;
  const backends: EmbeddedBackend[] = [
    {
      name: 'embedded on libSQL (one file, a connection per process)',
      openStore: () => createLibsqlStore({ url }),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    },
  ];
  const mongodbUri = testEnv.MONGODB_URI;
  if (mongodbUri === undefined) {
    console.info(`${suite}: skipped embedded on MongoDB (MONGODB_URI is not set)`);
  } else {
    // Random queue, tenant and channel names per test: safe on a shared database.
    backends.push({
      name: 'embedded on MongoDB',
      openStore: () => createStore({ mongodbUri }),
      cleanup: async () => undefined,
    });
  }
  return backends;
}
