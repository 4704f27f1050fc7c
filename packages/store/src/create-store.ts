// Picks the adapter: MongoDB when a URI is configured (production, scale-out), otherwise the
// embedded libSQL file so a fresh checkout runs with no services at all.
import path from 'node:path';
import { createLibsqlStore } from './libsql/index';
import type { Store } from './port';

export interface CreateStoreOptions {
  /** When set, the MongoDB adapter is used and the libSQL options are ignored. */
  mongodbUri?: string;
  /** Directory of the embedded database file (default `.data`). */
  dataDir?: string;
  /** An explicit libSQL URL (`file:…`, `:memory:`, `libsql://…`); wins over dataDir. */
  libsqlUrl?: string;
}

export async function createStore(options: CreateStoreOptions = {}): Promise<Store> {
  if (options.mongodbUri) {
    // Loaded lazily so the embedded path never pays for (or requires) the mongoose driver.
    const { createMongoStore } = await import('./mongo/index');
    return createMongoStore({ uri: options.mongodbUri });
  }
  const url = options.libsqlUrl ?? `file:${path.join(options.dataDir ?? '.data', 'tandem.db')}`;
  return createLibsqlStore({ url });
}
