import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = createRoute(endpoints.knowledgeSettings, {
  handler: async ({ runtime, auth }) => {
    const settings = await runtime.store.knowledge.getSettings(auth.tenantId);
    return { allowedDomains: settings.allowedDomains };
  },
});

// Admins only: it decides which sites' knowledge every user of the tenant gets.
export const PUT = createRoute(endpoints.knowledgeUpdateSettings, {
  handler: async ({ body, runtime, auth }) => {
    const allowedDomains = [...new Set(body.allowedDomains)];
    const settings = await runtime.store.knowledge.updateSettings(auth.tenantId, {
      allowedDomains,
    });
    return { allowedDomains: settings.allowedDomains };
  },
});
