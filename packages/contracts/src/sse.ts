// Reading server-sent events from a fetch body, for every client of our event streams (the
// extension, the /extractions page, the end-to-end tests). EventSource only does GET without
// headers, and our streams need a bearer key or start with a POST, so the body is read as it
// arrives. Follows the HTML standard's parsing rules: lines end in CRLF, LF or CR; `field: value`
// with one optional space after the colon; `data` lines join with "\n"; a blank line dispatches
// the event; `:` lines (our heartbeats) are comments. No dependencies: it runs in browsers too.

export interface SseMessage {
  /** The `event:` name; undefined when the server sent none (the spec's flat run events). */
  event?: string;
  /** The `id:` the client would send back as Last-Event-ID. */
  id?: string;
  data: string;
}

/** The messages of a stream, each as soon as its blank line arrives. */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<SseMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += decoder.decode(value, { stream: !done });
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      for (let end = lineEnd(buffer, done); end >= 0; end = lineEnd(buffer, done)) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(buffer.startsWith('\r\n', end) ? end + 2 : end + 1);
        if (line === '') {
          if (data.length > 0) {
            yield {
              ...(event !== undefined ? { event } : {}),
              ...(id !== undefined ? { id } : {}),
              data: data.join('\n'),
            };
          }
          data = [];
          event = undefined;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const raw = colon < 0 ? '' : line.slice(colon + 1);
        const fieldValue = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'data') data.push(fieldValue);
        else if (field === 'event') event = fieldValue;
        // The id persists across events until another is sent, as in EventSource.
        else if (field === 'id' && !fieldValue.includes('\0')) id = fieldValue;
      }
      if (done) return;
    }
  } finally {
    // A reader that stops early (the caller broke out of the loop) releases the connection.
    await reader.cancel().catch(() => undefined);
  }
}

function lineEnd(buffer: string, done: boolean): number {
  const lf = buffer.indexOf('\n');
  const cr = buffer.indexOf('\r');
  if (cr < 0 || (lf >= 0 && lf < cr)) return lf;
  if (cr === buffer.length - 1 && !done) return -1;
  return cr;
}
