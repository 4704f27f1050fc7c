// The embedded job queue's query documents, evaluated by mingo: which job a claim takes, and
// that every finishing update re-checks the lease it finishes.
import { describe, expect, it } from 'vitest';
import { newQueuedJobRecord, type NewQueuedJob } from './record';
import type { QueuedJobDoc } from './mongo-schema';
import { MingoCollection } from '../../mongo/queries/mingo-collection';
import {
  abandonQueuedJobUpdate,
  busyTenantsFilter,
  claimQueuedJobUpdate,
  completeQueuedJobUpdate,
  exhaustedQueuedJobsQuery,
  failQueuedJobUpdate,
  queuedJobDoc,
  queuedJobFilter,
  queuedJobInsert,
  releaseQueuedJobUpdate,
  renewQueuedJobUpdate,
  retryQueuedJobUpdate,
  tenantQueuedJobFilter,
} from './mongo-queries';

const T0 = new Date('2025-06-01T00:00:00.000Z');
const plus = (ms: number) => new Date(T0.getTime() + ms);
const LEASE = 30_000;

const input = (id: string, over: Partial<NewQueuedJob> = {}): NewQueuedJob => ({
  id,
  queue: 'crawl',
  tenantId: 't1',
  data: { url: `https://a.test/${id}` },
  maxAttempts: 2,
  backoffMs: 1_000,
  ...over,
});

function queueOf(...jobs: [NewQueuedJob, Date][]): MingoCollection<QueuedJobDoc> {
  const docs = new MingoCollection<QueuedJobDoc>();
  for (const [job, createdAt] of jobs) {
    docs.findOneAndUpdate(
      queuedJobInsert(queuedJobDoc(newQueuedJobRecord(job, createdAt.toISOString()))),
    );
  }
  return docs;
}

const claim = (
  docs: MingoCollection<QueuedJobDoc>,
  owner: string,
  now: Date,
  busy: string[] = [],
) => docs.findOneAndUpdate(claimQueuedJobUpdate('crawl', owner, LEASE, now, busy));

describe('queued jobs: insert and claim', () => {
  it('inserts a job once; a second insert of its (queue, id) changes nothing', () => {
    const docs = queueOf([input('a'), T0]);
    expect(docs.docs[0]).toMatchObject({
      queue: 'crawl',
      id: 'a',
      tenantId: 't1',
      status: 'waiting',
      attempts: 0,
      runAt: T0,
      owner: null,
      leaseExpiresAt: null,
    });
    const again = queuedJobInsert(
      queuedJobDoc(newQueuedJobRecord(input('a', { data: 'other' }), plus(5).toISOString())),
    );
    expect(docs.findOne({ filter: again.filter })?.data).toEqual({ url: 'https://a.test/a' });
    docs.findOneAndUpdate(again);
    expect(docs.docs).toHaveLength(1);
    expect(docs.docs[0]?.data).toEqual({ url: 'https://a.test/a' });
    expect(docs.findOne({ filter: queuedJobFilter('crawl', 'a') })?.createdAt).toEqual(T0);
    expect(docs.findOne({ filter: tenantQueuedJobFilter('t2', 'crawl', 'a') })).toBeNull();
  });

  it('claims the earliest due job (runAt, createdAt, id), never a future one', () => {
    const docs = queueOf(
      [input('late', { runAt: plus(10_000).toISOString() }), T0],
      [input('b'), plus(2)],
      [input('c'), plus(1)],
      [input('a'), plus(2)],
      [input('other', { queue: 'mail' }), T0],
    );
    const now = plus(100);
    const order = [1, 2, 3, 4].map((n) => claim(docs, `w${n}`, now)?.id ?? null);
    expect(order).toEqual(['c', 'a', 'b', null]);
    expect(docs.findOne({ filter: queuedJobFilter('crawl', 'c') })).toMatchObject({
      status: 'active',
      owner: 'w1',
      attempts: 1,
      leaseExpiresAt: plus(100 + LEASE),
      updatedAt: now,
    });
    expect(claim(docs, 'w5', plus(10_000))?.id).toBe('late');
  });

  it('reclaims an expired lease while attempts are left; an exhausted job is for abandon', () => {
    const docs = queueOf([input('a', { maxAttempts: 2 }), T0]);
    claim(docs, 'w1', T0);
    expect(claim(docs, 'w2', plus(LEASE))).toBeNull(); // still live at its expiry instant
    expect(claim(docs, 'w2', plus(LEASE + 1))).toMatchObject({ owner: 'w2', attempts: 2 });
    const dead = plus(2 * LEASE + 2);
    expect(claim(docs, 'w3', dead)).toBeNull();
    expect(docs.find(exhaustedQueuedJobsQuery('crawl', dead, 20)).map((d) => d.id)).toEqual(['a']);
    expect(docs.find(exhaustedQueuedJobsQuery('crawl', plus(LEASE + 2), 20))).toEqual([]);
    expect(
      docs.updateMany(abandonQueuedJobUpdate('crawl', 'a', 'worker died', dead)).modifiedCount,
    ).toBe(1);
    expect(docs.docs[0]).toMatchObject({
      status: 'failed',
      error: 'worker died',
      owner: null,
      finishedAt: dead,
    });
    expect(docs.updateMany(abandonQueuedJobUpdate('crawl', 'a', 'again', dead)).modifiedCount).toBe(
      0,
    );
  });

  it('passes over busy tenants, which are those with a live active job', () => {
    const docs = queueOf(
      [input('x1', { tenantId: 'x' }), T0],
      [input('x2', { tenantId: 'x' }), plus(1)],
      [input('y1', { tenantId: 'y' }), plus(2)],
    );
    const busy = (now: Date) => [
      ...new Set(docs.find({ filter: busyTenantsFilter('crawl', now) }).map((d) => d.tenantId)),
    ];
    expect(claim(docs, 'w1', plus(10), busy(plus(10)))?.id).toBe('x1');
    expect(busy(plus(10))).toEqual(['x']);
    expect(claim(docs, 'w2', plus(10), busy(plus(10)))?.id).toBe('y1');
    expect(claim(docs, 'w3', plus(10), busy(plus(10)))).toBeNull();
    // x1's lease ran out: x is not busy any more.
    expect(busy(plus(LEASE + 11))).toEqual([]);
  });
});

describe('queued jobs: the owner finishing an attempt', () => {
  const held = () => {
    const docs = queueOf([input('a', { maxAttempts: 3 }), T0]);
    claim(docs, 'w1', T0);
    return docs;
  };
  const apply = (
    docs: MingoCollection<QueuedJobDoc>,
    spec: ReturnType<typeof renewQueuedJobUpdate>,
  ) => docs.updateMany(spec).modifiedCount;

  it('renews, completes and fails only under a live lease of the same owner', () => {
    const docs = held();
    expect(apply(docs, renewQueuedJobUpdate('crawl', 'a', 'w2', LEASE, plus(1)))).toBe(0);
    expect(apply(docs, renewQueuedJobUpdate('crawl', 'a', 'w1', LEASE, plus(LEASE)))).toBe(1);
    expect(docs.docs[0]?.leaseExpiresAt).toEqual(plus(2 * LEASE));
    const late = plus(2 * LEASE + 1);
    expect(apply(docs, completeQueuedJobUpdate('crawl', 'a', 'w1', late))).toBe(0);
    expect(apply(docs, failQueuedJobUpdate('crawl', 'a', 'w1', 'x', null, late))).toBe(0);
    expect(apply(docs, renewQueuedJobUpdate('crawl', 'a', 'w1', LEASE, late))).toBe(0);
    expect(docs.docs[0]).toMatchObject({ status: 'active', owner: 'w1' });

    expect(apply(docs, completeQueuedJobUpdate('crawl', 'a', 'w1', plus(5)))).toBe(1);
    expect(docs.docs[0]).toMatchObject({
      status: 'completed',
      owner: null,
      leaseExpiresAt: null,
      finishedAt: plus(5),
    });
    expect(apply(docs, completeQueuedJobUpdate('crawl', 'a', 'w1', plus(6)))).toBe(0);
  });

  it('fails into a backoff or for good; releases uncounted; retries a failed job', () => {
    const docs = held();
    expect(
      apply(docs, failQueuedJobUpdate('crawl', 'a', 'w1', 'HTTP 500', plus(5_000), plus(1))),
    ).toBe(1);
    expect(docs.docs[0]).toMatchObject({
      status: 'waiting',
      runAt: plus(5_000),
      error: 'HTTP 500',
      owner: null,
      attempts: 1,
      finishedAt: null,
    });
    expect(claim(docs, 'w2', plus(4_999))).toBeNull();
    expect(claim(docs, 'w2', plus(5_000))?.attempts).toBe(2);

    expect(apply(docs, releaseQueuedJobUpdate('crawl', 'a', 'w2', plus(5_001)))).toBe(1);
    expect(docs.docs[0]).toMatchObject({ status: 'waiting', attempts: 1, runAt: plus(5_000) });
    expect(claim(docs, 'w3', plus(5_002))?.attempts).toBe(2);

    const end = plus(6_000);
    expect(apply(docs, failQueuedJobUpdate('crawl', 'a', 'w3', 'gone', null, end))).toBe(1);
    expect(docs.docs[0]).toMatchObject({ status: 'failed', error: 'gone', finishedAt: end });

    expect(docs.findOneAndUpdate(retryQueuedJobUpdate('t2', 'crawl', 'a', end))).toBeNull();
    const retried = docs.findOneAndUpdate(retryQueuedJobUpdate('t1', 'crawl', 'a', plus(7_000)));
    expect(retried).toMatchObject({
      status: 'waiting',
      attempts: 0,
      runAt: plus(7_000),
      error: null,
      finishedAt: null,
    });
    expect(docs.findOneAndUpdate(retryQueuedJobUpdate('t1', 'crawl', 'a', plus(7_001)))).toBeNull();
  });
});
