// The defaults both adapters store for omitted fields, checked without a store: each builder
// fills what is absent, keeps what is given, and never lets two records share a mutable default.
import { describe, expect, it } from 'vitest';
import { newQueuedJobRecord } from './record';

const NOW = '2025-03-04T05:06:07.089Z';
const T = 'tenant-1';

describe('newQueuedJobRecord', () => {
  const input = {
    id: 'crawl-1',
    queue: 'knowledge-crawl',
    tenantId: T,
    data: { url: 'https://docs.example/' },
    maxAttempts: 3,
    backoffMs: 5_000,
  };

  it('queues a job waiting, untried and unowned, due now', () => {
    expect(newQueuedJobRecord(input, NOW)).toEqual({
      ...input,
      status: 'waiting',
      attempts: 0,
      runAt: NOW,
      owner: null,
      leaseExpiresAt: null,
      error: null,
      createdAt: NOW,
      updatedAt: NOW,
      finishedAt: null,
    });
  });

  it('keeps a given runAt, normalised to UTC, and rejects one that is no time', () => {
    expect(newQueuedJobRecord({ ...input, runAt: '2025-03-04T07:00:00+02:00' }, NOW).runAt).toBe(
      '2025-03-04T05:00:00.000Z',
    );
    expect(() => newQueuedJobRecord({ ...input, runAt: 'soon' }, NOW)).toThrow(/timestamp/);
  });
});
