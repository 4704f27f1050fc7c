// Field paths (contracts' `items[2].price`, parsed into segments) as each adapter addresses
// them: a libSQL JSON path for json_set/json_remove, a dotted Mongo path for $set/$unset.
// Names were checked by the contracts' rule (no `.`, `"`, `[`, `]`, no leading `$`, not all
// digits), which is what makes both spellings unambiguous; the check is repeated here because
// a path that slipped through would address the wrong value.
import { fieldNameProblem, type FieldPathSegment } from '@tandem/contracts';

export function assertFieldPath(segments: readonly FieldPathSegment[]): void {
  if (segments.length === 0) throw new Error('field path: empty');
  if (typeof segments[0] !== 'string') throw new Error('field path: must start with a name');
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Number.isSafeInteger(segment) || segment < 0) {
        throw new Error(`field path: bad index ${segment}`);
      }
      continue;
    }
    const problem = fieldNameProblem(segment);
    if (problem) throw new Error(`field path: ${problem}`);
  }
}

/** ['vendor', 'name'] → `$."vendor"."name"`; ['items', 2] → `$."items"[2]`; [] → `$`. */
export function sqlitePath(segments: readonly FieldPathSegment[]): string {
  return `$${segments.map((s) => (typeof s === 'number' ? `[${s}]` : `."${s}"`)).join('')}`;
}

/** ('fields', ['items', 2, 'price']) → `fields.items.2.price`. */
export function mongoPath(root: string, segments: readonly FieldPathSegment[]): string {
  return [root, ...segments.map(String)].join('.');
}

export function splitParent(segments: readonly FieldPathSegment[]): {
  parent: FieldPathSegment[];
  last: FieldPathSegment;
} {
  const last = segments[segments.length - 1];
  if (last === undefined) throw new Error('field path: empty');
  return { parent: segments.slice(0, -1), last };
}
