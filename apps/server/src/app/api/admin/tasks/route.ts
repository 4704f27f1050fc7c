import { AdminTaskList, AdminTaskListQuery } from '@tandem/contracts';
import { createAdminService } from '../../../../server/admin-service';
import { createRoute } from '../../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = createRoute({
  name: 'GET /api/admin/tasks',
  auth: 'admin',
  query: AdminTaskListQuery,
  response: AdminTaskList,
  handler: ({ query, auth, runtime }) =>
    createAdminService(runtime.store).tasks(auth.tenantId, query),
});
