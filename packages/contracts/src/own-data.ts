// Untrusted JSON as a validator should read it. zod 4 reads an object's optional properties as
// `input[key]`, so on an answer without a `constructor` (or `toString`, `valueOf`…) field it
// reads Object.prototype's function and fails "expected object, received function": a schema
// whose property names are Object.prototype's rejected a right answer. Copies with no
// prototype have only their own keys.

/** A deep copy of a JSON value whose objects have no prototype (only their own keys). */
export function ownData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ownData);
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, entry] of Object.entries(value)) copy[key] = ownData(entry);
  return copy;
}
