import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  extractJson,
  parseStructuredOutput,
  toProviderJsonSchema,
  toSchemaName,
} from './structured-output';

describe('structured output', () => {
  it('builds an input-side JSON Schema without $schema', () => {
    const schema = z.object({
      a: z.string(),
      b: z.number().default(1),
      c: z.string().transform((s) => s.length),
    });
    const json = toProviderJsonSchema(schema);
    expect(json).not.toHaveProperty('$schema');
    expect(json).toMatchObject({ type: 'object', required: ['a', 'c'] });
  });

  it('sanitises schema names for OpenAI', () => {
    expect(toSchemaName('verification verdict!', 'x')).toBe('verification_verdict_');
    expect(toSchemaName(undefined, 'planning')).toBe('planning');
    expect(toSchemaName('a'.repeat(80), 'x')).toHaveLength(64);
  });

  it('accepts fenced JSON and strips <think> blocks', () => {
    expect(extractJson('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('<think>hmm {"no"}</think>\n{"a":2}')).toEqual({
      ok: true,
      value: { a: 2 },
    });
    expect(extractJson('   ')).toMatchObject({ ok: false, reason: expect.stringMatching(/empty/) });
    expect(extractJson('{a:1}')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not valid JSON/),
    });
  });

  it('validates with the schema and explains mismatches', () => {
    const schema = z.object({ n: z.number() });
    expect(parseStructuredOutput('{"n":3}', schema)).toMatchObject({ ok: true, value: { n: 3 } });
    const bad = parseStructuredOutput('{"n":"3"}', schema);
    expect(bad.ok).toBe(false);
    expect(bad.ok ? '' : bad.reason).toMatch(/n/);
  });
});

describe('parseStructuredOutput with property names of Object.prototype', () => {
  it('reads an answer that leaves out an optional `constructor`, `toString` or `valueOf`', () => {
    // As JSON text: an object literal cannot carry a `constructor` key of another type.
    const schema = z.fromJSONSchema(
      JSON.parse(
        '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"constructor":{"type":"object","properties":{"toString":{"type":"string"}}},"valueOf":{"type":"number"}},"required":["name"]}}',
      ) as Parameters<typeof z.fromJSONSchema>[0],
    );
    const outcome = parseStructuredOutput(
      '[{"name":"Oak chair"},{"name":"Pine desk","valueOf":2,"constructor":{"toString":"x"}}]',
      schema,
    );
    expect(outcome.ok).toBe(true);
    expect(JSON.stringify(outcome.ok ? outcome.value : null)).toBe(
      '[{"name":"Oak chair"},{"name":"Pine desk","constructor":{"toString":"x"},"valueOf":2}]',
    );
  });
});

describe('parseStructuredOutput on keys and nesting a copy cannot keep', () => {
  const Data = z.object({ data: z.record(z.string(), z.unknown()) });

  it('sends a "__proto__" key back to the model by name instead of dropping its value', () => {
    const outcome = parseStructuredOutput('{"data":{"__proto__":"J-1","title":"Cook"}}', Data);
    expect(outcome).toMatchObject({
      ok: false,
      reason: '"__proto__" may not be a key (at data.__proto__); name it otherwise.',
    });
    // The JSON is kept: the repair may say what was wrong, and it is no "not JSON" failure.
    expect(outcome.ok ? null : outcome.json).toBeDefined();
  });

  it('answers nesting deeper than the stack with a reason, not a thrown RangeError', () => {
    const text = `{"data":{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}}`;
    const outcome = parseStructuredOutput(text, Data);
    expect(outcome.ok ? '' : outcome.reason).toMatch(/^The JSON is nested deeper than 64 levels/);
  });

  // JSON written as text, so that an object may hold any key (an object literal cannot hold an
  // own "__proto__"), in the shapes a model echoing a page writes.
  type Tree = { array: Tree[] } | { pairs: [string, Tree][] } | { leaf: string | number | null };
  const key = fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'toString', 'valueOf', 'id', 'title', 'proto'),
    fc.string({ maxLength: 6 }),
  );
  const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null)).map((leaf) => ({
        leaf,
      })),
      fc.array(tie('tree'), { maxLength: 4 }).map((array) => ({ array })),
      fc.array(fc.tuple(key, tie('tree')), { maxLength: 4 }).map((pairs) => ({ pairs })),
    ),
  }));
  const text = (t: Tree): string =>
    'leaf' in t
      ? JSON.stringify(t.leaf)
      : 'array' in t
        ? `[${t.array.map(text).join(',')}]`
        : `{${t.pairs.map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`).join(',')}}`;
  const protoIn = (t: Tree): boolean =>
    'array' in t
      ? t.array.some(protoIn)
      : 'pairs' in t && t.pairs.some(([k, v]) => k === '__proto__' || protoIn(v));
  const depth = (t: Tree): number =>
    'leaf' in t
      ? 0
      : 1 + Math.max(0, ...('array' in t ? t.array : t.pairs.map(([, v]) => v)).map(depth));

  it('keeps every key of a record the model wrote, or says which one it cannot keep', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, tree), { maxLength: 5 }), fc.nat(80), (pairs, wrap) => {
        const data: Tree = { pairs };
        const body = `${'['.repeat(wrap)}${text(data)}${']'.repeat(wrap)}`;
        const outcome = parseStructuredOutput(`{"data":{"x":${body}}}`, Data);
        if (protoIn(data)) {
          expect(outcome.ok ? '' : outcome.reason).toMatch(/__proto__|nested deeper/);
        } else if (depth(data) + wrap + 2 > 64) {
          expect(outcome.ok ? '' : outcome.reason).toMatch(/^The JSON is nested deeper than 64/);
        } else {
          expect(outcome.ok).toBe(true);
          // Nothing lost: the value reads back as the text the model wrote, key for key.
          const read = outcome.ok ? outcome.value.data.x : null;
          expect(JSON.stringify(read)).toBe(JSON.stringify(JSON.parse(body)));
        }
      }),
      { seed: 38, numRuns: 300 },
    );
  });
});
