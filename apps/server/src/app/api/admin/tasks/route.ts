import { endpoints } from '@tandem/contracts';
import { createAdminService } from '../../../../server/admin-service';
import { createRoute } from '../../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = createRoute(endpoints.adminTasks, {
  handler: ({ query, auth, runtime }) =>
    createAdminService(runtime.store).tasks(auth.tenantId, query),
});
