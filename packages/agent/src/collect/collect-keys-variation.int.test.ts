// Keys a model makes up, against the real libSQL store: lists read page by page where the model
// keys each card by the id the page shows, by its position on the page, by the page's own URL,
// by title@company, or not at all, with cards repeated across pages (a repeat may carry a
// suffix, "(reposted)"). Whatever the key, no item is dropped without a word: a skipped
// duplicate is a repeat of the item stored under its key, and an item neither stored nor a
// repeat was refused as a conflict, which the model reads.
import { createLibsqlStore, type Store } from '@tandem/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectService } from './collect-service';

let store: Store;
beforeAll(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
});
afterAll(async () => {
  await store.close();
});

type Keying = 'shown id' | 'position' | 'page url' | 'title@company' | 'none';

/** One list: how the model keys its cards, and the pages as windows onto the items. */
const listArb = fc.record({
  keying: fc.constantFrom<Keying>('shown id', 'position', 'page url', 'title@company', 'none'),
  items: fc.integer({ min: 1, max: 12 }),
  pages: fc.array(
    fc.record({ start: fc.nat(11), size: fc.integer({ min: 1, max: 6 }), repostedAt: fc.nat(6) }),
    { minLength: 1, maxLength: 5 },
  ),
});

// Names no other contains ("#1" is within "#12"; "«#1»" is not within "«#12»").
const title = (i: number) => `«Role #${i}»`;

function card(keying: Keying, item: number, position: number, page: string, reposted: boolean) {
  const data: Record<string, unknown> = {
    title: reposted ? `${title(item)} (reposted)` : title(item),
    company: 'Acme',
  };
  if (keying === 'shown id') data.jobId = `J-${item}`;
  if (keying === 'position') data.id = String(position + 1);
  if (keying === 'page url') data.url = page;
  if (keying === 'none') delete data.company;
  return data;
}

describe('collect under made-up keys', () => {
  it('drops no item without a word, however the model keys its cards', async () => {
    await fc.assert(
      fc.asyncProperty(listArb, async ({ keying, items, pages }) => {
        const tenant = await store.tenants.create({ name: `keys-${Math.random()}` });
        const task = await store.tasks.create(tenant.id, {
          userId: 'user-1',
          url: 'http://127.0.0.1/jobs/',
          query: 'Collect the jobs',
          collectLimit: null,
        });
        const service = new CollectService(store);
        const storedUnder = new Map<string, number>();
        const offered = new Set<number>();
        const accounted = new Set<number>();
        for (const [n, window] of pages.entries()) {
          const url = `http://127.0.0.1/jobs/?page=${n + 1}`;
          const shown = Array.from({ length: window.size }, (_, i) => window.start + i).filter(
            (item) => item < items,
          );
          const result = await service.collectMany({
            tenantId: tenant.id,
            taskId: task.id,
            items: shown.map((item, i) => ({
              type: 'job',
              data: card(keying, item, i, url, i === window.repostedAt),
            })),
            sourceUrl: url,
            collectLimit: null,
          });
          result.outcomes.forEach((outcome, i) => {
            const item = shown[i] as number;
            offered.add(item);
            const label = `${keying}: item ${item} on page ${n + 1} (${outcome.status})`;
            if (outcome.status === 'collected') {
              accounted.add(item);
              if (outcome.key !== null) storedUnder.set(outcome.key, item);
            } else if (outcome.status === 'duplicate') {
              // A skipped duplicate is the item stored under its key, seen again.
              expect(storedUnder.get(outcome.key ?? ''), label).toBe(item);
            } else {
              expect(outcome.status, label).toBe('conflict');
              expect(result.message, label).toMatch(/refused \(key of another item\)/);
              accounted.add(item);
            }
          });
        }
        // Every item offered was stored, or refused in words at least once.
        expect([...offered].filter((item) => !accounted.has(item))).toEqual([]);
      }),
      { seed: 39, numRuns: 150 },
    );
  });
});
