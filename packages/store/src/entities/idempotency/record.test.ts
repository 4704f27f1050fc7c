// The defaults both adapters store for omitted fields, checked without a store: each builder
// fills what is absent, keeps what is given, and never lets two records share a mutable default.
import { describe, expect, it } from 'vitest';
import { newIdempotencyRecord } from './record';

const NOW = '2025-03-04T05:06:07.089Z';
const T = 'tenant-1';

describe('newIdempotencyRecord', () => {
  it('claims a key in progress, with no response, until now + ttl', () => {
    const claim = { key: 'k1', scope: 'interact', requestHash: 'h', ttlMs: 60_000 };
    expect(newIdempotencyRecord(T, claim, NOW)).toEqual({
      tenantId: T,
      key: 'k1',
      scope: 'interact',
      requestHash: 'h',
      status: 'in_progress',
      response: null,
      createdAt: NOW,
      expiresAt: '2025-03-04T05:07:07.089Z',
    });
  });
});
