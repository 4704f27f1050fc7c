// Extracted fields and their confidences, checked before any write (validate_extraction in
// the document-extraction agent spec in docs/specs.md). Pure: the tools run these on the current
// extraction and the model's arguments, and a failure becomes a tool error the model reads and
// fixes.
//
// Confidences are stored in the shape of the fields (a number where the fields hold a value),
// so a path write sets a value and its confidence at the same path. The model gives them flat,
// by path, and a confidence covers everything under its path unless a deeper one is given:
// `{ "vendor": 0.9, "items[1].price": 0.5, "total": 0.99 }`.
import {
  fieldNameProblem,
  ownData,
  formatFieldPath,
  parseFieldPath,
  FIELD_PATH_LIMITS,
  type FieldPathSegment,
} from '@tandem/contracts';
import type { z } from 'zod';
import { isJsonObject as isObject } from '@tandem/extraction';

/** Fields as JSON, at most this long: a document's data, not a copy of the document. */
export const MAX_FIELDS_JSON_CHARS = 200_000;

/** Below this a confidence is "low": the page highlights it, the summary names it. */
export const LOW_CONFIDENCE = 0.8;

type Json = Record<string, unknown>;

/** Problems with the fields themselves (names, types, size); empty when they can be stored. */
export function fieldProblems(fields: unknown): string[] {
  if (!isObject(fields)) return ['fields must be a JSON object of field names to values'];
  const problems: string[] = [];
  const visit = (value: unknown, path: FieldPathSegment[]): void => {
    if (problems.length >= 10) return;
    const at = path.length > 0 ? formatFieldPath(path) : '(fields)';
    if (path.length > FIELD_PATH_LIMITS.depth) {
      problems.push(`${at} is nested deeper than ${FIELD_PATH_LIMITS.depth} levels`);
      return;
    }
    if (value === null || typeof value === 'boolean') return;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) problems.push(`${at} is not a finite number`);
      return;
    }
    if (typeof value === 'string') {
      if (value.trim() === '') {
        problems.push(`${at} is an empty string: leave out what the document does not say`);
      }
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, [...path, index]));
      return;
    }
    if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        const problem = fieldNameProblem(key);
        if (problem) problems.push(path.length > 0 ? `${at}: ${problem}` : problem);
        else visit(child, [...path, key]);
      }
      return;
    }
    problems.push(`${at} is not a JSON value`);
  };
  visit(fields, []);
  if (problems.length === 0 && JSON.stringify(fields).length > MAX_FIELDS_JSON_CHARS) {
    problems.push(`the fields are longer than ${MAX_FIELDS_JSON_CHARS} characters of JSON`);
  }
  return problems;
}

export function confidenceProblem(value: unknown, where: string): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return `the confidence of ${where} must be a number between 0 and 1`;
  }
  if (value < 0 || value > 1) {
    return `the confidence of ${where} is ${value}; confidences are between 0 and 1`;
  }
  return null;
}

/** The confidences tree for `value`: the same shape, `confidence` at every value. */
export function shapeConfidence(value: unknown, confidence: number): unknown {
  if (Array.isArray(value)) return value.map((item) => shapeConfidence(item, confidence));
  if (isObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, shapeConfidence(child, confidence)]),
    );
  }
  return confidence;
}

/**
 * The stored confidences for `fields` from the model's flat map, or what is wrong with it: a
 * path the fields do not have, a value out of 0..1, or a value no given path covers.
 */
export function confidenceTree(
  fields: Json,
  flat: Record<string, unknown>,
): { ok: true; tree: Json } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const given = new Map<string, number>();
  for (const [path, value] of Object.entries(flat)) {
    const parsed = parseFieldPath(path);
    if (!parsed.ok) {
      problems.push(parsed.reason);
      continue;
    }
    const problem = confidenceProblem(value, path);
    if (problem) {
      problems.push(problem);
      continue;
    }
    if (!valueAt(fields, parsed.segments).found) {
      problems.push(`confidences name ${path}, which is not in the fields`);
      continue;
    }
    given.set(formatFieldPath(parsed.segments), value as number);
  }
  const missing: string[] = [];
  const build = (value: unknown, path: FieldPathSegment[], inherited: number | null): unknown => {
    const own = path.length > 0 ? given.get(formatFieldPath(path)) : undefined;
    const confidence = own ?? inherited;
    if (Array.isArray(value)) return value.map((item, i) => build(item, [...path, i], confidence));
    if (isObject(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([key, child]) => [
          key,
          build(child, [...path, key], confidence),
        ]),
      );
    }
    if (confidence === null) {
      missing.push(formatFieldPath(path));
      return 0;
    }
    return confidence;
  };
  const tree = build(fields, [], null) as Json;
  if (missing.length > 0) {
    const shown = missing.slice(0, 8).join(', ');
    problems.push(
      `no confidence covers ${shown}${missing.length > 8 ? ` and ${missing.length - 8} more` : ''}: give one per field (a confidence for "items" covers every item)`,
    );
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, tree };
}

/** Every value's confidence by path (`items[1].price` → 0.5), as the model and the page read them. */
export function flattenConfidences(tree: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  const visit = (value: unknown, path: FieldPathSegment[]): void => {
    if (typeof value === 'number' && path.length > 0) out[formatFieldPath(path)] = value;
    else if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i]));
    else if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) visit(child, [...path, key]);
    }
  };
  visit(tree, []);
  return out;
}

export function valueAt(
  root: unknown,
  path: readonly FieldPathSegment[],
): { found: true; value: unknown } | { found: false } {
  let current: unknown = root;
  for (const segment of path) {
    if (typeof segment === 'number') {
      if (!Array.isArray(current) || segment >= current.length) return { found: false };
      current = current[segment];
    } else {
      if (!isObject(current) || !Object.hasOwn(current, segment)) return { found: false };
      current = current[segment];
    }
  }
  return { found: true, value: current };
}

const describeType = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/**
 * Whether `path` can be set in `fields` (the store's rule: the parent exists; an object takes
 * any key, a list an index up to its length), and `fields` with it set.
 */
export function withFieldSet(
  fields: Json,
  path: readonly FieldPathSegment[],
  value: unknown,
): { ok: true; fields: Json } | { ok: false; problem: string } {
  const parentPath = path.slice(0, -1);
  const last = path[path.length - 1];
  const parent = valueAt(fields, parentPath);
  const parentName = parentPath.length > 0 ? formatFieldPath(parentPath) : 'the fields';
  if (last === undefined || !parent.found) {
    return {
      ok: false,
      problem: `${parentName} does not exist; set the whole ${parentName} instead, or check the path with get_current_extraction`,
    };
  }
  if (typeof last === 'number') {
    if (!Array.isArray(parent.value)) {
      return { ok: false, problem: `${parentName} is ${describeType(parent.value)}, not a list` };
    }
    if (last > parent.value.length) {
      return {
        ok: false,
        problem: `${parentName} has ${parent.value.length} items; use an index up to ${parent.value.length} (that one appends)`,
      };
    }
  } else if (!isObject(parent.value)) {
    return { ok: false, problem: `${parentName} is ${describeType(parent.value)}, not an object` };
  }
  const next = structuredClone(fields);
  const container = valueAt(next, parentPath) as { found: true; value: Json | unknown[] };
  (container.value as Record<string | number, unknown>)[last] = structuredClone(value);
  return { ok: true, fields: next };
}

/** `fields` without the value at `path` (a list's later items move up), or why it cannot be. */
export function withFieldRemoved(
  fields: Json,
  path: readonly FieldPathSegment[],
): { ok: true; fields: Json } | { ok: false; problem: string } {
  if (!valueAt(fields, path).found) {
    return {
      ok: false,
      problem: `${formatFieldPath(path)} is not in the fields; read them with get_current_extraction`,
    };
  }
  const next = structuredClone(fields);
  const parent = valueAt(next, path.slice(0, -1)) as { found: true; value: unknown };
  const last = path[path.length - 1] as FieldPathSegment;
  if (Array.isArray(parent.value)) {
    parent.value.splice(last as number, 1);
    return { ok: true, fields: next };
  }
  const container = parent.value as Json;
  const kept = Object.fromEntries(Object.entries(container).filter(([key]) => key !== last));
  if (path.length === 1) return { ok: true, fields: kept };
  const grand = valueAt(next, path.slice(0, -2)) as { found: true; value: unknown };
  (grand.value as Record<string | number, unknown>)[path[path.length - 2] as string | number] =
    kept;
  return { ok: true, fields: next };
}

/** Where the fields break the user's schema, one line per issue; empty when they match. */
export function schemaProblems(fields: Json, schema: z.ZodType | null): string[] {
  if (schema === null) return [];
  const result = schema.safeParse(ownData(fields));
  if (result.success) return [];
  return result.error.issues
    .slice(0, 10)
    .map(
      (issue) =>
        `${issue.path.length > 0 ? formatFieldPath(issue.path as FieldPathSegment[]) : '(fields)'}: ${issue.message}`,
    );
}

/** Paths whose confidence is below LOW_CONFIDENCE. */
export function lowConfidencePaths(tree: unknown): string[] {
  return Object.entries(flattenConfidences(tree))
    .filter(([, c]) => c < LOW_CONFIDENCE)
    .map(([path]) => path);
}

export const countValues = (fields: unknown): number =>
  Object.keys(flattenConfidences(shapeConfidence(fields, 1))).length;
