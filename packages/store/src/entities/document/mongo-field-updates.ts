// The MongoDB updates behind a path write of a document extraction: a filter (the record, its
// owner, and the guard that the path can take the write) and one update of one document, so a
// change and its history entry are a single atomic write. Pure, so a unit test can apply them
// to documents in memory (mingo) — no MongoDB server runs on our machines.
//
// - set a key under an object, or replace an array element: `$set` on the dotted path;
// - append at index = length: `$push` on the array, guarded by `$size`;
// - remove a key: `$unset` on the path;
// - remove an array element: `$unset` would leave a null in its place, so that one is an update
//   pipeline that rebuilds the array around the element ($slice + $concatArrays), reaching it
//   through $getField/$setField and $map over the containers on the way (dotted paths in a
//   pipeline would map over arrays instead of indexing them).
import type { FieldPathSegment } from '@tandem/contracts';
import { assertFieldPath, mongoPath, splitParent } from '../../field-paths';
import type { ExtractionWriteDoc } from './mongo-schema';
import type { Filter, UpdateSpec } from '../../mongo/queries/spec';

/** A path write: one update of the extraction's document. */
export type PathUpdate = UpdateSpec;

const FIELDS = 'fields';
const CONFIDENCES = 'confidences';

/**
 * The updates that set `value` at `path` (and `confidence` at the same path), in the order to
 * try them: an array index may be an element to replace or the end to append at, and only the
 * stored array says which, so both guarded updates are offered and at most one can match.
 */
export function setFieldUpdates(
  key: Filter,
  path: FieldPathSegment[],
  value: unknown,
  confidence: unknown,
  entry: ExtractionWriteDoc,
  now: Date,
): PathUpdate[] {
  assertFieldPath(path);
  const { parent, last } = splitParent(path);
  const set = {
    [mongoPath(FIELDS, path)]: value,
    [mongoPath(CONFIDENCES, path)]: confidence,
    updatedAt: now,
  };
  if (typeof last === 'string') {
    return [
      {
        filter: { ...key, [mongoPath(FIELDS, parent)]: { $type: 'object' } },
        update: { $set: set, $push: { writes: entry } },
      },
    ];
  }
  return [
    {
      filter: { ...key, [mongoPath(FIELDS, path)]: { $exists: true } },
      update: { $set: set, $push: { writes: entry } },
    },
    {
      filter: { ...key, [mongoPath(FIELDS, parent)]: { $size: last } },
      update: {
        $set: { updatedAt: now },
        $push: {
          [mongoPath(FIELDS, parent)]: value,
          [mongoPath(CONFIDENCES, parent)]: confidence,
          writes: entry,
        },
      },
    },
  ];
}

export function removeFieldUpdate(
  key: Filter,
  path: FieldPathSegment[],
  entry: ExtractionWriteDoc,
  now: Date,
): PathUpdate {
  assertFieldPath(path);
  const filter = { ...key, [mongoPath(FIELDS, path)]: { $exists: true } };
  const { last } = splitParent(path);
  if (typeof last === 'string') {
    return {
      filter,
      update: {
        $unset: { [mongoPath(FIELDS, path)]: '', [mongoPath(CONFIDENCES, path)]: '' },
        $set: { updatedAt: now },
        $push: { writes: entry },
      },
    };
  }
  return {
    filter,
    update: [
      {
        $set: {
          [FIELDS]: withoutElement(`$${FIELDS}`, path, 0),
          [CONFIDENCES]: withoutElement(`$${CONFIDENCES}`, path, 0),
          updatedAt: { $literal: now },
          writes: { $concatArrays: [{ $ifNull: ['$writes', []] }, [{ $literal: entry }]] },
        },
      },
    ],
  };
}

/**
 * An aggregation expression for `container` with the element at `path` (its last segment an
 * index) removed, every other value unchanged.
 */
function withoutElement(container: unknown, path: FieldPathSegment[], level: number): unknown {
  const [head, ...rest] = path;
  if (head === undefined) throw new Error('field path: empty');
  if (rest.length === 0) {
    if (typeof head !== 'number') throw new Error('field path: expected an array index');
    const after = {
      $slice: [container, head + 1, { $max: [1, { $subtract: [{ $size: container }, head + 1] }] }],
    };
    return head === 0 ? after : { $concatArrays: [{ $slice: [container, head] }, after] };
  }
  if (typeof head === 'string') {
    const child = { $getField: { field: head, input: container } };
    return {
      $setField: { field: head, input: container, value: withoutElement(child, rest, level + 1) },
    };
  }
  const index = `i${level}`;
  const element = { $arrayElemAt: [container, `$$${index}`] };
  return {
    $map: {
      input: { $range: [0, { $size: container }] },
      as: index,
      in: {
        $cond: [
          { $eq: [`$$${index}`, head] },
          withoutElement({ $arrayElemAt: [container, head] }, rest, level + 1),
          element,
        ],
      },
    },
  };
}
