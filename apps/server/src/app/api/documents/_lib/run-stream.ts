// An agent run as server-sent events: `data: <json>` per event, in the spec's flat shapes (no
// `event:` name: clients check which keys an event has). Each event is checked against its
// contract before it is sent, as createRoute checks JSON answers. A client that goes away stops
// reading, not the run: the run's result is stored when it ends.
import type { z } from 'zod';
import type { Logger } from '@tandem/observability';
import { sseResponse } from '../../../../server/sse';

// A run is bounded by its turns; this only ends a stream nobody closed (the run goes on).
const MAX_STREAM_MS = 60 * 60_000;

/** One event to send; `id` (a write's history seq) becomes the SSE id a client resumes from. */
export interface StreamItem<E> {
  event: E;
  id?: number;
}

/** Events without ids (a stack's run: nothing to resume from) as stream items. */
export async function* unnumbered<E>(events: AsyncIterable<E>): AsyncIterable<StreamItem<E>> {
  for await (const event of events) yield { event };
}

export function runEventResponse<E>(
  events: AsyncIterable<StreamItem<E>>,
  schema: z.ZodType,
  signal: AbortSignal,
  log: Logger,
  /** Extra response headers (the run's id, sent before its first event). */
  headers: Record<string, string> = {},
): Response {
  return sseResponse({
    signal,
    headers,
    maxDurationMs: MAX_STREAM_MS,
    start(channel) {
      const iterator = events[Symbol.asyncIterator]();
      // The reader left (or the stream ended): stop following; the run goes on.
      channel.onClose(() => void iterator.return?.());
      void (async () => {
        try {
          for (;;) {
            const next = await iterator.next();
            if (next.done || channel.closed) break;
            const checked = schema.safeParse(next.value.event);
            if (!checked.success) {
              // Our bug, not the client's: never send an event that breaks the contract.
              log.error('run event failed contract validation', {
                issues: checked.error.issues.slice(0, 3),
              });
              continue;
            }
            const id = next.value.id;
            channel.send(id === undefined ? { data: checked.data } : { id, data: checked.data });
          }
        } catch (error) {
          log.error('run event stream failed', { error });
        } finally {
          channel.close();
        }
      })();
    },
  });
}
