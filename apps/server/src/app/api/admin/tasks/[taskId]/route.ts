import { endpoints } from '@tandem/contracts';
import { createAdminService } from '../../../../../server/admin-service';
import { createRoute } from '../../../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The in-app trace of one task; another tenant's task is a 404 like a missing one.
export const GET = createRoute(endpoints.adminTask, {
  handler: ({ params, auth, runtime }) =>
    createAdminService(runtime.store).task(auth.tenantId, params.taskId),
});
