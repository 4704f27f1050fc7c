// JSON values as the extractor handles them: a schema, a model's answer, merged data.
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A key's own value. Keys come from input (a schema's property names, a model's answer), and
 * `data["constructor"]` on an object without one is Object.prototype's function: a schema with a
 * property named `constructor`, `toString` or `valueOf` once turned a right answer into a 502.
 */
export const ownValue = (object: JsonObject, key: string): unknown =>
  Object.hasOwn(object, key) ? object[key] : undefined;

/** Sets `key` as the object's own property: plain assignment of `__proto__` sets its prototype. */
export function setOwn(object: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
