// Output schemas (docs/specs.md, "schema-enforced extraction"): a JSON Schema from the model or a
// script, checked for the features the extractor can enforce, then turned into a zod schema with
// zod 4's own JSON-Schema conversion. Zod, not ajv: every structured output in Tandem is a zod
// schema the LLM port validates and converts for the provider, so one validator covers the model
// answer, the merged result and the replayed data, and no second JSON-Schema dialect is maintained.
import { createHash } from 'node:crypto';
import { checkLimit, type InputLimits } from '@tandem/contracts';
import { z } from 'zod';
import { isJsonObject as isObject, type JsonObject as Json } from './json';

/** Keywords whose meaning the extractor cannot keep (providers' structured output lacks them). */
const UNSUPPORTED = [
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  '$ref',
  '$defs',
  'definitions',
  'patternProperties',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependentRequired',
  'prefixItems',
  'unevaluatedProperties',
  'unevaluatedItems',
] as const;

const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/** Where a schema uses what the extractor cannot enforce: one line per feature and path. */
export function unsupportedFeatures(schema: Json, path = '(root)'): string[] {
  const found: string[] = [];
  for (const keyword of UNSUPPORTED) {
    if (keyword in schema) found.push(`${keyword} at ${path}`);
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  for (const type of types) {
    if (type !== undefined && (typeof type !== 'string' || !TYPES.has(type))) {
      found.push(`type ${JSON.stringify(type)} at ${path}`);
    }
  }
  if (isObject(schema.additionalProperties)) found.push(`additionalProperties schema at ${path}`);
  if (isObject(schema.properties)) {
    for (const [key, child] of Object.entries(schema.properties)) {
      // zod (like any object built by assignment) cannot hold a field of this name: it would
      // vanish from the data, unsaid.
      if (key === '__proto__') found.push(`a property named "__proto__" at ${path}`);
      if (isObject(child)) found.push(...unsupportedFeatures(child, `${path}.${key}`));
      else found.push(`a non-object schema at ${path}.${key}`);
    }
  }
  if (schema.items !== undefined) {
    if (isObject(schema.items)) found.push(...unsupportedFeatures(schema.items, `${path}[]`));
    else found.push(`items that is not one schema at ${path}`);
  }
  return found;
}

/**
 * An output schema within its budgets (SCHEMA_MAX_DEPTH levels of nested schemas, at most
 * SCHEMA_MAX_NODES schemas in all), or InputTooComplexError naming the one it breaks. Counted
 * with a stack of its own: the checks and converters that come after recurse per level.
 */
export function checkSchemaBudget(
  schema: Json,
  limits: Pick<InputLimits, 'schemaMaxDepth' | 'schemaMaxNodes'>,
): void {
  const all = { ...limits } as InputLimits;
  let nodes = 0;
  const stack: [Json, number][] = [[schema, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [Json, number];
    nodes++;
    checkLimit(all, 'schemaMaxDepth', depth, 'outputSchema nests at least');
    checkLimit(all, 'schemaMaxNodes', nodes, 'outputSchema has at least');
    const children = [
      ...(isObject(node.properties) ? Object.values(node.properties) : []),
      ...(Array.isArray(node.items) ? node.items : [node.items]),
    ];
    for (const child of children) if (isObject(child)) stack.push([child, depth + 1]);
  }
}

export interface CheckedSchema {
  /** The schema as given, for `schemaUsed`. */
  json: Json;
  /** Validates the complete (merged) data. */
  zod: z.ZodType;
  /** Validates one chunk's answer: required object fields relaxed, array items kept whole. */
  chunkZod: z.ZodType;
  /** Root is an array: chunks' answers are concatenated. */
  isArray: boolean;
  hash: string;
}

export type SchemaCheck = { ok: true; schema: CheckedSchema } | { ok: false; warning: string };

/**
 * The schema ready for extraction, or why the free-text path is taken instead. A schema with
 * unsupported features is never half-enforced: its data would look checked without being so.
 */
export function checkOutputSchema(schema: Json): SchemaCheck {
  const unsupported = unsupportedFeatures(schema);
  if (unsupported.length > 0) {
    return {
      ok: false,
      warning: `outputSchema uses ${unsupported.slice(0, 5).join(', ')}, which the extractor cannot enforce; the data was extracted as free text instead.`,
    };
  }
  try {
    return {
      ok: true,
      schema: {
        json: schema,
        zod: z.fromJSONSchema(schema),
        chunkZod: z.fromJSONSchema(relaxRequired(schema, true)),
        isArray: schema.type === 'array',
        hash: schemaHash(schema),
      },
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      warning: `outputSchema could not be used (${reason}); the data was extracted as free text instead.`,
    };
  }
}

/**
 * One chunk sees part of an object: its required fields may sit in another chunk, so a chunk's
 * object answer may leave them out. Items of an array are whole in one chunk (the chunker never
 * splits a row or a card's paragraph), so they keep theirs.
 */
function relaxRequired(schema: Json, relax: boolean): Json {
  const out: Json = { ...schema };
  if (relax) delete out.required;
  if (isObject(schema.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, child]) => [
        key,
        isObject(child) ? relaxRequired(child, relax) : child,
      ]),
    );
  }
  if (isObject(schema.items)) out.items = relaxRequired(schema.items, false);
  return out;
}

/** Canonical JSON (sorted keys) so the same schema written twice has one hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const schemaHash = (schema: Json): string =>
  createHash('sha256').update(canonicalJson(schema)).digest('hex').slice(0, 32);

/** Field names of an array-of-objects or object schema, for summaries ("name, price"). */
export function schemaFields(schema: Json): string[] {
  const target = schema.type === 'array' && isObject(schema.items) ? schema.items : schema;
  return isObject(target.properties) ? Object.keys(target.properties) : [];
}
