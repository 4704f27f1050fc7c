import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';
import { createRoutineService } from '../../../../server/routine-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Another tenant's routine is a 404 like a missing one (the service scopes every lookup).
export const GET = createRoute(endpoints.routine, {
  handler: ({ params, auth, runtime }) =>
    createRoutineService(runtime.store).get(auth.tenantId, params.routineId),
});

export const PATCH = createRoute(endpoints.routineUpdate, {
  handler: ({ params, body, auth, runtime }) =>
    createRoutineService(runtime.store).update(auth.tenantId, params.routineId, body),
});

export const DELETE = createRoute(endpoints.routineDelete, {
  handler: ({ params, auth, runtime }) =>
    createRoutineService(runtime.store).delete(auth.tenantId, params.routineId),
});
