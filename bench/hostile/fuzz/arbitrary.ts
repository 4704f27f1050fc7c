// Values for a zod contract, through the JSON Schema zod writes for it (toDocJsonSchema, the
// OpenAPI document's source): fast-check arbitraries per keyword. Collections and strings are
// kept short (the mutations make them long on purpose), URLs point at hosts that cannot resolve
// (`.invalid`, RFC 2606) or at private addresses the server must refuse, never at the internet.
import { toDocJsonSchema, type EndpointDefinition } from '@tandem/contracts';
import fc from 'fast-check';

type Json = Record<string, unknown>;

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const MAX_ITEMS = 4;
const MAX_CHARS = 40;

/** URLs a crawl or a page may name: unresolvable hosts, and addresses an SSRF would want. */
export const fuzzUrl: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.domain(), fc.webPath())
      .map(([d, p]) => `https://${d.replace(/\.[^.]+$/, '')}.invalid${p}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'http://127.0.0.1:1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/admin',
      'http://10.0.0.1/',
      'http://localhost:3000/api/health',
      'file:///etc/passwd',
      'https://hostile.example/page',
    ),
  },
);

function stringOf(schema: Json): fc.Arbitrary<string> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = Math.max(
    min,
    Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : MAX_CHARS, MAX_CHARS),
  );
  switch (schema.format) {
    case 'uri':
    case 'url':
      return fuzzUrl;
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'email':
      return fc.emailAddress();
  }
  if (typeof schema.pattern === 'string')
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= min && s.length <= Math.max(max, 64));
  return fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
}

function numberOf(schema: Json, integer: boolean): fc.Arbitrary<number> {
  const lo =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + (integer ? 1 : 1e-6)
        : -1e6;
  const hi =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - (integer ? 1 : 1e-6)
        : 1e6;
  const min = Math.max(lo, -1e9);
  const max = Math.min(hi, 1e9);
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function objectOf(schema: Json, root: Json, depth: number): fc.Arbitrary<unknown> {
  const properties = isJson(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const shape = Object.fromEntries(
    Object.entries(properties).map(([key, child]) => [
      key,
      arbitraryOf(isJson(child) ? child : {}, root, depth + 1),
    ]),
  );
  if (Object.keys(shape).length === 0 && isJson(schema.additionalProperties))
    return fc.dictionary(
      fc.string({ maxLength: 12 }),
      arbitraryOf(schema.additionalProperties, root, depth + 1),
      { maxKeys: MAX_ITEMS },
    );
  return fc.record(shape, { requiredKeys: required.filter((k) => k in shape) });
}

function arrayOf(schema: Json, root: Json, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.prefixItems))
    return fc.tuple(
      ...schema.prefixItems.map((item) => arbitraryOf(isJson(item) ? item : {}, root, depth + 1)),
    );
  const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxLength = Math.max(
    minLength,
    Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : MAX_ITEMS, MAX_ITEMS),
  );
  return fc.array(arbitraryOf(isJson(schema.items) ? schema.items : {}, root, depth + 1), {
    minLength,
    maxLength,
  });
}

/** An arbitrary of values that (mostly) satisfy `schema`; refinements zod checks may still fail. */
export function arbitraryOf(schema: Json, root: Json = schema, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref.replace(/^#\/\$defs\//, '');
    const defs = isJson(root.$defs) ? root.$defs : {};
    const resolved = schema.$ref === '#' ? root : defs[target];
    return depth > 6 || !isJson(resolved)
      ? fc.constant(null)
      : arbitraryOf(resolved, root, depth + 1);
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options))
      return fc.oneof(...options.map((o) => arbitraryOf(isJson(o) ? o : {}, root, depth + 1)));
  }
  if (Array.isArray(schema.allOf) && isJson(schema.allOf[0]))
    return arbitraryOf(schema.allOf[0], root, depth + 1);
  const type = schema.type;
  if (Array.isArray(type))
    return fc.oneof(...type.map((t) => arbitraryOf({ ...schema, type: t }, root, depth)));
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
    case 'number':
      return numberOf(schema, type === 'integer');
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayOf(schema, root, depth);
    case 'object':
      return objectOf(schema, root, depth);
    default:
      return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values for a contract's input side. */
export const arbitraryFor = (schema: EndpointDefinition['response']): fc.Arbitrary<unknown> =>
  arbitraryOf(toDocJsonSchema(schema, 'input'));
