import type { WebSearch } from './port';

/** Used when no search provider is configured: never fails, never finds anything. */
export function createDisabledWebSearch(): WebSearch {
  return { enabled: false, search: () => Promise.resolve({ results: [] }) };
}
