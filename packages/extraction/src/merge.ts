// Merging chunk answers (docs/specs.md, "the extraction sub-agent") and page results ("error
// recovery and aggregation"): arrays are concatenated and deduplicated by exact field match,
// objects deep-merged with later scalars winning, text joined with `---` and each chunk's
// structural context as its header.
import { canonicalJson } from './schema';
import { isJsonObject as isObject, ownValue, setOwn, type JsonObject as Json } from './json';

/** Items in first-seen order, each distinct item once (exact match on every field). */
export function dedupe(items: readonly unknown[]): { items: unknown[]; duplicates: number } {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const item of items) {
    const key = canonicalJson(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return { items: out, duplicates: items.length - out.length };
}

/** Later values win for scalars; nested objects merge; arrays concatenate without duplicates. */
export function deepMerge(earlier: unknown, later: unknown): unknown {
  if (later === undefined || later === null) return earlier ?? later;
  if (isObject(earlier) && isObject(later)) {
    const out: Json = { ...earlier };
    for (const [key, value] of Object.entries(later)) {
      setOwn(out, key, deepMerge(ownValue(earlier, key), value));
    }
    return out;
  }
  if (Array.isArray(earlier) && Array.isArray(later)) {
    return dedupe([...earlier, ...later]).items;
  }
  // A scalar that is empty in the later chunk does not erase what an earlier one found.
  if (later === '' && typeof earlier === 'string') return earlier;
  return later;
}

export interface ChunkData {
  data: unknown;
  /** The chunk's structural context, for text headers. */
  context: string;
}

export type MergeShape = 'array' | 'object' | 'text';

export function mergeChunkData(parts: readonly ChunkData[], shape: MergeShape): unknown {
  if (shape === 'array') {
    return dedupe(parts.flatMap((part) => (Array.isArray(part.data) ? part.data : []))).items;
  }
  if (shape === 'object') {
    return parts.reduce<unknown>((merged, part) => deepMerge(merged, part.data), {});
  }
  return parts
    .filter((part) => typeof part.data === 'string' && part.data.trim() !== '')
    .map((part) =>
      part.context ? `## ${part.context}\n\n${String(part.data)}` : String(part.data),
    )
    .join('\n\n---\n\n');
}

export const shapeOfData = (data: unknown): MergeShape =>
  Array.isArray(data) ? 'array' : isObject(data) ? 'object' : 'text';

/** Items in the data when it is a list; null otherwise. */
export const itemCount = (data: unknown): number | null =>
  Array.isArray(data) ? data.length : null;
