// The embedded event bus's relay: every append gets a seq above all before it, and a poller
// that passes the last seq it saw reads its channels' later events, oldest first. Each test
// uses channels of its own (random names), so a shared database is safe; times are passed as
// `now` where a test depends on them.
import { describe, expect, it } from 'vitest';
import type { LiveEventRecord, Store } from '../../port';
import { expectIso, isoAt, uniq, useStore, type MakeStore } from './harness';

/** A channel of its own per test, named like the bus names a task's channel. */
const channel = (): string => uniq('task:contract-tenant');

const append = (
  store: Store,
  ch: string,
  data: unknown = { step: 1 },
  now?: string,
): Promise<LiveEventRecord> =>
  store.liveEvents.append({ channel: ch, origin: 'proc-a', data }, now);

const seqs = (events: readonly LiveEventRecord[]): number[] => events.map((e) => e.seq);

export function liveEventsContract(makeStore: MakeStore): void {
  describe('live events: append and listAfter', () => {
    const store = useStore(makeStore);

    it('appends with increasing seqs and returns the stored event', async () => {
      const ch = channel();
      const t0 = Date.now();
      const first = await store().liveEvents.append(
        { channel: ch, origin: 'proc-a', data: { step: 1, status: 'running' } },
        isoAt(t0),
      );
      expect(first).toEqual({
        seq: first.seq,
        channel: ch,
        origin: 'proc-a',
        data: { step: 1, status: 'running' },
        createdAt: isoAt(t0),
      });
      expect(Number.isInteger(first.seq)).toBe(true);
      expect(first.seq).toBeGreaterThan(0);

      const second = await store().liveEvents.append(
        { channel: ch, origin: 'proc-b', data: 'done' },
        isoAt(t0 + 1),
      );
      expect(second.seq).toBeGreaterThan(first.seq);
      // Another channel's append still takes the next seq: seqs are store-wide.
      const elsewhere = await append(store(), channel());
      expect(elsewhere.seq).toBeGreaterThan(second.seq);
      expect(await store().liveEvents.listAfter(first.seq - 1, { channels: [ch] })).toEqual([
        first,
        second,
      ]);

      // `now` is normalised to UTC and defaults to the current time.
      const offset = await append(store(), ch, null, '2030-01-01T02:00:00+02:00');
      expect(offset.createdAt).toBe('2030-01-01T00:00:00.000Z');
      const current = await append(store(), ch);
      expectIso(current.createdAt);
      expect(Date.parse(current.createdAt)).toBeGreaterThanOrEqual(t0);
      expect(current.seq).toBeGreaterThan(offset.seq);
    });

    it('lists the given channels after afterSeq, oldest first, at most limit', async () => {
      const [a, b, c] = [channel(), channel(), channel()];
      const a1 = await append(store(), a, { n: 'a1' });
      const b1 = await append(store(), b, { n: 'b1' });
      const c1 = await append(store(), c, { n: 'c1' });
      const a2 = await append(store(), a, { n: 'a2' });
      const b2 = await append(store(), b, { n: 'b2' });
      const list = (afterSeq: number, channels: string[], limit?: number) =>
        store().liveEvents.listAfter(afterSeq, {
          channels,
          ...(limit === undefined ? {} : { limit }),
        });

      expect(await list(0, [a])).toEqual([a1, a2]);
      expect(await list(0, [a, b])).toEqual([a1, b1, a2, b2]);
      expect(await list(0, [b, a, c])).toEqual([a1, b1, c1, a2, b2]);
      // Strictly after afterSeq.
      expect(await list(b1.seq, [a, b])).toEqual([a2, b2]);
      expect(await list(a2.seq, [a, b])).toEqual([b2]);
      expect(await list(b2.seq, [a, b, c])).toEqual([]);
      // The oldest `limit`; the next poll goes on from the last one read.
      expect(await list(0, [a, b, c], 2)).toEqual([a1, b1]);
      expect(await list(b1.seq, [a, b, c], 2)).toEqual([c1, a2]);
      // No channels, or channels nobody appended to: nothing.
      expect(await list(0, [])).toEqual([]);
      expect(await list(0, [uniq('task:none')])).toEqual([]);
    });

    it('answers at most 500 events unless given a limit', async () => {
      const ch = channel();
      const appended = await Promise.all(
        Array.from({ length: 501 }, (_, i) => append(store(), ch, { i })),
      );
      const ordered = seqs(appended).sort((x, y) => x - y);
      const page = await store().liveEvents.listAfter(0, { channels: [ch] });
      expect(seqs(page)).toEqual(ordered.slice(0, 500));
      const rest = await store().liveEvents.listAfter(ordered[499] ?? 0, { channels: [ch] });
      expect(seqs(rest)).toEqual(ordered.slice(500));
    });

    it('keeps data as JSON: nested values, strings, numbers, null', async () => {
      const ch = channel();
      const values: unknown[] = [
        { a: { b: [1, 2.5, true, null] }, empty: {}, list: [] },
        'plain',
        7,
        false,
        null,
        ['x', { y: 'z' }],
      ];
      const appended: LiveEventRecord[] = [];
      for (const data of values) {
        const event = await append(store(), ch, data);
        expect(event.data).toEqual(data);
        appended.push(event);
      }
      const listed = await store().liveEvents.listAfter(0, { channels: [ch] });
      expect(listed.map((e) => e.data)).toEqual(values);
      expect(listed).toEqual(appended);

      // As JSON: undefined fields vanish, an undefined value is null.
      const dropped = await append(store(), ch, { kept: 1, gone: undefined });
      expect(dropped.data).toEqual({ kept: 1 });
      expect(Object.keys(dropped.data as object)).toEqual(['kept']);
      const none = await store().liveEvents.append({
        channel: ch,
        origin: 'proc-a',
        data: undefined,
      });
      expect(none.data).toBeNull();
      expect(
        (await store().liveEvents.listAfter(dropped.seq - 1, { channels: [ch] })).map(
          (e) => e.data,
        ),
      ).toEqual([{ kept: 1 }, null]);
    });

    it('gives concurrent appends distinct, increasing seqs', async () => {
      const ch = channel();
      const before = await append(store(), ch, 'before');
      const appended = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          store().liveEvents.append({ channel: ch, origin: `proc-${i % 3}`, data: { i } }),
        ),
      );
      const distinct = new Set(seqs(appended));
      expect(distinct.size).toBe(50);
      for (const event of appended) expect(event.seq).toBeGreaterThan(before.seq);
      const listed = await store().liveEvents.listAfter(before.seq, { channels: [ch] });
      expect(seqs(listed)).toEqual([...distinct].sort((x, y) => x - y));
      expect(new Set(listed.map((e) => (e.data as { i: number }).i)).size).toBe(50);
      const after = await append(store(), ch, 'after');
      expect(after.seq).toBeGreaterThan(Math.max(...distinct));
    });
  });

  describe('live events: lastSeq and prune', () => {
    const store = useStore(makeStore);

    it('answers the greatest seq so far: where a new reader starts', async () => {
      const start = await store().liveEvents.lastSeq();
      expect(Number.isInteger(start)).toBe(true);
      expect(start).toBeGreaterThanOrEqual(0);

      const ch = channel();
      const first = await append(store(), ch);
      expect(first.seq).toBeGreaterThan(start);
      const seen = await store().liveEvents.lastSeq();
      expect(seen).toBeGreaterThanOrEqual(first.seq);
      // A reader starting there sees only what comes after it.
      expect(await store().liveEvents.listAfter(seen, { channels: [ch] })).toEqual([]);
      const next = await append(store(), ch);
      expect(await store().liveEvents.listAfter(seen, { channels: [ch] })).toEqual([next]);
      expect(await store().liveEvents.lastSeq()).toBeGreaterThanOrEqual(next.seq);
    });

    it('prunes the events created before a time, and says how many', async () => {
      // A random instant in the past, so no other test's (or run's) events share its window.
      const t0 = Date.UTC(2001, 0, 1) + Math.floor(Math.random() * 10 * 365 * 86_400_000);
      // Whatever an earlier run left before it goes first, so the counts below are exact.
      await store().liveEvents.prune(isoAt(t0));

      const ch = channel();
      const old = [
        await append(store(), ch, { i: 0 }, isoAt(t0)),
        await append(store(), ch, { i: 1 }, isoAt(t0 + 1)),
      ];
      const boundary = await append(store(), ch, { i: 2 }, isoAt(t0 + 2));
      const recent = await append(store(), ch, { i: 3 });
      expect(seqs(await store().liveEvents.listAfter(0, { channels: [ch] }))).toEqual(
        seqs([...old, boundary, recent]),
      );

      expect(await store().liveEvents.prune(isoAt(t0 + 2))).toBe(2);
      // Created at `before` itself is kept; so is everything newer.
      expect(await store().liveEvents.listAfter(0, { channels: [ch] })).toEqual([boundary, recent]);
      expect(await store().liveEvents.prune(isoAt(t0 + 2))).toBe(0);

      // `before` with an offset means the same instant.
      const withOffset = new Date(t0 + 3 + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
      expect(await store().liveEvents.prune(withOffset)).toBe(1);
      expect(await store().liveEvents.listAfter(0, { channels: [ch] })).toEqual([recent]);

      // Pruning never hands a seq out again.
      const later = await append(store(), ch);
      expect(later.seq).toBeGreaterThan(recent.seq);
    });
  });
}
