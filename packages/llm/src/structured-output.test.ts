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
