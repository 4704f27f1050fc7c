// The routines admin pages' forms post here (POST /admin/routines/actions, field `action`):
// rename, enable, disable or delete a routine. Same checks as the pages (the admin cookie's key,
// role admin) plus the sign-in form's same-origin rule, then the same service as
// PATCH/DELETE /api/routines/{id}, scoped to the key's tenant. Every outcome is a 303 back to a
// page with `notice` or `error`, so a reload never re-posts.
import { RoutinePatchRequest } from '@tandem/contracts';
import { adminFormAuth, formText as field } from '../../../../server/admin-form';
import { fieldErrors, mapError } from '../../../../server/http-error';
import { seeOther } from '../../../../server/key-session';
import { createRoutineService } from '../../../../server/routine-service';
import type { Runtime } from '../../../../server/runtime';

export const ROUTINES_PAGE = '/admin/routines';

const routinePage = (id: string): string => `${ROUTINES_PAGE}/${encodeURIComponent(id)}`;

const back = (page: string, kind: 'notice' | 'error', message: string): Response =>
  seeOther(`${page}?${new URLSearchParams({ [kind]: message }).toString()}`);

/** The patch each action asks for; `delete` has none. */
function patchOf(action: string, form: FormData): unknown {
  if (action === 'rename') return { name: field(form, 'name') ?? '' };
  if (action === 'enable') return { enabled: true };
  if (action === 'disable') return { enabled: false };
  return null;
}

const ACTIONS = new Set(['rename', 'enable', 'disable', 'delete']);

export async function handleRoutineAction(runtime: Runtime, request: Request): Promise<Response> {
  const auth = await adminFormAuth(runtime, request, ROUTINES_PAGE);
  if (auth instanceof Response) return auth;
  const form = await request.formData().catch(() => null);
  const action = form ? field(form, 'action') : undefined;
  const id = form ? (field(form, 'routineId') ?? '').trim() : '';
  if (!form || action === undefined || !ACTIONS.has(action) || id === '') {
    return back(ROUTINES_PAGE, 'error', 'Unknown action.');
  }
  const routines = createRoutineService(runtime.store);
  try {
    if (action === 'delete') {
      const { deleted } = await routines.delete(auth.tenantId, id);
      const what = deleted === 1 ? 'its only version' : `its ${deleted} versions`;
      return back(ROUTINES_PAGE, 'notice', `Deleted the routine and ${what}.`);
    }
    const parsed = RoutinePatchRequest.safeParse(patchOf(action, form));
    if (!parsed.success) {
      const problems = fieldErrors(parsed.error).map((f) => `${f.path}: ${f.message}`);
      return back(routinePage(id), 'error', `Not saved: ${problems.join('; ')}`);
    }
    const routine = await routines.update(auth.tenantId, id, parsed.data);
    const notice =
      action === 'rename'
        ? `Renamed to “${routine.name}”.`
        : routine.enabled
          ? 'Enabled: matching goals run this routine again.'
          : 'Disabled: no version of this routine runs until it is enabled.';
    return back(routinePage(id), 'notice', notice);
  } catch (error) {
    const mapped = mapError(error);
    if (mapped.unexpected) runtime.log.error('routine admin action failed', { action, error });
    const page = mapped.body.error.code === 'NOT_FOUND' ? ROUTINES_PAGE : routinePage(id);
    return back(page, 'error', mapped.body.error.message);
  }
}
