import { describe, expect, it } from 'vitest';
import type { TaskEvent } from '@tandem/contracts';
import { readEventStream } from './api-client';

const TASK = '11111111-1111-4111-8111-111111111111';

/** A body that arrives in arbitrary chunks, as a real network stream does. */
function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('readEventStream', () => {
  it('parses events split across chunks, skips heartbeats and junk, and stops at done', async () => {
    const collected = JSON.stringify({
      event: 'collected',
      taskId: TASK,
      type: 'job',
      count: 1,
      item: {
        id: 'item-1',
        seq: 1,
        type: 'job',
        uniqueKey: 'job:J-1',
        data: { jobId: 'J-1' },
        sourceUrl: null,
        createdAt: '2026-11-22T06:00:00.000Z',
      },
    });
    const done = JSON.stringify({
      event: 'done',
      taskId: TASK,
      status: 'completed',
      result: 'ok',
      counts: { job: 1 },
    });
    const text = `: heartbeat\n\nevent: collected\nid: 1\ndata: ${collected}\n\ndata: not json\n\nevent: done\ndata: ${done}\n\ndata: ${collected}\n\n`;
    const chunks = [text.slice(0, 17), text.slice(17, 90), text.slice(90)];
    const events: TaskEvent[] = [];
    await readEventStream(streamOf(chunks), (e) => events.push(e));
    expect(events.map((e) => e.event)).toEqual(['collected', 'done']);
    expect(events[0]).toMatchObject({ type: 'job', count: 1 });
  });
});
