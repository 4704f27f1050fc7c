// The parse pool: the one way the server parses untrusted documents and big pages.
// Jobs run on worker threads (piscina), each thread under a heap limit, each job under a
// wall-clock timeout that terminates its thread; threads are shared fairly between tenants
// (fair-queue.ts). A job over its memory or time costs that job only: it is refused with a
// 422 naming the limit, piscina replaces the thread, and the event loop that answers every
// other request never ran the work at all.
//
// piscina rather than tinypool: both are maintained forks of one design with per-task
// AbortSignal (which terminates a running thread) and resourceLimits; piscina is the one the
// Node.js project's own people maintain, is the more widely used (Fastify's ecosystem among
// others), and has what we need here without tinypool's test-runner features. Its FIFO queue is
// not used: jobs reach it only when the fair queue has a thread for them.
import { createRequire } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import path from 'node:path';
import { InputTooComplexError, type InputLimits, type PoolLimitName } from '@tandem/contracts';
import { ParseError, UnsupportedFormatError } from '@tandem/knowledge/ingestion';
import { Piscina } from 'piscina';
import type { SerializedError } from './errors';
import { FairQueue } from './fair-queue';
import type { JobMessage, JobName, JobReply, Jobs } from './jobs';

export interface ParsePoolOptions {
  /** Worker threads (PARSE_WORKERS). */
  threads: number;
  /** Heap of each thread in MB (PARSE_WORKER_HEAP_MB): a job that needs more is refused. */
  heapMb: number;
  /** Wall-clock time of one job (PARSE_TIMEOUT_SECONDS), in ms. */
  timeoutMs: number;
  /** The input budgets every job is checked against. */
  limits: InputLimits;
  /** Jobs one tenant may have waiting for a thread. */
  maxWaitingPerTenant?: number;
  /** A thread with nothing to do ends after this long, giving its memory back. */
  idleTimeoutMs?: number;
  /** The thread entry (tests); by default the package's own worker.mjs. */
  workerFile?: string;
  /** Failures no parser expected (a library's or our bug): for the server's log. */
  onUnexpected?: (job: JobName, error: { name: string; message: string; stack?: string }) => void;
}

/** The rest of the pool's budgets, beside the input ones: what each setting is called. */
const POOL_SETTINGS: Record<PoolLimitName, { setting: string; unit: string }> = {
  parseHeapMb: { setting: 'PARSE_WORKER_HEAP_MB', unit: 'MB' },
  parseSeconds: { setting: 'PARSE_TIMEOUT_SECONDS', unit: 's' },
};

const poolLimit = (name: PoolLimitName, value: number): string =>
  `${value} ${POOL_SETTINGS[name].unit} (${POOL_SETTINGS[name].setting})`;

/**
 * Where the thread entry is on disk. The server's code is bundled by Next.js, which rewrites
 * `import.meta.url`, so the file is resolved at run time through node_modules, from the
 * directory the process runs in (apps/server under `next start`); the specifier is assembled
 * so that the bundler does not try to resolve it at build time.
 */
function defaultWorkerFile(): string {
  const specifier = ['@tandem', 'parse-pool', 'worker'].join('/');
  return createRequire(path.join(process.cwd(), 'noop.js')).resolve(specifier);
}

function rebuild(error: SerializedError): Error {
  if (error.kind === 'too-complex') return new InputTooComplexError(error.limit, error.message);
  if (error.kind === 'refused') {
    // Whatever the parser's own class, the server answers a refused file the same way.
    const rebuilt =
      error.name === 'UnsupportedFormatError'
        ? new UnsupportedFormatError(error.format ?? 'unknown')
        : new ParseError('input', error.message);
    rebuilt.message = error.message;
    return rebuilt;
  }
  return unreadable();
}

/** A parser failed in a way it did not foresee: the input is what it could not read. */
function unreadable(): ParseError {
  const error = new ParseError('input', 'unreadable');
  error.message = 'The file or page could not be read: its parser failed on it.';
  return error;
}

const isAbort = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'AbortError' || /abort/i.test(error.message));

const isOutOfMemory = (error: unknown): boolean =>
  error instanceof Error &&
  ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ||
    /out of memory|heap limit/i.test(error.message));

export class ParsePool {
  private readonly queue: FairQueue;
  private piscina: Piscina | null = null;
  private closed = false;

  constructor(private readonly options: ParsePoolOptions) {
    this.queue = new FairQueue({
      capacity: options.threads,
      // Half the threads each (at least one): another tenant's job always finds one free.
      perTenant: Math.max(1, Math.floor(options.threads / 2)),
      maxWaitingPerTenant: options.maxWaitingPerTenant ?? 32,
    });
  }

  get limits(): InputLimits {
    return this.options.limits;
  }

  /**
   * Runs a job for `tenantId` in its turn; rejects with the parsers' own error classes.
   * `transfer`: buffers of the input moved to the thread instead of copied (left empty here).
   */
  run<N extends JobName>(
    tenantId: string,
    name: N,
    input: Jobs[N]['input'],
    transfer: ArrayBuffer[] = [],
  ): Promise<Jobs[N]['output']> {
    if (this.closed) return Promise.reject(new Error('The parse pool is closed.'));
    return this.queue.submit(tenantId, () => this.execute(name, input, transfer));
  }

  /** Jobs running and waiting now. */
  stats(): { running: number; waiting: number; threads: number } {
    return { ...this.queue.stats(), threads: this.piscina?.threads.length ?? 0 };
  }

  /** Ends every thread; running jobs are abandoned (their requests get an error). */
  async close(): Promise<void> {
    this.closed = true;
    const piscina = this.piscina;
    this.piscina = null;
    await piscina?.destroy();
  }

  private pool(): Piscina {
    this.piscina ??= new Piscina({
      filename: this.options.workerFile ?? defaultWorkerFile(),
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: this.options.idleTimeoutMs ?? 30_000,
      // Jobs await their own work to the end (OCR in its own thread, file reads); a thread
      // parked on Atomics between tasks would stall those.
      atomics: 'disabled',
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
      recordTiming: false,
    });
    return this.piscina;
  }

  private async execute<N extends JobName>(
    name: N,
    input: Jobs[N]['input'],
    transfer: ArrayBuffer[],
  ): Promise<Jobs[N]['output']> {
    // The clock starts when the job does: a thread's first job also loads the parsers (about
    // a second), which is not the input's doing.
    const abort = new AbortController();
    const channel = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    channel.port1.once('message', () => {
      timer = setTimeout(() => abort.abort(), this.options.timeoutMs);
    });
    const message: JobMessage<N> = {
      name,
      input,
      limits: this.options.limits,
      started: channel.port2,
    };
    let reply: JobReply<N>;
    try {
      reply = (await this.pool().run(message, {
        signal: abort.signal,
        transferList: [channel.port2, ...transfer],
      })) as JobReply<N>;
    } catch (error) {
      throw this.threadFailure(name, error);
    } finally {
      clearTimeout(timer);
      channel.port1.close();
    }
    if (reply.ok) return reply.value;
    if (reply.error.kind === 'failed') this.options.onUnexpected?.(name, reply.error);
    throw rebuild(reply.error);
  }

  /** The thread was stopped (time) or died (memory): the job's own fault, answered 422. */
  private threadFailure(name: JobName, error: unknown): Error {
    const { timeoutMs, heapMb } = this.options;
    if (isAbort(error)) {
      const seconds = Number((timeoutMs / 1000).toFixed(timeoutMs % 1000 === 0 ? 0 : 1));
      return new InputTooComplexError(
        'parseSeconds',
        `Reading it took longer than the limit of ${poolLimit('parseSeconds', seconds)}.`,
      );
    }
    if (isOutOfMemory(error)) {
      return new InputTooComplexError(
        'parseHeapMb',
        `Reading it needed more memory than the limit of ${poolLimit('parseHeapMb', heapMb)}.`,
      );
    }
    const failure = error instanceof Error ? error : new Error(String(error));
    this.options.onUnexpected?.(name, failure);
    return unreadable();
  }
}
