// Test support: the adapter's query documents (spec.ts) evaluated by mingo, a maintained
// engine of the MongoDB query language, over documents of the stored shape. Filters, update
// operators, aggregation-pipeline updates and pipelines are mingo's; only what a server does
// around them is modelled here, following MongoDB's documented rules: a findOneAndUpdate picks
// the first match in `sort` order, and an upsert that matches nothing inserts the filter's
// equality fields with the update applied ($setOnInsert only then). Every inserted document
// gets an increasing `_id`, as ObjectIds are in insertion order.
import { aggregate, find, updateMany, updateOne } from 'mingo';
import type { Filter, FindSpec, Pipeline, SortSpec, UpdateSpec } from './spec';

type Doc = Record<string, unknown>;
type Modifier = Parameters<typeof updateOne>[2];

const isOperatorObject = (value: unknown): boolean =>
  value !== null &&
  typeof value === 'object' &&
  !(value instanceof Date) &&
  !Array.isArray(value) &&
  Object.keys(value).some((key) => key.startsWith('$'));

/** The fields an upsert's insert starts from: the filter's top-level equalities. */
function equalities(filter: Filter): Doc {
  const doc: Doc = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key.startsWith('$') || isOperatorObject(value)) continue;
    // A dotted path ('failedState.action') is a nested field of the inserted document.
    const path = key.split('.');
    let target = doc;
    for (const part of path.slice(0, -1)) {
      target[part] ??= {};
      target = target[part] as Doc;
    }
    target[path[path.length - 1] as string] = value;
  }
  return doc;
}

export class MingoCollection<T extends object = Doc> {
  readonly docs: T[] = [];
  #nextId = 1;

  constructor(docs: readonly T[] = []) {
    for (const doc of docs) this.insert(doc);
  }

  insert(doc: T): T {
    const stored = { _id: this.#nextId++, ...structuredClone(doc) } as T;
    this.docs.push(stored);
    return stored;
  }

  find(spec: FindSpec): T[] {
    const cursor = find<T>(this.docs as Doc[], spec.filter, spec.projection as never);
    if (spec.sort) cursor.sort(spec.sort as Record<string, 1 | -1>);
    if (spec.limit !== undefined) cursor.limit(spec.limit);
    return cursor.all();
  }

  findOne(spec: FindSpec): T | null {
    return this.find({ ...spec, limit: 1 })[0] ?? null;
  }

  count(filter: Filter): number {
    return this.find({ filter }).length;
  }

  /** findOneAndUpdate with returnDocument 'after': the updated (or inserted) document. */
  findOneAndUpdate(spec: UpdateSpec): T | null {
    const { onUpdate, onInsert } = this.#split(spec.update);
    const result = updateOne(this.docs as Doc[], spec.filter, onUpdate, {
      ...(spec.sort ? { sort: spec.sort as Record<string, 1 | -1> } : {}),
      cloneMode: 'deep',
    });
    if (result.matchedCount > 0) return this.docs[result.modifiedIndex ?? -1] ?? this.#first(spec);
    if (!spec.upsert) return null;
    // A pipeline update replaces the document in its array rather than changing it in place.
    const fresh = [{ _id: this.#nextId++, ...equalities(spec.filter) }];
    updateOne(fresh, {}, onInsert, { cloneMode: 'deep' });
    const inserted = fresh[0] as unknown as T;
    this.docs.push(inserted);
    return inserted;
  }

  updateMany(spec: UpdateSpec): { matchedCount: number; modifiedCount: number } {
    return updateMany(this.docs as Doc[], spec.filter, this.#split(spec.update).onUpdate, {
      cloneMode: 'deep',
    });
  }

  deleteMany(filter: Filter): number {
    const doomed = new Set(this.find({ filter }));
    const before = this.docs.length;
    this.docs.splice(0, this.docs.length, ...this.docs.filter((doc) => !doomed.has(doc)));
    return before - this.docs.length;
  }

  aggregate<R = Doc>(pipeline: Pipeline): R[] {
    return aggregate(this.docs as Doc[], pipeline as unknown as Doc[]) as R[];
  }

  #first(spec: UpdateSpec): T | null {
    return this.findOne({ filter: spec.filter, ...(spec.sort ? { sort: spec.sort } : {}) });
  }

  /** $setOnInsert applies only to an insert (mingo, like a plain update, has no such operator). */
  #split(update: UpdateSpec['update']): { onUpdate: Modifier; onInsert: Modifier } {
    if (Array.isArray(update))
      return { onUpdate: update as Modifier, onInsert: update as Modifier };
    const { $setOnInsert, ...rest } = update as Doc & { $setOnInsert?: Doc; $set?: Doc };
    const onInsert = { ...rest, $set: { ...rest.$set, ...$setOnInsert } } as Modifier;
    return { onUpdate: rest as Modifier, onInsert };
  }
}

export type { SortSpec };
