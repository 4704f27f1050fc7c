/* eslint-disable max-lines-per-function -- a contract suite is one describe, as a test file is */
// The event port's contract, run against every adapter (embedded on libSQL here, on a
// redis-server the suite starts, on MongoDB wherever MONGODB_URI is set). Each "process" is an
// EventBus opened on the same backend.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventBus } from '../events';

export interface EventBusHarness {
  /** An EventBus as one process opens it; every one of a harness shares the backend. */
  open(): Promise<EventBus>;
  cleanup(): Promise<void>;
}

/** What "within a second" means for another process's listener. */
const ELSEWHERE_WITHIN_MS = 1_000;

const until = async (check: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
};

export function runEventBusContract(name: string, makeHarness: () => Promise<EventBusHarness>) {
  describe(`event bus contract: ${name}`, () => {
    let harness: EventBusHarness;
    const opened: EventBus[] = [];
    const open = async () => {
      const bus = await harness.open();
      opened.push(bus);
      return bus;
    };
    const channel = () => `task:t-${randomUUID().slice(0, 8)}:${randomUUID().slice(0, 8)}`;

    beforeAll(async () => {
      harness = await makeHarness();
    });
    afterAll(async () => {
      await Promise.all(opened.map((b) => b.close().catch(() => undefined)));
      await harness.cleanup();
    });

    it('delivers at once here and within a second in another process, once each', async () => {
      const a = await open();
      const b = await open();
      const subject = channel();
      const here: unknown[] = [];
      const there: unknown[] = [];
      a.subscribe(subject, (data) => here.push(data));
      b.subscribe(subject, (data) => there.push(data));
      // Let B's subscription settle (a Redis SUBSCRIBE is a round trip).
      await new Promise((resolve) => setTimeout(resolve, 100));
      const sentAt = Date.now();
      await a.publish(subject, { event: 'step', n: 1 });
      expect(here).toEqual([{ event: 'step', n: 1 }]);
      expect(await until(() => there.length === 1, ELSEWHERE_WITHIN_MS)).toBe(true);
      expect(Date.now() - sentAt).toBeLessThan(ELSEWHERE_WITHIN_MS);
      expect(there).toEqual([{ event: 'step', n: 1 }]);
      // Nothing arrives twice: not the echo of A's own event, not B's copy again.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(here).toHaveLength(1);
      expect(there).toHaveLength(1);
    });

    it('keeps one publisher’s order, and channels apart', async () => {
      const a = await open();
      const b = await open();
      const subject = channel();
      const other = channel();
      const received: number[] = [];
      const elsewhere: unknown[] = [];
      b.subscribe(subject, (data) => received.push((data as { n: number }).n));
      b.subscribe(other, (data) => elsewhere.push(data));
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (let n = 0; n < 25; n++) await a.publish(subject, { n });
      expect(await until(() => received.length === 25, 3_000)).toBe(true);
      expect(received).toEqual(Array.from({ length: 25 }, (_, n) => n));
      expect(elsewhere).toEqual([]);
    });

    it('stops delivering once unsubscribed, and replays nothing to a new listener', async () => {
      const a = await open();
      const b = await open();
      const subject = channel();
      const got: unknown[] = [];
      const stop = b.subscribe(subject, (data) => got.push(data));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await a.publish(subject, 'first');
      expect(await until(() => got.length === 1, 2_000)).toBe(true);
      stop();
      stop(); // idempotent
      await a.publish(subject, 'unheard');
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(got).toEqual(['first']);
      // A listener that joins now hears what comes next, not what came before.
      const late: unknown[] = [];
      b.subscribe(subject, (data) => late.push(data));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await a.publish(subject, 'next');
      expect(await until(() => late.length === 1, 2_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(late).toEqual(['next']);
    });

    it('keeps delivering to the others when one listener throws', async () => {
      const a = await open();
      const subject = channel();
      const got: unknown[] = [];
      a.subscribe(subject, () => {
        throw new Error('a closed stream');
      });
      a.subscribe(subject, (data) => got.push(data));
      await a.publish(subject, 'still');
      expect(got).toEqual(['still']);
    });
  });
}
