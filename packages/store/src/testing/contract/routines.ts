// Routines: versions per tenant + site + template, the latest enabled one found for a rerun,
// paged lists, renames and disabling, counters, deletes, and no tenant sees another's.
import type { RoutineParameter, RoutineStep } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type { NewRoutine } from '../../port';
import { expectIso, newTenant, tick, uniq, useStore, type MakeStore } from './harness';

const STEPS: RoutineStep[] = [
  {
    action: 'setValue',
    target: {
      fingerprint: 'inp|First name|f0|#0',
      locators: [
        { by: 'role-name', role: 'inp', name: 'First name' },
        { by: 'label', text: 'First name' },
        { by: 'near', role: 'inp', text: 'Patients', side: 'after' },
        { by: 'ordinal', role: 'inp', index: 0 },
      ],
    },
    value: '{firstName}',
    chained: true,
    expect: null,
    safety: 'safe',
    optional: false,
  },
  {
    action: 'click',
    target: {
      fingerprint: 'btn|Save|f0|#0',
      locators: [{ by: 'role-name', role: 'btn', name: 'Save' }],
    },
    value: null,
    chained: false,
    expect: {
      tier: 1,
      urlChanged: true,
      url: 'https://emr.test/patients/1',
      domChanged: true,
      network: true,
      fieldsHold: true,
      text: ['Patient saved'],
      reason: 'the click navigated as expected',
    },
    safety: 'safe',
    optional: false,
  },
];

const PARAMETERS: RoutineParameter[] = [
  { name: 'firstName', example: 'Jas', source: 'goal', steps: [0] },
];

function routineInput(overrides: Partial<NewRoutine> = {}): NewRoutine {
  return {
    site: 'emr.test',
    goalTemplate: 'Add patient {firstName}',
    parameters: PARAMETERS,
    steps: STEPS,
    ...overrides,
  };
}

export function routinesContract(makeStore: MakeStore): void {
  describe('routines', () => {
    const store = useStore(makeStore);

    it('creates version 1 with defaults, and reads it back only in its tenant', async () => {
      const tenantId = await newTenant(store());
      const other = await newTenant(store());
      const taskId = uniq('task');
      const routine = await store().routines.create(
        tenantId,
        routineInput({ sourceTaskId: taskId }),
      );
      expect(routine).toMatchObject({
        tenantId,
        site: 'emr.test',
        goalTemplate: 'Add patient {firstName}',
        name: 'Add patient ‹first name›',
        parameters: PARAMETERS,
        steps: STEPS,
        version: 1,
        sourceTaskId: taskId,
        enabled: true,
        runs: 0,
        heals: 0,
        tokensSaved: 0,
      });
      expectIso(routine.createdAt);
      expectIso(routine.updatedAt);
      expect(await store().routines.get(tenantId, routine.id)).toEqual(routine);
      expect(await store().routines.get(other, routine.id)).toBeNull();
      expect(await store().routines.get(tenantId, uniq('missing'))).toBeNull();
    });

    it('numbers the versions of a site and template, keeping the old ones', async () => {
      const tenantId = await newTenant(store());
      const first = await store().routines.create(tenantId, routineInput({ name: 'Add patient' }));
      await tick();
      const healed = STEPS.map((s, i) => (i === 1 ? { ...s, safety: 'delete' as const } : s));
      const second = await store().routines.create(tenantId, routineInput({ steps: healed }));
      await tick();
      const third = await store().routines.addVersion(tenantId, first.id, {
        parameters: [],
        steps: STEPS.slice(0, 1),
        sourceTaskId: 'task-3',
      });
      expect([first.version, second.version, third?.version]).toEqual([1, 2, 3]);
      // addVersion carries the routine's name, site and template over.
      expect(third).toMatchObject({
        site: 'emr.test',
        goalTemplate: 'Add patient {firstName}',
        name: 'Add patient',
        steps: STEPS.slice(0, 1),
        sourceTaskId: 'task-3',
      });
      // Another site or template is another routine.
      const elsewhere = await store().routines.create(tenantId, routineInput({ site: 'b.test' }));
      const otherGoal = await store().routines.create(
        tenantId,
        routineInput({ goalTemplate: 'Delete patient {firstName}' }),
      );
      expect([elsewhere.version, otherGoal.version]).toEqual([1, 1]);

      const versions = await store().routines.versions(tenantId, second.id);
      expect(versions.map((r) => r.id)).toEqual([third?.id, second.id, first.id]);
      expect(versions[1]?.steps).toEqual(healed);
      expect(await store().routines.versions(tenantId, uniq('missing'))).toEqual([]);
      expect(await store().routines.addVersion(tenantId, uniq('missing'), routineInput())).toBe(
        null,
      );
    });

    it('gives concurrent new versions distinct numbers', async () => {
      const tenantId = await newTenant(store());
      const made = await Promise.all(
        Array.from({ length: 5 }, () => store().routines.create(tenantId, routineInput())),
      );
      expect(made.map((r) => r.version).sort()).toEqual([1, 2, 3, 4, 5]);
    });

    it('finds the highest enabled version of a site and template', async () => {
      const tenantId = await newTenant(store());
      const other = await newTenant(store());
      const key = { site: 'emr.test', goalTemplate: 'Add patient {firstName}' };
      expect(await store().routines.findLatest(tenantId, key)).toBeNull();
      const v1 = await store().routines.create(tenantId, routineInput());
      const v2 = await store().routines.create(tenantId, routineInput());
      expect((await store().routines.findLatest(tenantId, key))?.id).toBe(v2.id);
      const disabled = await store().routines.update(tenantId, v2.id, { enabled: false });
      expect(disabled?.enabled).toBe(false);
      expect((await store().routines.findLatest(tenantId, key))?.id).toBe(v1.id);
      const any = await store().routines.findLatest(tenantId, key, { includeDisabled: true });
      expect(any?.id).toBe(v2.id);
      expect(await store().routines.findLatest(other, key)).toBeNull();
      expect(
        await store().routines.findLatest(tenantId, { ...key, goalTemplate: 'Add patient' }),
      ).toBeNull();
      expect(await store().routines.findLatest(tenantId, { ...key, site: 'x.test' })).toBeNull();
    });

    it('lists newest first, by pages, optionally one site', async () => {
      const tenantId = await newTenant(store());
      const other = await newTenant(store());
      const made = [];
      for (const site of ['a.test', 'b.test', 'a.test', 'b.test', 'a.test']) {
        made.push(await store().routines.create(tenantId, routineInput({ site })));
        await tick();
      }
      await store().routines.create(other, routineInput());
      const newestFirst = made.map((r) => r.id).reverse();
      const first = await store().routines.list(tenantId, { limit: 2 });
      expect(first.items.map((r) => r.id)).toEqual(newestFirst.slice(0, 2));
      expect(first.nextCursor).not.toBeNull();
      const second = await store().routines.list(tenantId, { limit: 2, cursor: first.nextCursor });
      const third = await store().routines.list(tenantId, { limit: 2, cursor: second.nextCursor });
      expect([...second.items, ...third.items].map((r) => r.id)).toEqual(newestFirst.slice(2));
      expect(third.nextCursor).toBeNull();
      const siteA = await store().routines.list(tenantId, { site: 'a.test' });
      expect(siteA.items.map((r) => r.site)).toEqual(['a.test', 'a.test', 'a.test']);
      expect((await store().routines.list(other)).items).toHaveLength(1);
    });

    it('renames, disables and counts one version, in its tenant only', async () => {
      const tenantId = await newTenant(store());
      const other = await newTenant(store());
      const routine = await store().routines.create(tenantId, routineInput());
      await tick();
      const renamed = await store().routines.update(tenantId, routine.id, { name: 'Add patient' });
      expect(renamed).toMatchObject({ name: 'Add patient', enabled: true, version: 1 });
      expect(renamed?.updatedAt).not.toBe(routine.updatedAt);
      expect(await store().routines.update(other, routine.id, { name: 'x' })).toBeNull();
      expect(await store().routines.update(tenantId, uniq('missing'), { enabled: false })).toBe(
        null,
      );

      await store().routines.addCounts(tenantId, routine.id, { runs: 1, tokensSaved: 2100 });
      const counted = await store().routines.addCounts(tenantId, routine.id, {
        runs: 1,
        heals: 1,
        tokensSaved: 1500,
      });
      expect(counted).toMatchObject({ runs: 2, heals: 1, tokensSaved: 3600 });
      expect(await store().routines.addCounts(other, routine.id, { runs: 1 })).toBeNull();
      expect(await store().routines.get(tenantId, routine.id)).toEqual(counted);
    });

    it('deletes one version, in its tenant only', async () => {
      const tenantId = await newTenant(store());
      const other = await newTenant(store());
      const v1 = await store().routines.create(tenantId, routineInput());
      const v2 = await store().routines.create(tenantId, routineInput());
      expect(await store().routines.delete(other, v2.id)).toBe(false);
      expect(await store().routines.delete(tenantId, v2.id)).toBe(true);
      expect(await store().routines.delete(tenantId, v2.id)).toBe(false);
      expect(await store().routines.get(tenantId, v2.id)).toBeNull();
      expect((await store().routines.versions(tenantId, v1.id)).map((r) => r.id)).toEqual([v1.id]);
      // The number after the highest that is left.
      expect((await store().routines.create(tenantId, routineInput())).version).toBe(2);
    });
  });
}
