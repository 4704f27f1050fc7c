// A schema whose property names are Object.prototype's (`constructor`, `toString`,
// `valueOf`, `hasOwnProperty` gave 502 although the model's answer was right), nested and in a
// list, optional; and one with a `__proto__` property, which no object built by assignment can
// hold (zod's included): the server must say so rather than drop the field. Everything is
// written as JSON text: an object literal's `__proto__` sets a prototype instead of making a
// key, and JSON.parse keeps it a key, as a server must.
// The scripted model answers with `exampleJson` of the schema it is given, so the right answer
// is known: the response's data must be exactly it.

/** Object.prototype's names, and `__proto__`. */
export const PROTOTYPE_KEYS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'];

const ITEM = `{"type":"object","properties":{"constructor":{"type":"object","properties":{"toString":{"type":"string"},"valueOf":{"type":"number"}},"required":["toString"]},"toString":{"type":"string"},"valueOf":{"type":"number"},"hasOwnProperty":{"type":"boolean"}},"required":["toString"]}`;

/** A list of items whose fields are prototype names, one of them an object of more. */
export const PROTOTYPE_SCHEMA = `{"type":"array","items":${ITEM}}`;

/** A list of items with a `__proto__` field beside a name. */
export const PROTO_FIELD_SCHEMA = `{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"__proto__":{"type":"string"}},"required":["name"]}}`;

const extractBody = (schema: string): string =>
  `{"html":"<ul><li>Oak chair</li><li>Pine desk</li></ul>","query":"the products","outputSchema":${schema}}`;

export const prototypeSchemaBody = (): string => extractBody(PROTOTYPE_SCHEMA);
export const protoFieldSchemaBody = (): string => extractBody(PROTO_FIELD_SCHEMA);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a parsed schema names a prototype key anywhere. */
export function namesPrototypeKeys(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(namesPrototypeKeys);
  if (!isObject(schema)) return false;
  const properties = schema.properties;
  if (isObject(properties) && PROTOTYPE_KEYS.some((key) => Object.hasOwn(properties, key)))
    return true;
  return Object.values(schema).some(namesPrototypeKeys);
}

/**
 * A value of `schema` as JSON text. Items vary by index (a list has no duplicates), and only the
 * first has the optional fields: a field left out must stay out, not be read from the prototype
 * (`constructor` is a function on every object).
 */
export function exampleJson(schema: unknown, key = 'value', index = 0): string {
  if (!isObject(schema)) return 'null';
  switch (schema.type) {
    case 'array':
      return `[${[0, 1].map((i) => exampleJson(schema.items, key, i)).join(',')}]`;
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      const fields = Object.keys(properties)
        .filter((name) => index === 0 || required.includes(name))
        .map((name) => `${JSON.stringify(name)}:${exampleJson(properties[name], name, index)}`);
      return `{${fields.join(',')}}`;
    }
    case 'number':
      return String(index + 0.5);
    case 'integer':
      return String(index);
    case 'boolean':
      return String(index % 2 === 0);
    default:
      return JSON.stringify(`${key} ${index}`);
  }
}

/** How `actual` differs from `expected` (JSON values): every key and value the same. */
export function dataDifferences(actual: unknown, expected: unknown, at = 'data'): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length)
      return [`${at} is ${JSON.stringify(actual)?.slice(0, 80)}, not a list of ${expected.length}`];
    return expected.flatMap((item, i) => dataDifferences(actual[i], item, `${at}[${i}]`));
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return [`${at} is ${JSON.stringify(actual)?.slice(0, 80)}`];
    const out: string[] = [];
    for (const key of Object.keys(expected)) {
      const value = Object.hasOwn(actual, key) ? actual[key] : undefined;
      out.push(...dataDifferences(value, expected[key], `${at}.${key}`));
    }
    for (const key of Object.keys(actual))
      if (!Object.hasOwn(expected, key)) out.push(`${at}.${key} was not in the answer`);
    return out;
  }
  return actual === expected
    ? []
    : [`${at} is ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`];
}
