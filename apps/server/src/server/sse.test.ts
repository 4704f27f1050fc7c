import { describe, expect, it } from 'vitest';
import { lastEventSeq, sseFrame, sseResponse, sseStream } from './sse';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('sseFrame', () => {
  it('names the event and its id only when given', () => {
    expect(sseFrame({ data: { text: 'hi' } })).toBe('data: {"text":"hi"}\n\n');
    expect(sseFrame({ event: 'collected', id: 7, data: { a: 1 } })).toBe(
      'event: collected\nid: 7\ndata: {"a":1}\n\n',
    );
  });
});

describe('lastEventSeq', () => {
  const withId = (value: string) =>
    new Request('http://x/', { headers: { 'last-event-id': value } });
  it('reads a sequence number and ignores anything else', () => {
    expect(lastEventSeq(withId(' 42 '))).toBe(42);
    expect(lastEventSeq(withId('abc'))).toBeUndefined();
    expect(lastEventSeq(withId('1'.repeat(16)))).toBeUndefined();
    expect(lastEventSeq(new Request('http://x/'))).toBeUndefined();
  });
});

describe('sseStream', () => {
  it('sends retry first, then events, and runs every cleanup once when closed', async () => {
    let undone = 0;
    const stream = sseStream({
      signal: new AbortController().signal,
      retryMs: 2_000,
      start(channel) {
        channel.onClose(() => (undone += 1));
        channel.send({ event: 'step', data: { n: 1 } });
        channel.close();
        channel.close();
        channel.send({ data: 'after close' });
      },
    });
    expect(await readAll(stream)).toBe('retry: 2000\n\nevent: step\ndata: {"n":1}\n\n');
    expect(undone).toBe(1);
  });

  it('sends heartbeats while idle and ends at its longest life', async () => {
    let undone = false;
    const stream = sseStream({
      signal: new AbortController().signal,
      heartbeatMs: 20,
      maxDurationMs: 130,
      start: (channel) => channel.onClose(() => (undone = true)),
    });
    const text = await readAll(stream);
    expect(text.match(/: heartbeat\n\n/g)?.length).toBeGreaterThanOrEqual(3);
    expect(undone).toBe(true);
  });

  it('ends when the client goes away, and at once when it already has', async () => {
    const client = new AbortController();
    let undone = 0;
    const stream = sseStream({
      signal: client.signal,
      start: (channel) => channel.onClose(() => (undone += 1)),
    });
    const text = readAll(stream);
    client.abort();
    expect(await text).toBe('');
    expect(undone).toBe(1);

    const gone = AbortSignal.abort();
    let cleaned = false;
    const late = sseStream({
      signal: gone,
      start: (channel) => channel.onClose(() => (cleaned = true)),
    });
    expect(await readAll(late)).toBe('');
    expect(cleaned).toBe(true);
  });

  it('a cleanup that throws does not keep the others from running', async () => {
    const ran: string[] = [];
    const stream = sseStream({
      signal: new AbortController().signal,
      start(channel) {
        channel.onClose(() => {
          throw new Error('broken');
        });
        channel.onClose(() => ran.push('second'));
        channel.close();
      },
    });
    await readAll(stream);
    expect(ran).toEqual(['second']);
  });
});

describe('sseResponse', () => {
  it('answers with the event-stream headers a proxy must not buffer', () => {
    const response = sseResponse({
      signal: AbortSignal.abort(),
      headers: { 'tandem-extraction-id': 'x1' },
      start: () => {},
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('tandem-extraction-id')).toBe('x1');
  });
});
