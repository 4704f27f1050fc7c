import { endpoints } from '@tandem/contracts';
import { createRoute, withStatus } from '../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = createRoute(endpoints.health, {
  handler: async ({ runtime }) => {
    const health = await runtime.store.health();
    const body = {
      status: health.ok ? ('ok' as const) : ('degraded' as const),
      store: health.store,
      version: runtime.version,
      uptimeSeconds: Math.round((Date.now() - runtime.startedAt) / 1000),
      storeLatencyMs: Math.round(health.latencyMs * 100) / 100,
    };
    return health.ok ? body : withStatus(503, body);
  },
});
