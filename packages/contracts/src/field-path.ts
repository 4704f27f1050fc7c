// Paths into extracted document fields: `vendor.name`, `items[2].price`. One parser
// for everyone who reads a path: the model's tool calls, both store adapters (which turn a path
// into `$."vendor"."name"` for libSQL's json_set or `fields.vendor.name` for a Mongo update) and
// the page that shows the fields. Field names are restricted so that no path can mean two
// things in either store: no `.`, `[`, `]`, `"`, `\` or `/`, no leading `$`, not all digits
// (Mongo would read `items.2` as an index), no control characters.
import { z } from 'zod';

/** An object key, or an array index. */
export type FieldPathSegment = string | number;

export const FIELD_PATH_LIMITS = {
  nameLength: 100,
  pathLength: 500,
  depth: 12,
} as const;

// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_NAME = /[.[\]"\\/\u0000-\u001f\u007f]/;

/** Why a field name cannot be used, or null when it can. */
export function fieldNameProblem(name: string): string | null {
  if (name.trim() === '') return 'a field name may not be empty';
  if (name !== name.trim()) return `field name "${name}" has spaces around it`;
  if (name.length > FIELD_PATH_LIMITS.nameLength) {
    return `field name "${name.slice(0, 20)}…" is longer than ${FIELD_PATH_LIMITS.nameLength} characters`;
  }
  if (FORBIDDEN_IN_NAME.test(name)) {
    return `field name "${name}" may not contain . [ ] " \\ / or control characters`;
  }
  if (name.startsWith('$')) return `field name "${name}" may not start with $`;
  if (/^\d+$/.test(name)) return `field name "${name}" may not be only digits`;
  // JavaScript reads it as the object's prototype: set by assignment (a JSON parser's copy, a
  // path write) the value would vanish, or change what the object inherits.
  if (name === '__proto__') return 'field name "__proto__" is reserved';
  return null;
}

export type ParsedFieldPath =
  { ok: true; segments: FieldPathSegment[] } | { ok: false; reason: string };

const SEGMENT = /^(?:\.([^.[\]]+)|\[(\d{1,6})\])/;

/**
 * `vendor.name` → ['vendor', 'name']; `items[2].price` → ['items', 2, 'price']. The first
 * segment is always a name: the fields are an object.
 */
export function parseFieldPath(path: string): ParsedFieldPath {
  const fail = (reason: string): ParsedFieldPath => ({
    ok: false,
    reason: `Invalid path "${path}": ${reason}. Write paths like "vendor.name" or "items[2].price".`,
  });
  if (path.length === 0) return fail('it is empty');
  if (path.length > FIELD_PATH_LIMITS.pathLength) return fail('it is too long');
  const first = /^[^.[\]]+/.exec(path);
  if (!first) return fail('it must start with a field name');
  const segments: FieldPathSegment[] = [first[0]];
  let rest = path.slice(first[0].length);
  while (rest.length > 0) {
    const match = SEGMENT.exec(rest);
    if (!match) return fail(`cannot read "${rest}"`);
    segments.push(match[1] !== undefined ? match[1] : Number(match[2]));
    rest = rest.slice(match[0].length);
  }
  if (segments.length > FIELD_PATH_LIMITS.depth) {
    return fail(`it is deeper than ${FIELD_PATH_LIMITS.depth} levels`);
  }
  for (const segment of segments) {
    if (typeof segment !== 'string') continue;
    const problem = fieldNameProblem(segment);
    if (problem) return fail(problem);
  }
  return { ok: true, segments };
}

/** The inverse of parseFieldPath: ['items', 2, 'price'] → `items[2].price`. */
export function formatFieldPath(segments: readonly FieldPathSegment[]): string {
  return segments
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join('');
}

/** A path as the wire carries it: checked here, so a route answers 400 for a bad one. */
export const FieldPath = z
  .string()
  .superRefine((path, ctx) => {
    const parsed = parseFieldPath(path);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
  })
  .meta({ description: 'A path into the fields: "vendor.name", "items[2].price".' });
