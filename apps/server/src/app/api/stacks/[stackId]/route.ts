import { endpoints } from '@tandem/contracts';
import { stackToCsv } from '@tandem/documents';
import { createRoute, rawResponse } from '../../../../server/create-route';
import { csvAttachment } from '../../tasks/_lib/task-access';
import { requireStack } from '../../documents/_lib/access';
import { stackView } from '../../documents/_lib/views';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = createRoute(endpoints.stack, {
  handler: async ({ params, query, runtime, auth }) => {
    const stack = await requireStack(runtime, auth, params.stackId);
    const rows = await runtime.store.stacks.listRows(auth.tenantId, stack.id);
    if (query.format === 'csv') {
      return rawResponse(csvAttachment(`stack-${stack.id}.csv`, stackToCsv(stack, rows)));
    }
    return stackView(stack, rows);
  },
});
