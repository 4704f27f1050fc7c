import { describe, expect, it } from 'vitest';
import { memoryStore } from './memory-store';
import {
  compareAndSetRun,
  loadRun,
  runKey,
  statusMayChange,
  writeRun,
  type RunState,
} from './run-state';
import type { KeyValueStore } from './settings';

const base: RunState = { tabId: 4, goal: 'g', status: 'running', steps: [], updatedAt: 1 };

describe('writeRun', () => {
  it('stores the run with the patch applied under run_${tabId} and returns what it stored', async () => {
    const storage = memoryStore();
    const written = await writeRun(storage, base, { status: 'stopped', error: 'x' });
    expect(written).toMatchObject({ tabId: 4, goal: 'g', status: 'stopped', error: 'x' });
    expect(written.updatedAt).toBeGreaterThan(1);
    expect(storage.data.get(runKey(4))).toEqual(written);
    expect(await loadRun(storage, 4)).toEqual(written);
  });

  it('clears a field patched to undefined and keeps the others', async () => {
    const storage = memoryStore();
    const run = { ...base, pending: { captureMode: 'full' as const }, inFlight: ['click("1")'] };
    const written = await writeRun(storage, run, { pending: undefined });
    expect(written.pending).toBeUndefined();
    expect(written.inFlight).toEqual(['click("1")']);
    expect((await loadRun(storage, 4))?.pending).toBeUndefined();
  });

  it('creates a run from fields without a timestamp', async () => {
    const storage = memoryStore();
    const { updatedAt: _old, ...fresh } = base;
    const written = await writeRun(storage, fresh);
    expect(typeof written.updatedAt).toBe('number');
    expect(await loadRun(storage, 4)).toEqual(written);
  });
});

describe('statusMayChange', () => {
  it('lets a running run become anything', () => {
    for (const to of ['running', 'completed', 'failed', 'stopped', 'needs_input', 'error'] as const)
      expect(statusMayChange('running', to)).toBe(true);
  });

  it('lets a question be answered, stopped or fail, but not finish by itself', () => {
    expect(statusMayChange('needs_input', 'running')).toBe(true);
    expect(statusMayChange('needs_input', 'stopped')).toBe(true);
    expect(statusMayChange('needs_input', 'error')).toBe(true);
    expect(statusMayChange('needs_input', 'completed')).toBe(false);
  });

  it('never turns a stopped or ended run into another status', () => {
    for (const from of ['stopped', 'completed', 'failed', 'error'] as const) {
      expect(statusMayChange(from, 'running')).toBe(false);
      expect(statusMayChange(from, from)).toBe(true);
    }
    expect(statusMayChange('stopped', 'error')).toBe(false);
    expect(statusMayChange('error', 'stopped')).toBe(false);
  });
});

describe('compareAndSetRun', () => {
  const run: RunState = { ...base, startedAt: 100 };

  it('refuses to turn a stored Stop back into running, and returns the stored run', async () => {
    const storage = memoryStore();
    await writeRun(storage, run, { status: 'stopped' });
    const write = await compareAndSetRun(storage, run, {
      steps: [{ index: 0, thought: 't', status: 'executing', at: 1 }],
    });
    expect(write.written).toBe(false);
    expect(write.run).toMatchObject({ status: 'stopped', steps: [] });
    expect(await loadRun(storage, 4)).toEqual(write.run);
  });

  it("refuses a write of the tab's previous run once a new one started", async () => {
    const storage = memoryStore();
    await writeRun(storage, { ...run, startedAt: 200, goal: 'next' }, {}, { replace: true });
    const write = await compareAndSetRun(storage, run, { status: 'error', error: 'late' });
    expect(write.written).toBe(false);
    expect((await loadRun(storage, 4))?.goal).toBe('next');
  });

  it('replaces a stopped run with a new one when asked to (Start)', async () => {
    const storage = memoryStore();
    await writeRun(storage, run, { status: 'stopped' });
    const write = await compareAndSetRun(
      storage,
      { ...run, startedAt: 101 },
      {},
      { replace: true },
    );
    expect(write).toMatchObject({ written: true, run: { status: 'running', startedAt: 101 } });
  });

  /** A store whose reads and writes take a turn of the event loop, as chrome.storage's do. */
  function slowStore(): KeyValueStore & { data: Map<string, unknown> } {
    const inner = memoryStore();
    const later = () => new Promise((resolve) => setTimeout(resolve, 1));
    return {
      ...inner,
      get: async (key) => later().then(() => inner.get(key)),
      set: async (items) => later().then(() => inner.set(items)),
    };
  }

  it('keeps a Stop that races a write from a copy read before it, in either order', async () => {
    for (const stopFirst of [true, false]) {
      const storage = slowStore();
      await writeRun(storage, run);
      // Both start in the same turn: unserialised, both would read `running` before either wrote.
      const stop = () => compareAndSetRun(storage, run, { status: 'stopped' });
      const loopWrite = () => compareAndSetRun(storage, run, { inFlight: ['click("1")'] });
      const [first, second] = await Promise.all(
        stopFirst ? [stop(), loopWrite()] : [loopWrite(), stop()],
      );
      expect([first.written, second.written]).toEqual(stopFirst ? [true, false] : [true, true]);
      expect((await loadRun(storage, 4))?.status).toBe('stopped');
    }
  });
});
