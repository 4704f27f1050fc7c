import { describe, expect, it } from 'vitest';
import { provisionalTaskId } from './start-task';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('provisionalTaskId', () => {
  it('gives a first request sent again under its key the same id, another tenant another', () => {
    const id = provisionalTaskId('tenant-a', 'req-7f3a');
    expect(id).toMatch(UUID_V4);
    expect(provisionalTaskId('tenant-a', 'req-7f3a')).toBe(id);
    expect(provisionalTaskId('tenant-b', 'req-7f3a')).not.toBe(id);
    expect(provisionalTaskId('tenant-a', 'req-7f3b')).not.toBe(id);
  });

  it('is random without a key', () => {
    const id = provisionalTaskId('tenant-a', undefined);
    expect(id).toMatch(UUID_V4);
    expect(provisionalTaskId('tenant-a', undefined)).not.toBe(id);
  });
});
