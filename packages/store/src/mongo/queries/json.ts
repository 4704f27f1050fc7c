// JSON-ish values as both adapters store them.

/**
 * JSON-ish values are stored as their JSON form, exactly like the libSQL adapter's TEXT
 * columns: undefined keys vanish (the driver would write them as null), and both adapters hand
 * back the same thing for the same input. `undefined` itself becomes null.
 */
export function jsonValue(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}
