import { describe, expect, it } from 'vitest';
import { ownData } from './own-data';

describe('ownData', () => {
  it('copies a JSON value so that missing keys read as undefined, not as Object.prototype’s', () => {
    const copy = ownData(JSON.parse('{"a":[{"b":1},null,"x"],"__proto__":{"c":true}}')) as Record<
      string,
      unknown
    >;
    expect(copy.constructor).toBeUndefined();
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(JSON.stringify(copy)).toBe('{"a":[{"b":1},null,"x"],"__proto__":{"c":true}}');
    expect(((copy.a as unknown[])[0] as Record<string, unknown>).toString).toBeUndefined();
  });
});
