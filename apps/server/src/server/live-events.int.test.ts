// Task events across server processes on one store: two runtimes, each with its own connection
// to one libSQL file (as `next start` processes on one DATA_DIR), each with its TaskEventHub on
// the runtime's event bus. A step published on A reaches B's listeners within a second, and
// A's own listeners once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TaskEvent } from '@tandem/contracts';
import { createLibsqlStore } from '@tandem/store';
import { afterAll, describe, expect, it } from 'vitest';
import { testRuntime } from '../test/harness';
import type { Runtime } from './runtime';

const dir = mkdtempSync(path.join(tmpdir(), 'tandem-live-'));
const url = `file:${path.join(dir, 'tandem.db')}`;
const runtimes: Runtime[] = [];

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = async () => {
  const runtime = await testRuntime({}, await createLibsqlStore({ url }));
  runtimes.push(runtime);
  return runtime;
};

const step = (n: number): TaskEvent => ({
  event: 'step',
  taskId: '7a3c2e5e-6d0e-4a52-9d3f-0f4b8b1c2d3e',
  stepIndex: n,
  action: 'click(id="next")',
  status: 'success',
  thought: 'The list goes on past this page.',
  summary: `Click "Next" (${n})`,
  at: '2026-11-29T10:00:00.000Z',
});

describe('task events across processes', () => {
  it('reach the listeners of another process within a second, and this one’s once', async () => {
    const a = await open();
    const b = await open();
    const here: TaskEvent[] = [];
    const there: { event: TaskEvent; at: number }[] = [];
    a.events.subscribe('tenant-1', 'task-1', (event) => here.push(event));
    b.events.subscribe('tenant-1', 'task-1', (event) => there.push({ event, at: Date.now() }));
    // Another tenant's task of the same id hears nothing.
    const foreign: TaskEvent[] = [];
    b.events.subscribe('tenant-2', 'task-1', (event) => foreign.push(event));

    const sentAt = Date.now();
    expect(a.events.publish('tenant-1', 'task-1', step(1))).toBe(1);
    a.events.publish('tenant-1', 'task-1', step(2));
    await expect.poll(() => there.length, { timeout: 2_000 }).toBe(2);
    expect(there.map((t) => t.event)).toEqual([step(1), step(2)]);
    expect((there[0]?.at ?? Infinity) - sentAt).toBeLessThan(1_000);
    // B keeps them for a listener who joins late, as A does.
    expect(b.events.recent('tenant-1', 'task-1')).toEqual([step(1), step(2)]);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(here).toEqual([step(1), step(2)]);
    expect(there).toHaveLength(2);
    expect(foreign).toEqual([]);
  });
});
