import { describe, expect, it } from 'vitest';
import { fieldRows, toolLabel } from './field-rows';
import { readEvents } from './stream-client';

describe('fieldRows', () => {
  it('lists every value by path with the confidence at the same path; low ones marked', () => {
    const rows = fieldRows(
      { vendor: { name: 'Acme' }, items: [{ price: 2 }], total: 1204.5, tags: [] },
      { vendor: { name: 0.95 }, items: [{ price: 0.5 }], total: 1, tags: [] },
    );
    expect(rows).toEqual([
      { path: 'vendor.name', value: 'Acme', confidence: 0.95, low: false },
      { path: 'items[0].price', value: 2, confidence: 0.5, low: true },
      { path: 'total', value: 1204.5, confidence: 1, low: false },
      { path: 'tags', value: [], confidence: null, low: false },
    ]);
  });

  it('says what a tool call does in words', () => {
    expect(toolLabel('update_field', { path: 'totals.total', value: 1240.5 })).toBe(
      'Setting totals.total to 1240.5',
    );
    expect(toolLabel('identify_document', { document_type: 'lab_report' })).toBe(
      'Identified the document: lab report',
    );
  });
});

describe('readEvents', () => {
  it('reads data lines across chunk boundaries, skips heartbeats, keeps the last id', async () => {
    const chunks = [
      'data: {"text":"Rea',
      'ding"}\n\n: heartbeat\n\n',
      'id: 4\ndata: {"tool":"x","input":{}}\n\n',
      'data: {"text":"after"}\n\n',
    ];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const events: unknown[] = [];
    for await (const event of readEvents(new Response(body))) events.push(event);
    expect(events).toEqual([
      { id: undefined, data: { text: 'Reading' } },
      { id: '4', data: { tool: 'x', input: {} } },
      // The resume point stays the last write's seq.
      { id: '4', data: { text: 'after' } },
    ]);
  });
});
