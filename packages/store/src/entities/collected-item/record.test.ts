// The defaults both adapters store for omitted fields, checked without a store: each builder
// fills what is absent, keeps what is given, and never lets two records share a mutable default.
import { describe, expect, it } from 'vitest';
import { newCollectedItemRecord } from './record';

const NOW = '2025-03-04T05:06:07.089Z';
const T = 'tenant-1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newCollectedItemRecord', () => {
  it('gives a collected item no source unless given, and leaves seq to the store', () => {
    const input = { taskId: 'task-1', type: 'job', uniqueKey: 'jobId:1', data: { title: 'Dev' } };
    const item = newCollectedItemRecord(T, input, NOW);
    expect(item).toEqual({
      id: expect.stringMatching(UUID),
      tenantId: T,
      ...input,
      sourceUrl: null,
      createdAt: NOW,
    });
    expect(item).not.toHaveProperty('seq');
    const given = { ...input, id: 'i1', sourceUrl: 'https://a.example/jobs' };
    expect(newCollectedItemRecord(T, given, NOW)).toMatchObject(given);
  });
});
