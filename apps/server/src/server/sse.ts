// The one way a route answers with server-sent events (task events, crawl progress, document
// runs): the response headers, event framing, a heartbeat under the 30-60 s proxies allow an
// idle response, the longest life of one stream, and the end of it all when the client goes
// away. Each stream route only says what to send: it gets a channel in `start` and registers
// what to undo in `onClose`.

export interface SseEvent {
  /** `event:` line; omitted for the spec's flat run events (clients read the data's keys). */
  event?: string;
  /** `id:` line: what the client sends back as Last-Event-ID when it reconnects. */
  id?: number | string;
  data: unknown;
}

export interface SseChannel {
  send(event: SseEvent): void;
  /** Ends the stream (idempotent); the `onClose` callbacks run once. */
  close(): void;
  /** Runs `undo` when the stream ends, whoever ends it (server, client, timeout). */
  onClose(undo: () => void): void;
  readonly closed: boolean;
}

export interface SseOptions {
  /** The request's signal: the client went away. */
  signal: AbortSignal;
  /** Called once, synchronously, when the stream starts. */
  start: (channel: SseChannel) => void;
  /** Reconnect delay a browser's EventSource uses (sent first); none for one-shot streams. */
  retryMs?: number;
  /** Idle comment period; default 15 s. */
  heartbeatMs?: number;
  /** Longest life of one stream (the client resumes with Last-Event-ID); default 30 min. */
  maxDurationMs?: number;
}

const DEFAULT_HEARTBEAT_MS = 15_000;
const DEFAULT_MAX_DURATION_MS = 30 * 60_000;

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  // no-transform: a compressing proxy would otherwise hold events back in its buffer.
  'cache-control': 'no-store, no-transform',
  // nginx buffers responses unless told not to.
  'x-accel-buffering': 'no',
};

export function sseFrame({ event, id, data }: SseEvent): string {
  const eventLine = event === undefined ? '' : `event: ${event}\n`;
  const idLine = id === undefined ? '' : `id: ${id}\n`;
  return `${eventLine}${idLine}data: ${JSON.stringify(data)}\n\n`;
}

/** The resume point of a reconnect: `Last-Event-ID` when it is a sequence number. */
export function lastEventSeq(request: Request): number | undefined {
  const value = request.headers.get('last-event-id')?.trim();
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

export function sseStream(options: SseOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const undos: (() => void)[] = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;

  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      // The consumer errored the stream: nobody reads any more.
      close();
    }
  };
  function close() {
    if (closed) return;
    closed = true;
    options.signal.removeEventListener('abort', close);
    for (const undo of undos.splice(0)) {
      try {
        undo();
      } catch {
        // One failing cleanup must not keep the others from running.
      }
    }
    try {
      controller.close();
    } catch {
      // The client closed it first.
    }
  }
  const channel: SseChannel = {
    send: (event) => write(sseFrame(event)),
    close,
    onClose: (undo) => {
      if (closed) undo();
      else undos.push(undo);
    },
    get closed() {
      return closed;
    },
  };

  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (options.retryMs !== undefined) write(`retry: ${options.retryMs}\n\n`);
      const heartbeat = setInterval(
        () => write(': heartbeat\n\n'),
        options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
      );
      const deadline = setTimeout(close, options.maxDurationMs ?? DEFAULT_MAX_DURATION_MS);
      undos.push(() => {
        clearInterval(heartbeat);
        clearTimeout(deadline);
      });
      options.start(channel);
      // After start, so what it registered is undone too when the client is already gone.
      if (options.signal.aborted) close();
      else options.signal.addEventListener('abort', close, { once: true });
    },
    cancel: close,
  });
}

/** `sseStream` as the route's answer, with the headers every event stream needs. */
export function sseResponse(options: SseOptions & { headers?: Record<string, string> }): Response {
  return new Response(sseStream(options), {
    status: 200,
    headers: { ...SSE_HEADERS, ...options.headers },
  });
}
