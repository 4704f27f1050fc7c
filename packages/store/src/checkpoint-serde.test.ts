import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import { describe, expect, it } from 'vitest';
import { CheckpointSerializer } from './checkpoint-serde';

const fast = new CheckpointSerializer();
const full = new JsonPlusSerializer();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A graph state shaped like the interact graph's: nested plain JSON only. */
const plainState = {
  taskId: 't-1',
  page: {
    url: 'https://app.example/patients',
    tree: [
      { i: '1', r: 'btn', n: 'Add patient' },
      { i: '2', r: 'textbox', n: 'First name', v: '' },
    ],
    hasSuccess: false,
  },
  plan: { steps: [{ index: 0, description: 'Open the form', status: 'active' }] },
  previousActions: [],
  lastVerification: null,
  tokens: { input: 12, output: 3, saved: 0, calls: 1 },
  note: 'quotes " and \\ and unicode ✓',
};

describe('CheckpointSerializer', () => {
  it('writes the same bytes as JsonPlusSerializer for plain JSON', async () => {
    for (const value of [plainState, [], {}, 0, 'text', null, true, [1, [2, { a: 3 }]]]) {
      const [fastType, fastBytes] = await fast.dumpsTyped(value);
      const [fullType, fullBytes] = await full.dumpsTyped(value);
      expect(fastType).toBe(fullType);
      expect(text(fastBytes)).toBe(text(fullBytes));
    }
  });

  it('reads plain JSON to the same value as JsonPlusSerializer', async () => {
    const [type, bytes] = await full.dumpsTyped(plainState);
    expect(await fast.loadsTyped(type, bytes)).toEqual(await full.loadsTyped(type, bytes));
    expect(await fast.loadsTyped(type, text(bytes))).toEqual(plainState);
  });

  it('keeps undefined, Set, Map, Error and bytes exactly as JsonPlusSerializer does', async () => {
    const special = {
      missing: undefined,
      ids: new Set(['a', 'b']),
      byId: new Map([['a', 1]]),
      error: new Error('boom'),
      nested: [{ seen: new Set([1]) }],
    };
    const [type, bytes] = await fast.dumpsTyped(special);
    const [, fullBytes] = await full.dumpsTyped(special);
    expect(text(bytes)).toBe(text(fullBytes));
    const loaded = (await fast.loadsTyped(type, bytes)) as typeof special;
    expect(loaded).toEqual(await full.loadsTyped(type, bytes));
    expect('missing' in loaded).toBe(true);
    expect(loaded.ids).toBeInstanceOf(Set);
    expect(loaded.byId.get('a')).toBe(1);
    expect(loaded.error).toBeInstanceOf(Error);
    expect(loaded.nested[0]?.seen).toBeInstanceOf(Set);

    const raw = new Uint8Array([1, 2, 3]);
    const [rawType, rawBytes] = await fast.dumpsTyped(raw);
    expect(rawType).toBe('bytes');
    expect(await fast.loadsTyped(rawType, rawBytes)).toEqual(raw);
  });

  it('hands class instances and cycles to JsonPlusSerializer', async () => {
    class Step {
      constructor(readonly index: number) {}
    }
    const [, classBytes] = await fast.dumpsTyped({ step: new Step(2) });
    expect(text(classBytes)).toBe(text((await full.dumpsTyped({ step: new Step(2) }))[1]));

    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const [, cyclicBytes] = await fast.dumpsTyped(cyclic);
    expect(text(cyclicBytes)).toBe(text((await full.dumpsTyped(cyclic))[1]));
  });

  it('revives a text that mentions "lc" through JsonPlusSerializer', async () => {
    const value = { lc: 2, type: 'undefined' };
    const textValue = JSON.stringify({ a: value, b: 'plain' });
    expect(await fast.loadsTyped('json', textValue)).toEqual(
      await full.loadsTyped('json', textValue),
    );
    expect(await fast.loadsTyped('json', textValue)).toEqual({ a: undefined, b: 'plain' });
  });

  it('keeps a "__proto__" key of stored data as data', async () => {
    const loaded = (await fast.loadsTyped('json', '{"__proto__":{"polluted":true}}')) as object;
    expect(Object.hasOwn(loaded, '__proto__')).toBe(true);
    expect((loaded as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
