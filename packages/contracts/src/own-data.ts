// Untrusted JSON as a validator should read it. zod 4 reads an object's optional properties as
// `input[key]`, so on an answer without a `constructor` (or `toString`, `valueOf`…) field it
// reads Object.prototype's function and fails "expected object, received function": a schema
// whose property names are Object.prototype's rejected a right answer. Copies with no
// prototype have only their own keys.
//
// Two shapes of parsed JSON a validator cannot read safely, checked before any copy:
//  - a "__proto__" key: JSON.parse keeps it as data, but zod's copy of a record assigns each
//    key, and assigning "__proto__" sets the copy's prototype, so the value vanishes from what is
//    stored while the caller is told it was read (and the copy inherits its fields);
//  - nesting past a bound: every deep copy and depth count here recurses, and an answer of a
//    few thousand brackets (a model echoing a hostile page can write one) overflows the stack.

/** The nesting any model answer or tool argument may have: STRUCTURED_MAX_DEPTH's default. */
export const ANSWER_MAX_DEPTH = 64;

const MAX_PATH_CHARS = 200;

/**
 * Why a parsed JSON value cannot be read as data (a "__proto__" key, or nesting past
 * `maxDepth`, with where), or null. Walked without recursion, so any depth is safe to ask.
 */
export function jsonDataProblem(value: unknown, maxDepth = ANSWER_MAX_DEPTH): string | null {
  const stack: [unknown, string, number][] = [[value, '', 0]];
  while (stack.length > 0) {
    const [item, path, depth] = stack.pop() as [unknown, string, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth >= maxDepth) {
      const at = path === '' ? '' : ` (at ${path.slice(0, MAX_PATH_CHARS)})`;
      return `The JSON is nested deeper than ${maxDepth} levels${at}.`;
    }
    if (Array.isArray(item)) {
      item.forEach((entry, i) => stack.push([entry, `${path}[${i}]`, depth + 1]));
      continue;
    }
    for (const key of Object.keys(item)) {
      const keyPath = path === '' ? key : `${path}.${key}`;
      if (key === '__proto__') {
        return `"__proto__" may not be a key (at ${keyPath.slice(0, MAX_PATH_CHARS)}); name it otherwise.`;
      }
      stack.push([(item as Record<string, unknown>)[key], keyPath, depth + 1]);
    }
  }
  return null;
}

/**
 * A deep copy of a JSON value whose objects have no prototype (only their own keys). Recursive:
 * call it on what `jsonDataProblem` passed or on data built within a bound.
 */
export function ownData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ownData);
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, entry] of Object.entries(value)) copy[key] = ownData(entry);
  return copy;
}
