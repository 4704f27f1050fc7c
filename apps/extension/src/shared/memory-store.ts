// An in-memory KeyValueStore for unit tests. It clones on the way in and out, as
// chrome.storage.local serialises, so a test cannot pass by sharing an object with the code.
import type { KeyValueStore } from './settings';

export function memoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: async (key) =>
      key === null
        ? structuredClone(Object.fromEntries(data))
        : data.has(key)
          ? { [key]: structuredClone(data.get(key)) }
          : {},
    set: async (items) => {
      for (const [k, v] of Object.entries(items)) data.set(k, structuredClone(v));
    },
    remove: async (key) => {
      for (const k of Array.isArray(key) ? key : [key]) data.delete(k);
    },
  };
}
