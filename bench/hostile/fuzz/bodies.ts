// JSON bodies: a valid value of the route's request schema, or that value mutated the ways an
// attacker or a broken client would: wrong types, missing and extra fields, huge strings, deep
// nesting, prototype keys, odd unicode, malformed JSON, wrong content types. Huge and deep
// values are planned here and written when sent (BodySpec), so 4,000 plans stay small.
import fc from 'fast-check';

export type BodySpec =
  /** JSON of `json`; `fill` replaces the value at `key` with a huge string or deep nesting. */
  | { json: unknown; fill?: { key: string; huge?: number; deep?: number }; prototype?: boolean }
  | { text: string }
  | { bytes: number[] };

export interface BodyPlan {
  kind: string;
  body: BodySpec;
  contentType: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const keysOf = (v: unknown) => (isObject(v) ? Object.keys(v) : []);

/** A key of the value, or a new one when it has none. */
const keyIn = (base: unknown) =>
  keysOf(base).length > 0 ? fc.constantFrom(...keysOf(base)) : fc.constant('field');

const otherTypes = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
  fc.string({ maxLength: 10 }),
);

/** Strings that break naive code: lone surrogates, NUL, bidi overrides, a BOM, huge graphemes. */
export const oddUnicode = fc.constantFrom(
  '\ud800',
  'a\udc00b',
  '\u0000nul',
  '\u202eevil\u202c',
  '\ufeffbom',
  'Z\u0351\u0352\u0353\u0354\u0355\u0356\u0357\u0358\u0359\u035a'.repeat(50),
  '💩'.repeat(100),
  'İıǅ ß ﬀ',
  '\u2028\u2029',
  '𝕳𝖊𝖑𝖑𝖔',
  '..\\..\\windows\\win.ini',
  '${jndi:ldap://127.0.0.1/a}',
  "'; DROP TABLE tasks; --",
  '{{7*7}}<script>alert(1)</script>',
);

const MALFORMED_JSON = [
  '{',
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":1}{"b":2}',
  '"',
  '[1,2',
  '{"a":"\\x41"}',
  '{"a":1e999999}',
  '{"__proto__":',
  '\u0000',
  '{"a":"\ud800"}',
  'null',
  '[]',
  '"a string"',
  '12',
  'true',
];

const mutation = (kind: string, body: BodySpec, contentType = 'application/json'): BodyPlan => ({
  kind: `body:${kind}`,
  body,
  contentType,
});

function withKey(base: unknown, key: string, value: unknown): Record<string, unknown> {
  return { ...(isObject(base) ? base : {}), [key]: value };
}

/** Mutations of a valid value `base`. */
export function mutationsOf(base: unknown): fc.Arbitrary<BodyPlan> {
  const without = (key: string) =>
    Object.fromEntries(Object.entries(isObject(base) ? base : {}).filter(([k]) => k !== key));
  return fc.oneof(
    keyIn(base).chain((key) =>
      otherTypes.map((v) => mutation('wrong-type', { json: withKey(base, key, v) })),
    ),
    keyIn(base).map((key) => mutation('missing', { json: without(key) })),
    fc.constant(mutation('empty-object', { json: {} })),
    fc
      .dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), {
        minKeys: 1,
        maxKeys: 4,
      })
      .map((extra) => mutation('extra', { json: { ...(isObject(base) ? base : {}), ...extra } })),
    fc
      .tuple(keyIn(base), fc.constantFrom(10_000, 10_000, 100_000, 100_000, 1_000_000, 9_000_000))
      .map(([key, huge]) => mutation(`huge(${huge})`, { json: base, fill: { key, huge } })),
    fc
      .tuple(keyIn(base), fc.constantFrom(100, 1_000, 10_000, 100_000))
      .map(([key, deep]) => mutation(`deep(${deep})`, { json: base, fill: { key, deep } })),
    fc.constant(mutation('prototype', { json: base, prototype: true })),
    fc
      .tuple(keyIn(base), oddUnicode)
      .map(([key, s]) => mutation('unicode', { json: withKey(base, key, s) })),
    fc.constantFrom(...MALFORMED_JSON).map((text) => mutation('malformed-json', { text })),
    fc
      .uint8Array({ minLength: 1, maxLength: 64 })
      .map((bytes) => mutation('binary', { bytes: [0xff, 0xfe, ...bytes] })),
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'application/json; charset=utf-16',
        'application/xml',
        '',
      )
      .map((type) => mutation(`content-type(${type || 'none'})`, { json: base }, type)),
    fc.constant(mutation('no-body', { text: '' })),
  );
}

/** A valid body (about one in four) or a mutation of one. */
export function bodyPlans(valid: fc.Arbitrary<unknown>): fc.Arbitrary<BodyPlan> {
  return valid.chain((base) =>
    fc.oneof(
      {
        weight: 1,
        arbitrary: fc.constant<BodyPlan>({
          kind: 'valid',
          body: { json: base },
          contentType: 'application/json',
        }),
      },
      { weight: 3, arbitrary: mutationsOf(base) },
    ),
  );
}

const FILL = '@@fill@@';
const PLACEHOLDER = JSON.stringify(FILL);

/** The bytes of a body plan (huge and deep values written out only now). */
export function renderBody(spec: BodySpec): Buffer {
  if ('text' in spec) return Buffer.from(spec.text);
  if ('bytes' in spec) return Buffer.from(spec.bytes);
  const value = spec.fill ? withKey(spec.json, spec.fill.key, FILL) : spec.json;
  let text = JSON.stringify(value) ?? 'null';
  if (spec.fill?.huge) text = text.replace(PLACEHOLDER, `"${'x'.repeat(spec.fill.huge)}"`);
  if (spec.fill?.deep)
    text = text.replace(PLACEHOLDER, '['.repeat(spec.fill.deep) + ']'.repeat(spec.fill.deep));
  // Written as text: an object literal's __proto__ would set the prototype, not a key.
  if (spec.prototype && text.startsWith('{'))
    text =
      `{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}},${text.slice(1)}`.replace(
        /,}$/,
        '}',
      );
  return Buffer.from(text);
}
