import { describe, expect, it } from 'vitest';
import { FairQueue, QueueFullError } from './fair-queue';

/** A job the test finishes by hand, recording when it started. */
function gate(log: string[], name: string) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    start: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('FairQueue', () => {
  it('gives a free thread to the next tenant in turn, not to the one with the longest queue', async () => {
    const log: string[] = [];
    const queue = new FairQueue({ capacity: 2, perTenant: 1, maxWaitingPerTenant: 10 });
    const a = [1, 2, 3].map((n) => gate(log, `a${n}`));
    const b = gate(log, 'b1');
    const runs = a.map((job) => queue.submit('A', job.start));
    const bRun = queue.submit('B', b.start);
    await tick();
    // A holds one thread (its share), B gets the other at once although A queued first.
    expect(log).toEqual(['a1', 'b1']);
    b.finish();
    expect(await bRun).toBe('b1');
    await tick();
    // B is done; its thread stays free for others rather than a second job of A.
    expect(log).toEqual(['a1', 'b1']);
    a[0]?.finish();
    await tick();
    expect(log).toEqual(['a1', 'b1', 'a2']);
    a[1]?.finish();
    a[2]?.finish();
    await tick();
    await Promise.all(runs);
    expect(log).toEqual(['a1', 'b1', 'a2', 'a3']);
    expect(queue.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a job beyond the tenant’s waiting limit, and only that tenant’s', async () => {
    const log: string[] = [];
    const queue = new FairQueue({ capacity: 1, perTenant: 1, maxWaitingPerTenant: 1 });
    const first = gate(log, 'a1');
    const second = gate(log, 'a2');
    const running = queue.submit('A', first.start);
    const waiting = queue.submit('A', second.start);
    await tick();
    await expect(queue.submit('A', async () => 'a3')).rejects.toBeInstanceOf(QueueFullError);
    const other = queue.submit('B', async () => 'b1');
    first.finish();
    second.finish();
    expect(await Promise.all([running, waiting, other])).toEqual(['a1', 'a2', 'b1']);
  });

  it('passes a job’s failure to its caller and keeps serving', async () => {
    const queue = new FairQueue({ capacity: 1, perTenant: 1, maxWaitingPerTenant: 5 });
    const failed = queue.submit('A', () => {
      throw new Error('bad input');
    });
    const next = queue.submit('A', async () => 'ok');
    await expect(failed).rejects.toThrow('bad input');
    expect(await next).toBe('ok');
  });
});
