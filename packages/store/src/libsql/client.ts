// Opens the libSQL client for a `file:` path, `:memory:` or a remote libsql:/https: URL.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { NativeSqlClient, type SqlClient } from './native-client';
import { RemoteSqlClient } from './remote-client';

export interface LibsqlClientOptions {
  /** `file:.data/tandem.db`, `file:///abs/x.db`, `:memory:`, or a remote `libsql://…` URL. */
  url: string;
  authToken?: string;
}

/** Busy timeout for file databases: another process (a CLI, a second server) may hold the lock. */
const BUSY_TIMEOUT_MS = 5_000;

/** The filesystem path of a local `file:` URL, or null for `:memory:` and remote URLs. */
export function localFilePath(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  let rest = url.slice('file:'.length);
  const query = rest.indexOf('?');
  if (query >= 0) rest = rest.slice(0, query);
  if (rest.startsWith('//')) {
    // file://host/abs/path — only an empty host or localhost is valid for a local file.
    const slash = rest.indexOf('/', 2);
    rest = slash >= 0 ? rest.slice(slash) : '';
  }
  if (rest === '' || rest.startsWith(':memory:')) return null;
  return decodeURIComponent(rest);
}

export async function openLibsqlClient(options: LibsqlClientOptions): Promise<SqlClient> {
  const filePath = localFilePath(options.url);
  const memory = filePath === null && isMemoryUrl(options.url);
  if (filePath === null && !memory) {
    // Remote libSQL/Turso: only @libsql/client speaks the network protocol.
    return new RemoteSqlClient(
      createClient({
        url: options.url,
        ...(options.authToken === undefined ? {} : { authToken: options.authToken }),
      }),
    );
  }
  // A fresh checkout has no .data/ yet; the first run must not fail on it.
  if (filePath !== null) mkdirSync(path.dirname(path.resolve(filePath)), { recursive: true });
  if (filePath === null) return new NativeSqlClient(':memory:');
  // WAL is a property of the database file (it persists), so setting it once is enough: readers
  // no longer block the writer, which a server with a background sweeper needs. synchronous is
  // per connection (the client may open a new one after a failure): in WAL mode NORMAL syncs at
  // checkpoints instead of every commit, so a process crash still loses nothing, only a power cut
  // can drop the last commits, and each commit stops costing an fsync (~2.5 ms, 10+ of them per
  // interact step on our disks). The syncs it keeps, at checkpoints, run on a thread of their own
  // (wal-checkpoints.ts).
  return new NativeSqlClient(filePath, {
    timeoutMs: BUSY_TIMEOUT_MS,
    onConnect: ['PRAGMA journal_mode = WAL', 'PRAGMA synchronous = NORMAL'],
    backgroundCheckpoints: {},
  });
}

function isMemoryUrl(url: string): boolean {
  return url === ':memory:' || url.startsWith('file::memory:');
}
