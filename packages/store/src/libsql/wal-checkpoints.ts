// WAL checkpoints of a libSQL database file, on a thread of their own.
//
// Why: the native binding runs every statement synchronously on the calling thread. With
// SQLite's default, the commit that fills the write-ahead log past 1,000 pages also copies the
// log back into the database file and syncs both, inside that commit: 10-14 ms on an idle disk
// of ours, 17-37 ms during the hostile suite's fair-share burst (V8 profile of the server, one
// such commit every few seconds), and the event loop that answers every tenant waits through it.
// On this thread the same work runs beside the loop; the server's connections only append to the
// log (synchronous=NORMAL: no sync per commit).
//
// If the thread cannot run (its file missing, a crash), the connection goes back to SQLite's
// own checkpoints at commit, so the log never grows without bound.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface WalCheckpointOptions {
  /** The database file. */
  path: string;
  /** How often the log is copied back. Default 1 s. */
  intervalMs?: number;
  busyTimeoutMs: number;
  /** The thread entry (tests); by default wal-checkpoint-worker.mjs beside this file. */
  workerFile?: string;
  /** Called once if the thread stops without being closed; the caller checkpoints itself then. */
  onStopped: (reason: string) => void;
}

export interface CheckpointResult {
  /** Frames in the log when the checkpoint ran. */
  frames: number;
  /** Frames copied into the database file so far. */
  copied: number;
}

const DEFAULT_INTERVAL_MS = 1_000;
const WORKER_NAME = 'wal-checkpoint-worker.mjs';

type WorkerMessage =
  { kind: 'checkpointed'; frames: number; copied: number } | { kind: 'failed'; message: string };

/**
 * Where the thread entry is on disk. Unbundled (tests, the CLI, the benches) it is beside this
 * file. In the server this module is bundled by Next.js, which rewrites `import.meta.url`; there
 * the file is resolved through node_modules from the directory the process runs in, as the parse
 * pool resolves its own entry, with a specifier the bundler cannot resolve at build time.
 */
export function walCheckpointWorkerFile(): string {
  try {
    const beside = fileURLToPath(new URL(['.', WORKER_NAME].join('/'), import.meta.url));
    if (existsSync(beside)) return beside;
  } catch {
    // Not a file: URL once bundled; resolved below.
  }
  const specifier = ['@tandem', 'store', 'wal-checkpoint-worker'].join('/');
  return createRequire(path.join(process.cwd(), 'noop.js')).resolve(specifier);
}

export class WalCheckpointThread {
  readonly #worker: Worker;
  readonly #waiting: Array<{
    resolve: (result: CheckpointResult) => void;
    reject: (error: Error) => void;
  }> = [];
  #closed = false;
  #stopped = false;

  constructor(private readonly options: WalCheckpointOptions) {
    this.#worker = new Worker(options.workerFile ?? walCheckpointWorkerFile(), {
      workerData: {
        path: options.path,
        intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
        busyTimeoutMs: options.busyTimeoutMs,
      },
    });
    // A process with nothing else to do exits; the last connection's close checkpoints anyway.
    this.#worker.unref();
    this.#worker.on('message', (message: WorkerMessage) => {
      // Requests are answered in order: the thread runs one at a time.
      const waiter = this.#waiting.shift();
      if (message.kind === 'checkpointed') waiter?.resolve(message);
      if (message.kind === 'failed') waiter?.reject(new Error(message.message));
    });
    this.#worker.on('error', (error) => this.#stop(`the thread failed: ${error.message}`));
    this.#worker.on('exit', (code) => this.#stop(`the thread exited with code ${code}`));
  }

  #stop(reason: string): void {
    if (this.#closed || this.#stopped) return;
    this.#stopped = true;
    for (const waiter of this.#waiting.splice(0)) waiter.reject(new Error(reason));
    this.options.onStopped(reason);
  }

  /** Whether the thread still checkpoints (false once it failed or was closed). */
  get running(): boolean {
    return !this.#closed && !this.#stopped;
  }

  /** Checkpoints now and resolves with the result (tests, and a caller about to copy the file). */
  checkpointNow(): Promise<CheckpointResult> {
    if (!this.running) return Promise.reject(new Error('The checkpoint thread is not running.'));
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#worker.postMessage('now');
    });
  }

  /** The thread closes its connection and ends; nothing waits for it. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#worker.postMessage('close');
  }
}
