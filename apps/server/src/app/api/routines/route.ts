import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../server/create-route';
import { createRoutineService } from '../../../server/routine-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = createRoute(endpoints.routines, {
  handler: ({ query, auth, runtime }) =>
    createRoutineService(runtime.store).list(auth.tenantId, query),
});
