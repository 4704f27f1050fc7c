// The routines API over a real store and the real route handlers: admin auth (401/403), the
// list (latest version of each or every version, site filter, cursor paging), the detail with
// steps and versions, rename/enable/disable and delete acting on every version, body
// validation, and tenant isolation (another tenant's id is a 404).
import {
  DeleteRoutineResponse,
  ErrorResponse,
  RoutineDetail,
  RoutineList,
  type RoutineStep,
} from '@tandem/contracts';
import type { NewRoutine, Routine } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../server/runtime';
import { request, tenantWithKey, testRuntime } from '../../../test/harness';
import { DELETE, GET as getOne, PATCH } from './[routineId]/route';
import { GET as list } from './route';

let runtime: Runtime;
beforeEach(async () => {
  runtime = await testRuntime({ RATE_LIMIT_DEFAULT_PER_MIN: '1000' });
});
afterEach(async () => {
  await runtime.close();
});

type Route = typeof list;
const call = (
  route: Route,
  path: string,
  init: { method?: string; key?: string; body?: unknown; rawBody?: string } = {},
  params: Record<string, string> = {},
): Promise<Response> =>
  route.withRuntime(runtime)(request(path, init), { params: Promise.resolve(params) });

const one = (id: string) => ({ routineId: id });

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
  site: 'emr.test',
  goalTemplate: 'Add patient {firstName}',
  name: 'Add patient',
  parameters: [{ name: 'firstName', example: 'Jas', source: 'goal', steps: [0] }],
  steps: [step('{firstName}')],
  ...overrides,
});

async function adminTenant() {
  return tenantWithKey(runtime.store, 'admin');
}

describe('routines API auth', () => {
  const routes: [string, Route, string, string, Record<string, string>][] = [
    ['list', list, 'GET', '/api/routines', {}],
    ['detail', getOne, 'GET', '/api/routines/nope', one('nope')],
    ['update', PATCH, 'PATCH', '/api/routines/nope', one('nope')],
    ['delete', DELETE, 'DELETE', '/api/routines/nope', one('nope')],
  ];

  it.each(routes)(
    '%s: 401 without a key, 403 with a user key',
    async (_, route, method, path, params) => {
      const body = method === 'PATCH' ? { enabled: false } : undefined;
      const none = await call(route, path, { method, body }, params);
      expect(none.status).toBe(401);
      expect(ErrorResponse.parse(await none.json()).error.code).toBe('UNAUTHORIZED');

      const { key } = await tenantWithKey(runtime.store, 'user');
      const forbidden = await call(route, path, { method, key, body }, params);
      expect(forbidden.status).toBe(403);
      expect(ErrorResponse.parse(await forbidden.json()).error.code).toBe('FORBIDDEN');
    },
  );
});

describe('GET /api/routines', () => {
  it('lists the latest version of each routine, or every version; filters by site', async () => {
    const { tenantId, key } = await adminTenant();
    const other = await adminTenant();
    const v1 = await runtime.store.routines.create(tenantId, routine());
    const v2 = await runtime.store.routines.addVersion(tenantId, v1.id, {
      parameters: v1.parameters,
      steps: [step('{firstName}'), step('x')],
    });
    const jobs = await runtime.store.routines.create(
      tenantId,
      routine({ site: 'jobs.test', goalTemplate: 'Post job {title}', name: 'Post job' }),
    );
    await runtime.store.routines.create(other.tenantId, routine());

    const res = await call(list, '/api/routines', { key });
    expect(res.status).toBe(200);
    const latest = RoutineList.parse(await res.json());
    expect(latest.items.map((r) => r.id).sort()).toEqual([v2?.id, jobs.id].sort());
    expect(latest.nextCursor).toBeNull();
    const add = latest.items.find((r) => r.id === v2?.id);
    expect(add).toMatchObject({
      name: 'Add patient',
      site: 'emr.test',
      goalTemplate: 'Add patient {firstName}',
      parameters: [{ name: 'firstName', example: 'Jas' }],
      stepCount: 2,
      version: 2,
      enabled: true,
      runs: 0,
      heals: 0,
      tokensSaved: 0,
    });
    expect(add).not.toHaveProperty('steps');
    expect(add).not.toHaveProperty('tenantId');

    const all = RoutineList.parse(
      await (await call(list, '/api/routines?versions=all', { key })).json(),
    );
    expect(all.items.map((r) => r.id).sort()).toEqual([v1.id, v2?.id, jobs.id].sort());

    const bySite = RoutineList.parse(
      await (await call(list, '/api/routines?site=jobs.test', { key })).json(),
    );
    expect(bySite.items.map((r) => r.id)).toEqual([jobs.id]);

    const bad = await call(list, '/api/routines?versions=some', { key });
    expect(bad.status).toBe(400);
    expect(ErrorResponse.parse(await bad.json()).error.code).toBe('VALIDATION_ERROR');
  });

  it('pages newest first with a cursor', async () => {
    const { tenantId, key } = await adminTenant();
    const made: Routine[] = [];
    for (let i = 0; i < 5; i += 1) {
      made.push(
        await runtime.store.routines.create(tenantId, routine({ goalTemplate: `Do {x} #${i}` })),
      );
      // Distinct creation times, so "newest first" is one order.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/api/routines?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = RoutineList.parse(await (await call(list, path, { key })).json());
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(made.map((r) => r.id).reverse());
  });
});

describe('GET/PATCH/DELETE /api/routines/:routineId', () => {
  it('shows one version with its steps and every version', async () => {
    const { tenantId, key } = await adminTenant();
    const v1 = await runtime.store.routines.create(tenantId, routine());
    const v2 = await runtime.store.routines.addVersion(tenantId, v1.id, {
      parameters: v1.parameters,
      steps: [step('{firstName}'), step('x')],
    });
    const res = await call(getOne, `/api/routines/${v1.id}`, { key }, one(v1.id));
    expect(res.status).toBe(200);
    const detail = RoutineDetail.parse(await res.json());
    expect(detail.id).toBe(v1.id);
    expect(detail.version).toBe(1);
    expect(detail.steps).toEqual([step('{firstName}')]);
    expect(detail.versions.map((v) => [v.id, v.version, v.stepCount])).toEqual([
      [v2?.id, 2, 2],
      [v1.id, 1, 1],
    ]);
  });

  it('renames (trimmed) and disables every version; validates the body', async () => {
    const { tenantId, key } = await adminTenant();
    const v1 = await runtime.store.routines.create(tenantId, routine());
    const v2 = await runtime.store.routines.addVersion(tenantId, v1.id, {
      parameters: v1.parameters,
      steps: v1.steps,
    });
    const path = `/api/routines/${v2?.id}`;
    const params = one(v2?.id ?? '');

    const renamed = await call(
      PATCH,
      path,
      { method: 'PATCH', key, body: { name: '  Admit  ' } },
      params,
    );
    expect(renamed.status).toBe(200);
    const detail = RoutineDetail.parse(await renamed.json());
    expect(detail.name).toBe('Admit');
    expect(detail.versions.map((v) => v.name)).toEqual(['Admit', 'Admit']);

    const disabled = await call(
      PATCH,
      path,
      { method: 'PATCH', key, body: { enabled: false } },
      params,
    );
    expect(RoutineDetail.parse(await disabled.json()).versions.map((v) => v.enabled)).toEqual([
      false,
      false,
    ]);
    // No version is left for a rerun to fall back to.
    expect(
      await runtime.store.routines.findLatest(tenantId, {
        site: 'emr.test',
        goalTemplate: 'Add patient {firstName}',
      }),
    ).toBeNull();

    const enabled = await call(
      PATCH,
      path,
      { method: 'PATCH', key, body: { enabled: true } },
      params,
    );
    expect(RoutineDetail.parse(await enabled.json()).enabled).toBe(true);

    for (const body of [
      {},
      { name: '   ' },
      { name: 'x'.repeat(121) },
      { enabled: 'no' },
      { name: 'a', extra: 1 },
    ]) {
      const bad = await call(PATCH, path, { method: 'PATCH', key, body }, params);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(ErrorResponse.parse(await bad.json()).error.code).toBe('VALIDATION_ERROR');
    }
    const notJson = await call(PATCH, path, { method: 'PATCH', key, rawBody: '{nope' }, params);
    expect(notJson.status).toBe(400);
    expect(ErrorResponse.safeParse(await notJson.json()).success).toBe(true);
    expect((await runtime.store.routines.get(tenantId, v1.id))?.name).toBe('Admit');
  });

  it('deletes every version of the routine', async () => {
    const { tenantId, key } = await adminTenant();
    const v1 = await runtime.store.routines.create(tenantId, routine());
    await runtime.store.routines.addVersion(tenantId, v1.id, {
      parameters: v1.parameters,
      steps: v1.steps,
    });
    const keep = await runtime.store.routines.create(
      tenantId,
      routine({ goalTemplate: 'Other {x}' }),
    );

    const res = await call(DELETE, `/api/routines/${v1.id}`, { method: 'DELETE', key }, one(v1.id));
    expect(res.status).toBe(200);
    expect(DeleteRoutineResponse.parse(await res.json())).toEqual({ deleted: 2 });
    const left = RoutineList.parse(
      await (await call(list, '/api/routines?versions=all', { key })).json(),
    );
    expect(left.items.map((r) => r.id)).toEqual([keep.id]);

    const again = await call(
      DELETE,
      `/api/routines/${v1.id}`,
      { method: 'DELETE', key },
      one(v1.id),
    );
    expect(again.status).toBe(404);
  });

  it("answers 404 for another tenant's routine and changes nothing", async () => {
    const owner = await adminTenant();
    const { key } = await adminTenant();
    const theirs = await runtime.store.routines.create(owner.tenantId, routine());
    const path = `/api/routines/${theirs.id}`;
    const params = one(theirs.id);
    const answers = [
      await call(getOne, path, { key }, params),
      await call(PATCH, path, { method: 'PATCH', key, body: { enabled: false } }, params),
      await call(DELETE, path, { method: 'DELETE', key }, params),
      await call(getOne, '/api/routines/missing', { key }, one('missing')),
    ];
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(ErrorResponse.parse(await res.json()).error.code).toBe('NOT_FOUND');
    }
    expect(await runtime.store.routines.get(owner.tenantId, theirs.id)).toMatchObject({
      enabled: true,
      name: 'Add patient',
    });
  });
});
