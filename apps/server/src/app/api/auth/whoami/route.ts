import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Lets the extension's options page check a server URL + API key before saving them.
export const GET = createRoute(endpoints.whoami, {
  handler: async ({ auth, runtime }) => {
    const tenant = await runtime.store.tenants.get(auth.tenantId);
    return {
      tenantId: auth.tenantId,
      tenantName: tenant?.name ?? '',
      userId: auth.userId,
      role: auth.role,
      store: runtime.store.kind,
    };
  },
});
