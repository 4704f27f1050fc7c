// What a JSON Schema asks for, as far as replay is concerned: a list of flat objects or one flat
// object, with scalar properties. Anything else (nested objects, arrays of arrays, unions of
// several types) is left to the model: a recipe of one selector per field cannot express it.
import type { ScalarType } from './values';

export interface FieldSpec {
  name: string;
  type: ScalarType;
  /** The schema allows null (type ["x","null"], nullable: true, or anyOf with null). */
  nullable: boolean;
  /** Listed in the schema's `required`. */
  required: boolean;
}

export interface SchemaShape {
  kind: 'list' | 'object';
  fields: FieldSpec[];
}

const SCALARS = new Set<string>(['string', 'number', 'integer', 'boolean']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function enumTypes(values: unknown[]): string[] {
  return [
    ...new Set(
      values.map((value) =>
        value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value,
      ),
    ),
  ];
}

/** The JSON types a schema node allows, `null` included. */
function typesOf(node: Record<string, unknown>): string[] {
  const types = new Set<string>();
  const { type } = node;
  if (typeof type === 'string') types.add(type);
  if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') types.add(t);
  if (type === undefined && isRecord(node.properties)) types.add('object');
  if (type === undefined && Array.isArray(node.enum))
    for (const t of enumTypes(node.enum)) types.add(t);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = node[key];
    if (!Array.isArray(options)) continue;
    for (const option of options)
      if (isRecord(option)) for (const t of typesOf(option)) types.add(t);
  }
  if (node.nullable === true) types.add('null');
  return [...types];
}

function fieldSpec(name: string, node: unknown, required: boolean): FieldSpec | string {
  if (name === '__proto__') return 'a property named "__proto__" cannot be replayed';
  if (!isRecord(node)) return `property "${name}" has no schema`;
  const types = typesOf(node);
  const nullable = types.includes('null');
  const concrete = types.filter((t) => t !== 'null');
  const [only] = concrete;
  if (concrete.length !== 1 || only === undefined) {
    return `property "${name}" is not of one type (${concrete.join(', ') || 'none'})`;
  }
  if (!SCALARS.has(only)) {
    return `property "${name}" is ${only === 'array' ? 'an array' : `of type ${only}`}; replay reads scalar properties only`;
  }
  return { name, type: only as ScalarType, nullable, required };
}

function objectFields(node: Record<string, unknown>, where: string): FieldSpec[] | string {
  const { properties } = node;
  if (!isRecord(properties) || Object.keys(properties).length === 0) {
    return `${where} has no properties to replay`;
  }
  const required = Array.isArray(node.required) ? node.required : [];
  const fields: FieldSpec[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const spec = fieldSpec(name, property, required.includes(name));
    if (typeof spec === 'string') return spec;
    fields.push(spec);
  }
  return fields;
}

/** The shape of a schema replay can handle, or why it cannot. */
export function readShape(schema: Record<string, unknown>): SchemaShape | { reason: string } {
  const types = typesOf(schema).filter((t) => t !== 'null');
  if (types.length === 1 && types[0] === 'array') {
    const items = schema.items;
    if (!isRecord(items) || !typesOf(items).includes('object')) {
      return { reason: 'the schema is an array of something other than objects' };
    }
    const fields = objectFields(items, 'the items schema');
    return typeof fields === 'string' ? { reason: fields } : { kind: 'list', fields };
  }
  if (types.length === 1 && types[0] === 'object') {
    const fields = objectFields(schema, 'the schema');
    return typeof fields === 'string' ? { reason: fields } : { kind: 'object', fields };
  }
  return {
    reason: `the schema is of type ${types.join(', ') || 'unknown'}, not an object or an array of objects`,
  };
}
