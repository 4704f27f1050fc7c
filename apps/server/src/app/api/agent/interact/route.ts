import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The interact loop (docs/specs.md, "the interact flow"): auth, a per-tenant rate limit
// (RATE_LIMIT_INTERACT_PER_MIN), validation, then the agent.
export const POST = createRoute(endpoints.interact, {
  spendsTokens: true,
  rateLimit: 'interact',
  handler: ({ body, auth, runtime, log }) => runtime.agent.interact(auth, body, log),
});
