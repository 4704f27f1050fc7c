// CollectService against the real libSQL store: dedup across pages, the title@company
// fallback, collect limits, per-type counts, tenant isolation and live events.
import type { TaskEvent } from '@tandem/contracts';
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CollectService, isCollectError } from './collect-service';
import { TaskEventHub } from './event-hub';
import { collectedSummaryLine } from './summary';

let store: Store;
let hub: TaskEventHub;
let service: CollectService;

async function newTask(collectLimit: number | null = null) {
  const tenant = await store.tenants.create({
    name: `collect-${Math.random().toString(36).slice(2)}`,
  });
  const task = await store.tasks.create(tenant.id, {
    userId: 'user-1',
    url: 'http://127.0.0.1/jobs/',
    query: 'Collect the jobs',
    collectLimit,
  });
  return { tenantId: tenant.id, taskId: task.id };
}

const PAGE = (n: number) => `http://127.0.0.1/jobs/?page=${n}`;

beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  hub = new TaskEventHub();
  service = new CollectService(store, { events: hub });
});
afterEach(async () => {
  await store.close();
});

describe('CollectService.collect', () => {
  it('stores a job, then skips it when it shows up again on the next page', async () => {
    const task = await newTask();
    const job = { jobId: 'J-1007', title: 'Data Engineer', company: 'Northwind' };
    const first = await service.collect({ ...task, type: 'job', data: job, sourceUrl: PAGE(1) });
    expect(first).toMatchObject({
      status: 'collected',
      inserted: true,
      type: 'job',
      key: 'job:J-1007',
      message: 'Collected job #1',
    });
    const again = await service.collect({
      ...task,
      type: 'Job',
      data: { ...job, title: 'Data Engineer (reposted)' },
      sourceUrl: PAGE(2),
    });
    expect(again).toMatchObject({
      status: 'duplicate',
      inserted: false,
      key: 'job:J-1007',
      message: 'Duplicate job skipped (already collected: job:J-1007)',
    });
    // The duplicate answer points at the item stored first, from page 1.
    expect(again.item).toMatchObject({ seq: 1, sourceUrl: PAGE(1), data: job });
    const stored = await store.collectedItems.list(task.tenantId, task.taskId);
    expect(stored.map((i) => [i.uniqueKey, i.sourceUrl])).toStrictEqual([['job:J-1007', PAGE(1)]]);
  });

  // The unique-id rules (docs/specs.md, "Unique ID Inference"), row by row, through the store: the
  // second item shares only the key the row infers (every other field differs) and is skipped.
  it.each([
    [
      'job',
      'linkedinJobId',
      { linkedinJobId: '3901', url: 'https://j.example/a' },
      { linkedinJobId: 3901, url: 'https://j.example/b' },
      'linkedin:3901',
    ],
    ['job', 'jobId', { jobId: 'J-1', id: 1 }, { jobId: 'J-1', id: 2 }, 'job:J-1'],
    [
      'job',
      'id',
      { id: 77, url: 'https://j.example/a' },
      { id: '77', url: 'https://j.example/b' },
      '77',
    ],
    [
      'job',
      'url',
      { url: 'https://j.example/a', title: 'A' },
      { url: 'https://j.example/a', title: 'A, remote' },
      'https://j.example/a',
    ],
    [
      'job',
      'title@company',
      { title: 'Nurse', company: 'Riverside' },
      { title: 'NURSE', company: 'riverside', salary: '$1' },
      'nurse@riverside',
    ],
    ['product', 'id', { id: 'P-9', sku: 'S-1' }, { id: 'P-9', sku: 'S-2' }, 'P-9'],
    [
      'product',
      'sku',
      { sku: 'S-1', url: 'https://s.example/a' },
      { sku: 'S-1', url: 'https://s.example/b' },
      'sku:S-1',
    ],
    [
      'product',
      'url',
      { url: 'https://s.example/a', name: 'Lamp' },
      { url: 'https://s.example/a', name: 'Lamp 2' },
      'https://s.example/a',
    ],
    [
      'article',
      'id',
      { id: 5, url: 'https://n.example/a' },
      { id: 5, url: 'https://n.example/b' },
      '5',
    ],
    [
      'article',
      'url',
      { url: 'https://n.example/a', headline: 'A' },
      { url: 'https://n.example/a', headline: 'B' },
      'https://n.example/a',
    ],
  ] as const)(
    '%s by %s: the second item is skipped as a duplicate',
    async (type, _rule, a, b, key) => {
      const task = await newTask();
      const first = await service.collect({ ...task, type, data: a, sourceUrl: PAGE(1) });
      const second = await service.collect({ ...task, type, data: b, sourceUrl: PAGE(2) });
      expect(first).toMatchObject({ status: 'collected', key });
      expect(second).toMatchObject({
        status: 'duplicate',
        key,
        message: `Duplicate ${type} skipped (already collected: ${key})`,
      });
      const stored = await store.collectedItems.list(task.tenantId, task.taskId);
      expect(stored.map((i) => i.data)).toStrictEqual([a]);
    },
  );

  it('dedups a job without an id by title@company, whatever the case and spacing', async () => {
    const task = await newTask();
    const a = await service.collect({
      ...task,
      type: 'job',
      data: { title: 'Night Nurse', company: 'Riverside Clinic', location: 'Remote' },
    });
    const b = await service.collect({
      ...task,
      type: 'job',
      data: { title: ' night  nurse', company: 'RIVERSIDE CLINIC' },
    });
    expect(a.key).toBe('night nurse@riverside clinic');
    expect(b).toMatchObject({ status: 'duplicate', key: 'night nurse@riverside clinic' });
    const c = await service.collect({
      ...task,
      type: 'job',
      data: { title: 'Night Nurse', company: 'Lakeside Clinic' },
    });
    expect(c).toMatchObject({ status: 'collected', message: 'Collected job #2' });
  });

  it('refuses, and says so, an item whose key is already another item’s: a made-up id or URL', async () => {
    const task = await newTask();
    // A model that numbers the cards of each page from 1, and gives every card the page's URL.
    const page = (titles: string[], n: number) =>
      service.collectMany({
        ...task,
        items: titles.map((title, i) => ({
          type: 'job',
          data: { id: String(i + 1), title, company: 'Acme' },
        })),
        sourceUrl: PAGE(n),
      });
    await page(['Data Engineer', 'Night Nurse'], 1);
    const second = await page(['Line Cook', 'Night Nurse (reposted)'], 2);
    expect(second.outcomes.map((o) => o.status)).toStrictEqual(['conflict', 'duplicate']);
    expect(second.outcomes[0]?.message).toBe(
      "job not stored: its key 1 is already another job's (the names differ). Give each item the id or url the page shows for it, or leave those fields out.",
    );
    expect(second.message).toBe(
      'collect: 0 stored, 1 duplicate, 1 refused (key of another item) (2 in total)',
    );
    const byUrl = await service.collectMany({
      ...task,
      items: ['Oak chair', 'Pine desk'].map((name) => ({
        type: 'product',
        data: { name, url: PAGE(3) },
      })),
    });
    expect(byUrl.outcomes.map((o) => o.status)).toStrictEqual(['collected', 'conflict']);
    const stored = await store.collectedItems.list(task.tenantId, task.taskId);
    expect(stored.map((i) => i.data.title ?? i.data.name)).toStrictEqual([
      'Data Engineer',
      'Night Nurse',
      'Oak chair',
    ]);
  });

  it('allows duplicates when no key can be inferred (docs/specs.md, "Unique ID Inference"), and reports no key', async () => {
    const task = await newTask();
    const note = { text: 'Same note' };
    const one = await service.collect({ ...task, type: 'note', data: note });
    const two = await service.collect({ ...task, type: 'note', data: note });
    expect([one.status, two.status]).toStrictEqual(['collected', 'collected']);
    expect([one.key, two.key]).toStrictEqual([null, null]);
    expect(two.message).toBe('Collected note #2');
    expect(await service.counts(task.tenantId, task.taskId)).toStrictEqual({ note: 2 });
  });

  it('uses "default" for a missing type and counts per type', async () => {
    const task = await newTask();
    await service.collect({ ...task, data: { id: 1 } });
    await service.collect({ ...task, type: null, data: { id: 2 } });
    await service.collect({ ...task, type: 'product', data: { sku: 'S-1' } });
    await service.collect({ ...task, type: 'product', data: { sku: 'S-1', price: 3 } });
    expect(await service.counts(task.tenantId, task.taskId)).toStrictEqual({
      default: 2,
      product: 1,
    });
  });

  it('stops storing at the collect limit and shows progress against it', async () => {
    const task = await newTask(3);
    const messages: string[] = [];
    for (let n = 1; n <= 4; n++) {
      const outcome = await service.collect({ ...task, type: 'job', data: { jobId: n } });
      messages.push(outcome.message);
    }
    expect(messages).toStrictEqual([
      'Collected job #1 (1/3)',
      'Collected job #2 (2/3)',
      'Collected job #3 (3/3)',
      'Collect limit reached (3/3): job not stored. Finish the task.',
    ]);
    expect(await service.counts(task.tenantId, task.taskId)).toStrictEqual({ job: 3 });
  });

  it('refuses invalid input with messages that say what to fix', async () => {
    const task = await newTask();
    const refusal = async (input: { type?: unknown; data: unknown }) => {
      try {
        await service.collect({ ...task, ...input });
      } catch (error) {
        if (isCollectError(error)) return `${error.code}: ${error.message}`;
        throw error;
      }
      return 'accepted';
    };
    expect(await refusal({ type: 'job', data: ['a'] })).toMatch(/^INVALID_COLLECT: /);
    expect(await refusal({ type: 'job', data: {} })).toBe(
      'INVALID_COLLECT: data must have at least one field',
    );
    expect(await refusal({ type: '', data: { id: 1 } })).toMatch(/type must not be empty/);
    expect(await refusal({ type: 'job listings page', data: { id: 1 } })).toMatch(/single word/);
    expect(await refusal({ type: 'job', data: { description: 'x'.repeat(40_000) } })).toMatch(
      /bytes as JSON; at most 32,768/,
    );
    expect(await store.collectedItems.list(task.tenantId, task.taskId)).toStrictEqual([]);
  });

  it('keeps tenants apart: no collecting into, or counting, another tenant’s task', async () => {
    const mine = await newTask();
    const theirs = await newTask();
    await service.collect({ ...theirs, type: 'job', data: { jobId: 'J-1' } });
    let error: unknown;
    try {
      await service.collect({ tenantId: mine.tenantId, taskId: theirs.taskId, data: { id: 1 } });
    } catch (caught) {
      error = caught;
    }
    expect(isCollectError(error) && error.code).toBe('TASK_NOT_FOUND');
    expect(await service.counts(mine.tenantId, theirs.taskId)).toStrictEqual({});
    expect(await service.counts(theirs.tenantId, theirs.taskId)).toStrictEqual({ job: 1 });
    // The same key in another task (of another tenant) is not a duplicate.
    const own = await service.collect({ ...mine, type: 'job', data: { jobId: 'J-1' } });
    expect(own.status).toBe('collected');
  });

  it('announces stored items on the hub, never duplicates', async () => {
    const task = await newTask();
    const events: TaskEvent[] = [];
    hub.subscribe(task.tenantId, task.taskId, (e) => events.push(e));
    await service.collect({ ...task, type: 'job', data: { jobId: 'J-1', title: 'A' } });
    await service.collect({ ...task, type: 'job', data: { jobId: 'J-1', title: 'A' } });
    await service.collect({ ...task, type: 'job', data: { title: 'B', company: 'C' } });
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      event: 'collected',
      taskId: task.taskId,
      type: 'job',
      count: 2,
      item: { seq: 2, uniqueKey: 'b@c', data: { title: 'B', company: 'C' } },
    });
  });
});

describe('CollectService.collectMany', () => {
  it('stores a screenful across pages with one answer each, reporting every item', async () => {
    const task = await newTask(5);
    const page1 = await service.collectMany({
      ...task,
      sourceUrl: PAGE(1),
      items: [
        { type: 'job', data: { jobId: 'J-1', title: 'A', company: 'X' } },
        { type: 'job', data: { jobId: 'J-2', title: 'B', company: 'X' } },
        { type: 'job', data: { title: 'No id', company: 'Y' } },
      ],
    });
    expect(page1.outcomes.map((o) => o.message)).toStrictEqual([
      'Collected job #1 (1/5)',
      'Collected job #2 (2/5)',
      'Collected job #3 (3/5)',
    ]);
    expect(page1).toMatchObject({
      counts: { job: 3 },
      limitReached: false,
      message: 'collect: 3 stored (3/5 in total)',
    });

    const page2 = await service.collectMany({
      ...task,
      sourceUrl: PAGE(2),
      items: [
        { type: 'job', data: { jobId: 'J-2', title: 'B', company: 'X' } },
        { type: 'job', data: { title: 'no ID', company: 'y' } },
        { type: 'job', data: [] },
        { type: 'job', data: { jobId: 'J-3' } },
        { type: 'job', data: { jobId: 'J-4' } },
        { type: 'job', data: { jobId: 'J-5' } },
      ],
    });
    expect(page2.outcomes.map((o) => o.status)).toStrictEqual([
      'duplicate',
      'duplicate',
      'invalid',
      'collected',
      'collected',
      'limit_reached',
    ]);
    expect(page2.outcomes[2]?.message).toMatch(/^Collect #3 refused: /);
    expect(page2).toMatchObject({
      counts: { job: 5 },
      limitReached: true,
      message: 'collect: 2 stored, 2 duplicate, 1 over the limit, 1 invalid (5/5 in total)',
    });
    expect(await service.counts(task.tenantId, task.taskId)).toStrictEqual({ job: 5 });
    const line = collectedSummaryLine(page2.counts, 5);
    expect(line).toBe(
      'Collected so far (stored, not shown): 5/5 job items. Target reached: finish the task.',
    );
    const items = await store.collectedItems.list(task.tenantId, task.taskId);
    expect(items.map((i) => i.seq)).toStrictEqual([1, 2, 3, 4, 5]);
    expect(items.filter((i) => i.sourceUrl === PAGE(2)).map((i) => i.uniqueKey)).toStrictEqual([
      'job:J-3',
      'job:J-4',
    ]);
  });

  it('throws for a task that is not the tenant’s, before storing anything', async () => {
    const task = await newTask();
    await expect(
      service.collectMany({ tenantId: 'nope', taskId: task.taskId, items: [{ data: { id: 1 } }] }),
    ).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
  });
});
