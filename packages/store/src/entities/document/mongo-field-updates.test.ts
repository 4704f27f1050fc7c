// The Mongo adapter's path writes, evaluated by mingo on stored-shape extraction documents. The
// expectations are the contract's (testing/contract/documents.ts), which the libSQL adapter passes.
import { describe, expect, it } from 'vitest';
import { removeFieldUpdate, setFieldUpdates, type PathUpdate } from './mongo-field-updates';
import { MingoCollection } from '../../mongo/queries/mingo-collection';

const KEY = { tenantId: 't1', id: 'x1', userId: 'u1' };
const NOW = new Date('2026-01-02T03:04:05.000Z');
const ENTRY = { tool: 'update_field', input: '{}', createdAt: NOW };

function extraction(fields: Record<string, unknown>, confidences: Record<string, unknown>) {
  return { ...KEY, fields, confidences, writes: [] as unknown[], updatedAt: new Date(0) };
}

type Doc = ReturnType<typeof extraction>;

/** What the repository does: the first update whose filter matches is applied, or none. */
function applyFirst(doc: Doc, updates: PathUpdate[]): Doc | null {
  const collection = new MingoCollection<Doc>([doc]);
  for (const update of updates) {
    const done = collection.findOneAndUpdate(update);
    if (done) return done;
  }
  return null;
}

const INVOICE = () =>
  extraction(
    {
      vendor: { name: 'Acme', address: 'Main St 1' },
      items: [
        { name: 'Bolt', price: 2 },
        { name: 'Nut', price: 1 },
        { name: 'Gear', price: 9 },
      ],
      total: 1204.5,
      note: null,
    },
    {
      vendor: { name: 0.9, address: 0.8 },
      items: [
        { name: 0.9, price: 0.9 },
        { name: 0.9, price: 0.7 },
        { name: 0.9, price: 0.6 },
      ],
      total: 0.95,
      note: 0.5,
    },
  );

const set = (doc: Doc, path: (string | number)[], value: unknown, confidence: unknown, key = KEY) =>
  applyFirst(doc, setFieldUpdates(key, path, value, confidence, ENTRY, NOW));
const remove = (doc: Doc, path: (string | number)[], key = KEY) =>
  applyFirst(doc, [removeFieldUpdate(key, path, ENTRY, NOW)]);

describe('Mongo path updates', () => {
  it('sets a nested key and its confidence, and appends the history entry', () => {
    const done = set(INVOICE(), ['vendor', 'name'], 'Acme Supplies Ltd', 1);
    expect(done?.fields.vendor).toEqual({ name: 'Acme Supplies Ltd', address: 'Main St 1' });
    expect(done?.confidences.vendor).toEqual({ name: 1, address: 0.8 });
    expect(done?.fields.items).toEqual(INVOICE().fields.items);
    expect(done?.writes).toEqual([ENTRY]);
    expect(done?.updatedAt).toEqual(NOW);
  });

  it('replaces an array element, and appends at index = length', () => {
    const priced = set(INVOICE(), ['items', 1, 'price'], 1.25, 0.99);
    expect((priced?.fields.items as unknown[])[1]).toEqual({ name: 'Nut', price: 1.25 });
    expect((priced?.confidences.items as unknown[])[1]).toEqual({ name: 0.9, price: 0.99 });
    const replaced = set(INVOICE(), ['items', 0], { name: 'Bolt M6' }, { name: 0.8 });
    expect((replaced?.fields.items as unknown[])[0]).toEqual({ name: 'Bolt M6' });
    const appended = set(INVOICE(), ['items', 3], { name: 'Washer' }, { name: 0.7 });
    expect(appended?.fields.items).toHaveLength(4);
    expect((appended?.confidences.items as unknown[])[3]).toEqual({ name: 0.7 });
    expect(appended?.writes).toEqual([ENTRY]);
  });

  it('refuses a missing parent, a gap after the array end, a scalar parent and another owner', () => {
    expect(set(INVOICE(), ['buyer', 'name'], 1, 1)).toBeNull();
    expect(set(INVOICE(), ['items', 5], 1, 1)).toBeNull();
    expect(set(INVOICE(), ['total', 'cents'], 1, 1)).toBeNull();
    expect(set(INVOICE(), ['total'], 1, 1, { ...KEY, userId: 'u2' })).toBeNull();
    expect(set(INVOICE(), ['total'], 1, 1, { ...KEY, tenantId: 't2' })).toBeNull();
  });

  it('removes a key with its confidence', () => {
    const done = remove(INVOICE(), ['vendor', 'address']);
    expect(done?.fields.vendor).toEqual({ name: 'Acme' });
    expect(done?.confidences.vendor).toEqual({ name: 0.9 });
    expect(done?.writes).toEqual([ENTRY]);
    expect(remove(INVOICE(), ['missing'])).toBeNull();
  });

  it('removes an array element and moves the rest up (a pipeline, no null left behind)', () => {
    const middle = remove(INVOICE(), ['items', 1]);
    expect(middle?.fields.items).toEqual([
      { name: 'Bolt', price: 2 },
      { name: 'Gear', price: 9 },
    ]);
    expect(middle?.confidences.items).toEqual([
      { name: 0.9, price: 0.9 },
      { name: 0.9, price: 0.6 },
    ]);
    expect(middle?.fields.vendor).toEqual({ name: 'Acme', address: 'Main St 1' });
    expect(middle?.writes).toEqual([ENTRY]);
    expect(remove(INVOICE(), ['items', 0])?.fields.items).toEqual([
      { name: 'Nut', price: 1 },
      { name: 'Gear', price: 9 },
    ]);
    expect(remove(INVOICE(), ['items', 2])?.fields.items).toEqual([
      { name: 'Bolt', price: 2 },
      { name: 'Nut', price: 1 },
    ]);
    expect(remove(INVOICE(), ['items', 3])).toBeNull();
  });

  it('removes an element of an array inside an array element', () => {
    const doc = extraction(
      { groups: [{ tags: ['a'] }, { tags: ['b', 'c', 'd'], label: 'x' }] },
      { groups: [{ tags: [0.1] }, { tags: [0.2, 0.3, 0.4], label: 0.5 }] },
    );
    const done = remove(doc, ['groups', 1, 'tags', 1]);
    expect(done?.fields).toEqual({ groups: [{ tags: ['a'] }, { tags: ['b', 'd'], label: 'x' }] });
    expect(done?.confidences).toEqual({
      groups: [{ tags: [0.1] }, { tags: [0.2, 0.4], label: 0.5 }],
    });
  });
});
