// GET /api/routines/offers over a real store and the real route handler: any key of the tenant
// (a user's, not only an admin's) sees its tenant's enabled routines of the asked site, each
// once as its latest version, newest first and at most ROUTINE_OFFERS_MAX; the site is
// validated (400) and a request without a key is refused (401).
import {
  ErrorResponse,
  ROUTINE_OFFERS_MAX,
  RoutineOfferList,
  type RoutineStep,
} from '@tandem/contracts';
import type { NewRoutine } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../server/runtime';
import { request, tenantWithKey, testRuntime } from '../../../test/harness';
import { GET as offers } from './offers/route';

let runtime: Runtime;
beforeEach(async () => {
  runtime = await testRuntime({ RATE_LIMIT_DEFAULT_PER_MIN: '1000' });
});
afterEach(async () => {
  await runtime.close();
});

const call = (path: string, key?: string): Promise<Response> =>
  offers.withRuntime(runtime)(request(path, key ? { key } : {}), { params: Promise.resolve({}) });

const step = (value: string | null): RoutineStep => ({
  action: 'setValue',
  target: {
    fingerprint: 'inp|First name|f0|#0',
    locators: [{ by: 'role-name', role: 'inp', name: 'First name' }],
  },
  value,
  chained: false,
  expect: null,
  safety: 'safe',
  optional: false,
});

const routine = (overrides: Partial<NewRoutine> = {}): NewRoutine => ({
  site: 'emr.test:8080',
  goalTemplate: 'Add a new patient named {firstName} {lastName}',
  name: 'Add patient',
  parameters: [
    { name: 'firstName', example: 'Jas', source: 'goal', steps: [0] },
    { name: 'lastName', example: 'Kaur', source: 'goal', steps: [1] },
  ],
  steps: [step('{firstName}'), step('{lastName}')],
  ...overrides,
});

// Distinct creation times, so "newest first" is one order.
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const path = (site: string) => `/api/routines/offers?site=${encodeURIComponent(site)}`;

describe('GET /api/routines/offers', () => {
  it("offers a user key its tenant's enabled routines of the site, latest version, newest first", async () => {
    const { tenantId, key } = await tenantWithKey(runtime.store, 'user');
    const other = await tenantWithKey(runtime.store, 'user');

    const add = await runtime.store.routines.create(tenantId, routine());
    await tick();
    const off = await runtime.store.routines.create(
      tenantId,
      routine({ goalTemplate: 'Archive {firstName}', name: 'Archive', enabled: false }),
    );
    await tick();
    const book = await runtime.store.routines.create(
      tenantId,
      routine({ goalTemplate: 'Book a visit for {firstName}', name: 'Book visit' }),
    );
    await tick();
    // A heal of the first routine: its version 2 is now the newest routine of the site.
    const addV2 = await runtime.store.routines.addVersion(tenantId, add.id, {
      parameters: add.parameters,
      steps: [...add.steps, step(null)],
    });
    await runtime.store.routines.addCounts(tenantId, addV2?.id ?? '', { runs: 3 });
    // The same site without its port, and another tenant's routine of the site: not offered.
    await runtime.store.routines.create(tenantId, routine({ site: 'emr.test' }));
    await runtime.store.routines.create(other.tenantId, routine());

    const res = await call(path('emr.test:8080'), key);
    expect(res.status).toBe(200);
    const list = RoutineOfferList.parse(await res.json());
    expect(list.items.map((o) => o.id)).toEqual([addV2?.id, book.id]);
    expect(list.items.map((o) => o.id)).not.toContain(off.id);
    expect(list.items[0]).toEqual({
      id: addV2?.id,
      name: 'Add patient',
      goalTemplate: 'Add a new patient named {firstName} {lastName}',
      parameters: [
        { name: 'firstName', example: 'Jas' },
        { name: 'lastName', example: 'Kaur' },
      ],
      version: 2,
      savedAt: addV2?.createdAt,
      runs: 3,
    });

    // The other tenant's key sees only its own.
    const theirs = RoutineOfferList.parse(
      await (await call(path('emr.test:8080'), other.key)).json(),
    );
    expect(theirs.items).toHaveLength(1);
    expect(theirs.items[0]?.id).not.toBe(addV2?.id);

    const none = RoutineOfferList.parse(await (await call(path('jobs.test'), key)).json());
    expect(none.items).toEqual([]);
  });

  it(`offers at most ${ROUTINE_OFFERS_MAX}`, async () => {
    const { tenantId, key } = await tenantWithKey(runtime.store, 'user');
    for (let i = 0; i < ROUTINE_OFFERS_MAX + 2; i += 1)
      await runtime.store.routines.create(tenantId, routine({ goalTemplate: `Task ${i} {x}` }));
    const list = RoutineOfferList.parse(await (await call(path('emr.test:8080'), key)).json());
    expect(list.items).toHaveLength(ROUTINE_OFFERS_MAX);
  });

  it('refuses a missing or malformed site with 400, and no key with 401', async () => {
    const { key } = await tenantWithKey(runtime.store, 'user');
    for (const bad of [
      '/api/routines/offers',
      path(''),
      path('https://emr.test/patients'),
      path('emr test'),
      path('x'.repeat(261)),
    ]) {
      const res = await call(bad, key);
      expect(res.status, bad).toBe(400);
      expect(ErrorResponse.parse(await res.json()).error.code).toBe('VALIDATION_ERROR');
    }

    const anonymous = await call(path('emr.test:8080'));
    expect(anonymous.status).toBe(401);
    expect(ErrorResponse.parse(await anonymous.json()).error.code).toBe('UNAUTHORIZED');
  });
});
