import { describe, expect, it } from 'vitest';
import { memoryStore } from './memory-store';
import { loadRun, runKey, writeRun, type RunState } from './run-state';

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
