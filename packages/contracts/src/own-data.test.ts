import { describe, expect, it } from 'vitest';
import { ANSWER_MAX_DEPTH, jsonDataProblem, ownData } from './own-data';

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

describe('jsonDataProblem', () => {
  const nested = (levels: number) => JSON.parse('['.repeat(levels) + ']'.repeat(levels)) as unknown;

  it('names a "__proto__" key wherever it sits, and passes the prototype’s other names', () => {
    expect(jsonDataProblem(JSON.parse('{"fields":{"__proto__":"INV-0042"}}'))).toBe(
      '"__proto__" may not be a key (at fields.__proto__); name it otherwise.',
    );
    expect(jsonDataProblem(JSON.parse('{"rows":[{"a":1},{"b":{"__proto__":{}}}]}'))).toMatch(
      /at rows\[1\]\.b\.__proto__\)/,
    );
    expect(jsonDataProblem(JSON.parse('{"constructor":1,"toString":"x","proto":{}}'))).toBeNull();
    expect(jsonDataProblem('__proto__')).toBeNull();
  });

  it('bounds the nesting at ANSWER_MAX_DEPTH levels, at any depth asked, without recursing', () => {
    expect(jsonDataProblem(nested(ANSWER_MAX_DEPTH))).toBeNull();
    expect(jsonDataProblem(nested(ANSWER_MAX_DEPTH + 1))).toMatch(
      /^The JSON is nested deeper than 64 levels \(at \[0\]/,
    );
    expect(jsonDataProblem(nested(3), 2)).toMatch(/deeper than 2 levels/);
    // Deeper than any call stack: the copy would overflow, the check answers.
    expect(jsonDataProblem(nested(200_000))).toMatch(/deeper than 64 levels/);
  });

  it('finds a "__proto__" key under nesting deeper than any call stack', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(20_000)}{"__proto__":1}${'}'.repeat(20_000)}`);
    expect(jsonDataProblem(deep, Infinity)).toMatch(/^"__proto__" may not be a key \(at a\.a\./);
  });
});
