// An agent run as server-sent events: `data: <json>` per event, in the spec's flat shapes (no
// `event:` name: clients check which keys an event has). Each event is checked against its
// contract before it is sent, as createRoute checks JSON answers. A client that goes away stops
// reading, not the run: the run's result is stored when it ends.
import type { z } from 'zod';
import type { Logger } from '../../../../server/logger';

const HEARTBEAT_MS = 15_000;

export function runEventResponse<E>(
  events: AsyncIterable<E>,
  schema: z.ZodType,
  signal: AbortSignal,
  log: Logger,
  /** Extra response headers (the run's id, sent before its first event). */
  headers: Record<string, string> = {},
): Response {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  let closed = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      stop();
    }
  };
  function stop() {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    signal.removeEventListener('abort', stop);
    void iterator.return?.();
    try {
      controller.close();
    } catch {
      // The client closed it first.
    }
  }

  async function pump() {
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done || closed) break;
        const checked = schema.safeParse(next.value);
        if (!checked.success) {
          // Our bug, not the client's: never send an event that breaks the contract.
          log.error('run event failed contract validation', {
            issues: checked.error.issues.slice(0, 3),
          });
          continue;
        }
        write(`data: ${JSON.stringify(checked.data)}\n\n`);
      }
    } catch (error) {
      log.error('run event stream failed', { error });
    } finally {
      stop();
    }
  }

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (signal.aborted) {
        stop();
        return;
      }
      signal.addEventListener('abort', stop, { once: true });
      // Model calls can take a while; proxies drop a response idle for 30-60 s.
      heartbeat = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS);
      void pump();
    },
    cancel: stop,
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: a compressing proxy would otherwise hold events back in its buffer.
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
      ...headers,
    },
  });
}
