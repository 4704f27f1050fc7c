// Storing the routine a completed task leaves, against the embedded store: the
// first version, no version for the same steps, the next one for changed steps, none while an
// admin has it disabled, and a store failure that is logged, never thrown.
import { createLibsqlStore, type Store } from '@tandem/store';
import type { Logger } from '@tandem/observability';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InteractStateType } from '../state';
import { formRun, GOAL } from '../testing/routine-runs';
import { stateWith } from '../testing/state';
import { saveRoutine } from './save';

let store: Store;
beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
});
afterEach(async () => {
  await store.close();
});

function recordingLogger(): Logger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  const log = (level: string) => (message: string) => {
    lines.push({ level, message });
  };
  const logger = {
    lines,
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: () => logger,
  };
  return logger as unknown as Logger & { lines: typeof lines };
}

const completed = (tenantId: string, over: Partial<InteractStateType> = {}) =>
  stateWith({
    tenantId,
    taskId: 'task-1',
    query: GOAL,
    status: 'completed',
    routineTrace: formRun(),
    ...over,
  });

describe('saveRoutine', () => {
  it('stores version 1, skips the same steps, and stores the next version for changed ones', async () => {
    const tenant = await store.tenants.create({ name: 'clinic' });
    const log = recordingLogger();
    const first = await saveRoutine(store, completed(tenant.id), log);
    if (!first || !('saved' in first)) throw new Error('expected a saved routine');
    expect(first.saved).toMatchObject({ version: 1, sourceTaskId: 'task-1', site: 'emr.test' });

    const again = await saveRoutine(store, completed(tenant.id, { taskId: 'task-2' }), log);
    expect(again).toMatchObject({ skipped: 'unchanged' });

    // Save was renamed on the page: another target, so another version (the old one is kept).
    const [fill, save] = formRun();
    const renamed = save && {
      ...save,
      actions: save.actions.map((a) =>
        a.target ? { ...a, target: { ...a.target, fingerprint: 'btn|Save patient|f0|#0' } } : a,
      ),
    };
    await store.routines.update(tenant.id, first.saved.id, { name: 'Add patient' });
    const changed = await saveRoutine(
      store,
      completed(tenant.id, {
        taskId: 'task-3',
        routineTrace: [fill, renamed].flatMap((e) => (e ? [e] : [])),
      }),
      log,
    );
    if (!changed || !('saved' in changed)) throw new Error('expected a new version');
    expect(changed.saved).toMatchObject({
      version: 2,
      sourceTaskId: 'task-3',
      name: 'Add patient',
    });
    const versions = await store.routines.versions(tenant.id, changed.saved.id);
    expect(versions.map((r) => r.version)).toEqual([2, 1]);
    expect(log.lines.filter((l) => l.message === 'routine saved')).toHaveLength(2);
  });

  it('adds no version to a routine an admin disabled', async () => {
    const tenant = await store.tenants.create({ name: 'clinic' });
    const log = recordingLogger();
    const first = await saveRoutine(store, completed(tenant.id), log);
    if (!first || !('saved' in first)) throw new Error('expected a saved routine');
    await store.routines.update(tenant.id, first.saved.id, { enabled: false });
    const [fill] = formRun();
    const next = await saveRoutine(
      store,
      completed(tenant.id, { routineTrace: fill ? [fill] : [] }),
      log,
    );
    expect(next).toMatchObject({ skipped: 'disabled' });
    expect((await store.routines.list(tenant.id)).items).toHaveLength(1);
  });

  it('logs a store failure and returns, never throwing into the task', async () => {
    const tenant = await store.tenants.create({ name: 'clinic' });
    const log = recordingLogger();
    const broken: Store = {
      ...store,
      routines: {
        ...store.routines,
        findLatest: () => Promise.reject(new Error('disk full')),
      },
    };
    await expect(saveRoutine(broken, completed(tenant.id), log)).resolves.toBeNull();
    expect(log.lines).toContainEqual({ level: 'warn', message: 'routine not saved' });
    expect((await store.routines.list(tenant.id)).items).toEqual([]);
  });

  it('says why a run leaves no routine', async () => {
    const tenant = await store.tenants.create({ name: 'clinic' });
    const log = recordingLogger();
    const result = await saveRoutine(store, completed(tenant.id, { status: 'failed' }), log);
    expect(result).toEqual({
      skipped: 'not_compiled',
      reason: 'the task is failed, not completed',
    });
    expect(log.lines).toContainEqual({ level: 'info', message: 'no routine from the task' });
  });
});
