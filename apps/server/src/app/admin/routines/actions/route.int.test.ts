// POST /admin/routines/actions through a real runtime and in-memory store: the admin cookie and
// the same-origin rule guard it like the admin pages, every action is tenant-scoped and acts on
// every version, and every outcome is a 303 back to a page with a message it shows.
import type { NewRoutine } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_COOKIE } from '../../../../server/admin-session';
import type { Runtime } from '../../../../server/runtime';
import { tenantWithKey, testRuntime } from '../../../../test/harness';
import { handleRoutineAction } from './routine-actions';

const ORIGIN = 'http://127.0.0.1:3000';

let runtime: Runtime;
let admin: { tenantId: string; key: string };

function post(
  fields: Record<string, string>,
  options: { key?: string | null; origin?: string } = {},
): Promise<Response> {
  const key = options.key === undefined ? admin.key : options.key;
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    origin: options.origin ?? ORIGIN,
  };
  if (key !== null) headers.cookie = `${ADMIN_COOKIE}=${encodeURIComponent(key)}`;
  return handleRoutineAction(
    runtime,
    new Request(`${ORIGIN}/admin/routines/actions`, {
      method: 'POST',
      headers,
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

function outcome(res: Response): { path: string; notice: string | null; error: string | null } {
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get('location') ?? '', ORIGIN);
  return {
    path: location.pathname,
    notice: location.searchParams.get('notice'),
    error: location.searchParams.get('error'),
  };
}

const draft: NewRoutine = {
  site: 'emr.test',
  goalTemplate: 'Add patient {firstName}',
  name: 'Add patient',
  parameters: [{ name: 'firstName', example: 'Jas', source: 'goal', steps: [0] }],
  steps: [
    {
      action: 'setValue',
      target: {
        fingerprint: 'inp|First name|f0|#0',
        locators: [{ by: 'role-name', role: 'inp', name: 'First name' }],
      },
      value: '{firstName}',
      chained: false,
      expect: null,
      safety: 'safe',
      optional: false,
    },
  ],
};

async function twoVersions(tenantId: string) {
  const v1 = await runtime.store.routines.create(tenantId, draft);
  const v2 = await runtime.store.routines.addVersion(tenantId, v1.id, {
    parameters: v1.parameters,
    steps: v1.steps,
  });
  if (!v2) throw new Error('no version 2');
  return { v1, v2 };
}

beforeEach(async () => {
  runtime = await testRuntime();
  admin = await tenantWithKey(runtime.store, 'admin');
});
afterEach(async () => {
  await runtime.close();
});

describe('POST /admin/routines/actions', () => {
  it('sends a browser without the cookie to sign in; 401/403 for bad keys; refuses other origins', async () => {
    const { v1 } = await twoVersions(admin.tenantId);
    const signIn = await post({ action: 'delete', routineId: v1.id }, { key: null });
    expect(signIn.headers.get('location')).toBe('/admin/login?next=%2Fadmin%2Froutines');
    expect((await post({ action: 'delete', routineId: v1.id }, { key: 'tdm_nope' })).status).toBe(
      401,
    );
    const user = await tenantWithKey(runtime.store, 'user');
    expect((await post({ action: 'delete', routineId: v1.id }, { key: user.key })).status).toBe(
      403,
    );
    const csrf = await post(
      { action: 'delete', routineId: v1.id },
      { origin: 'https://evil.example' },
    );
    expect(csrf.status).toBe(403);
    expect(await runtime.store.routines.get(admin.tenantId, v1.id)).not.toBeNull();
  });

  it('renames, disables and enables every version, back on the routine page', async () => {
    const { v1, v2 } = await twoVersions(admin.tenantId);
    const renamed = outcome(await post({ action: 'rename', routineId: v2.id, name: ' Admit ' }));
    expect(renamed).toEqual({
      path: `/admin/routines/${v2.id}`,
      notice: 'Renamed to “Admit”.',
      error: null,
    });
    const disabled = outcome(await post({ action: 'disable', routineId: v2.id }));
    expect(disabled.notice).toMatch(/^Disabled/);
    for (const id of [v1.id, v2.id]) {
      expect(await runtime.store.routines.get(admin.tenantId, id)).toMatchObject({
        name: 'Admit',
        enabled: false,
      });
    }
    expect(outcome(await post({ action: 'enable', routineId: v1.id })).notice).toMatch(/^Enabled/);
    expect((await runtime.store.routines.get(admin.tenantId, v2.id))?.enabled).toBe(true);

    const blank = outcome(await post({ action: 'rename', routineId: v2.id, name: '   ' }));
    expect(blank.path).toBe(`/admin/routines/${v2.id}`);
    expect(blank.error).toMatch(/^Not saved: name:/);
    expect((await runtime.store.routines.get(admin.tenantId, v2.id))?.name).toBe('Admit');
  });

  it('deletes every version, back on the list; another tenant’s routine is not found', async () => {
    const { v1, v2 } = await twoVersions(admin.tenantId);
    const other = await tenantWithKey(runtime.store, 'admin');
    const theirs = await runtime.store.routines.create(other.tenantId, draft);

    const foreign = outcome(await post({ action: 'delete', routineId: theirs.id }));
    expect(foreign).toEqual({
      path: '/admin/routines',
      notice: null,
      error: `No routine ${theirs.id}.`,
    });
    expect(await runtime.store.routines.get(other.tenantId, theirs.id)).not.toBeNull();

    const deleted = outcome(await post({ action: 'delete', routineId: v1.id }));
    expect(deleted).toEqual({
      path: '/admin/routines',
      notice: 'Deleted the routine and its 2 versions.',
      error: null,
    });
    expect(await runtime.store.routines.get(admin.tenantId, v2.id)).toBeNull();

    expect(outcome(await post({ action: 'constructor', routineId: v1.id })).error).toBe(
      'Unknown action.',
    );
  });
});
