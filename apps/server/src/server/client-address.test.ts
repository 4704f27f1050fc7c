import { describe, expect, it } from 'vitest';
import { clientAddress, PEER_HEADER, UNKNOWN_ADDRESS } from './client-address';

const headers = (peer: string | null, forwarded?: string) =>
  new Headers({
    ...(peer ? { [PEER_HEADER]: peer } : {}),
    ...(forwarded ? { 'x-forwarded-for': forwarded } : {}),
  });

describe('clientAddress', () => {
  it('is the TCP peer with no trusted proxy, whatever X-Forwarded-For says', () => {
    expect(clientAddress(headers('127.0.0.1', '6.6.6.6'), 0)).toBe('127.0.0.1');
    expect(clientAddress(headers('::ffff:192.0.2.1'), 0)).toBe('192.0.2.1');
    expect(clientAddress(headers(null, '6.6.6.6'), 0)).toBe(UNKNOWN_ADDRESS);
  });

  it('reads X-Forwarded-For from the right, one entry per trusted hop', () => {
    // client → proxy A (appends client) → proxy B (appends A) → us (peer B).
    const h = headers('10.0.0.2', 'forged, 203.0.113.7, 10.0.0.1');
    expect(clientAddress(h, 1)).toBe('10.0.0.1');
    expect(clientAddress(h, 2)).toBe('203.0.113.7');
    // More hops than entries: the leftmost one is all there is.
    expect(clientAddress(headers('10.0.0.2', '203.0.113.7'), 5)).toBe('203.0.113.7');
  });
});
