import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';
import { createRoutineService } from '../../../../server/routine-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Any key of the tenant, not only an admin's: the popup asks with the user's own key.
export const GET = createRoute(endpoints.routineOffers, {
  handler: ({ query, auth, runtime }) =>
    createRoutineService(runtime.store).offers(auth.tenantId, query.site),
});
