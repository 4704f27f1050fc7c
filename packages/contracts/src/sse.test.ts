import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSse, type SseMessage } from './sse';

const bodyOf = (chunks: (string | Uint8Array)[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      const encoder = new TextEncoder();
      for (const chunk of chunks) {
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      }
      controller.close();
    },
  });

async function all(chunks: (string | Uint8Array)[]): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for await (const message of readSse(bodyOf(chunks))) messages.push(message);
  return messages;
}

describe('readSse', () => {
  it('reads named events, ids, flat data events and skips comments and retry lines', async () => {
    const text =
      'retry: 2000\n\n: heartbeat\n\nevent: collected\nid: 7\ndata: {"a":1}\n\n' +
      'data: {"text":"hi"}\n\n';
    expect(await all([text])).toEqual([
      { event: 'collected', id: '7', data: '{"a":1}' },
      // The id stays the last one sent, as EventSource keeps it.
      { id: '7', data: '{"text":"hi"}' },
    ]);
  });

  it('joins data lines, and takes CRLF, CR and LF line ends alike', async () => {
    expect(await all(['data: one\r\ndata:two\r\n\r\n', 'data: three\r\rdata: four\n\n'])).toEqual([
      { data: 'one\ntwo' },
      { data: 'three' },
      { data: 'four' },
    ]);
  });

  it('gives the same messages however the bytes are split (seeded)', async () => {
    const message = fc.record({
      event: fc.option(fc.constantFrom('step', 'done', 'collected'), { nil: undefined }),
      data: fc.json().map((json) => `${json}é€😀`),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (messages, eol, cuts) => {
          const text = messages
            .map(
              (m) =>
                `${m.event ? `event: ${m.event}${eol}` : ''}: note${eol}data: ${m.data}${eol}${eol}`,
            )
            .join('');
          // Cut the bytes anywhere, inside a multi-byte character or a CRLF too.
          const bytes = new TextEncoder().encode(text);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort(
            (a, b) => a - b,
          );
          const ends = [...points, bytes.length];
          const chunks = ends.map((end, i) => bytes.slice(i === 0 ? 0 : ends[i - 1], end));
          const read = await all(chunks);
          expect(read).toEqual(
            messages.map((m) => ({ ...(m.event ? { event: m.event } : {}), data: m.data })),
          );
        },
      ),
      { seed: 29, numRuns: 200 },
    );
  });

  it('a reader that stops early cancels the body', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const message of readSse(body)) {
      expect(message.data).toBe('1');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
