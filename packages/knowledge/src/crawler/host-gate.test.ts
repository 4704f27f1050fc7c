import { describe, expect, it } from 'vitest';
import { HostGate } from './host-gate';

describe('HostGate', () => {
  it('lets at most `concurrency` requests to one host through at once', async () => {
    const gate = new HostGate(2, 0);
    const first = await gate.acquire('a.example');
    await gate.acquire('a.example');
    let thirdIn = false;
    const third = gate.acquire('a.example').then((release) => {
      thirdIn = true;
      return release;
    });
    // Another host is not held up by this one.
    (await gate.acquire('b.example'))();
    await new Promise((resolve) => setImmediate(resolve));
    expect(thirdIn).toBe(false);
    first();
    first(); // releasing twice must not free a second slot
    await third;
    expect(thirdIn).toBe(true);
  });

  it('spaces request starts to one host by delayMs', async () => {
    const gate = new HostGate(5, 30);
    const starts: number[] = [];
    await Promise.all(
      [1, 2, 3].map(async () => {
        const release = await gate.acquire('a.example');
        starts.push(Date.now());
        release();
      }),
    );
    starts.sort((x, y) => x - y);
    expect((starts[1] ?? 0) - (starts[0] ?? 0)).toBeGreaterThanOrEqual(25);
    expect((starts[2] ?? 0) - (starts[1] ?? 0)).toBeGreaterThanOrEqual(25);
  });

  it('rejects waiters when the signal aborts and frees their slot', async () => {
    const gate = new HostGate(1, 0);
    const controller = new AbortController();
    const held = await gate.acquire('a.example');
    const waiting = gate.acquire('a.example', controller.signal);
    controller.abort(new Error('shutdown'));
    await expect(waiting).rejects.toThrow('shutdown');
    held();
    const next = await gate.acquire('a.example');
    next();
  });

  it('rejects a delayed start when the signal aborts during the delay', async () => {
    const gate = new HostGate(2, 10_000);
    const controller = new AbortController();
    (await gate.acquire('a.example'))();
    const delayed = gate.acquire('a.example', controller.signal);
    controller.abort();
    await expect(delayed).rejects.toThrow();
  });
});
