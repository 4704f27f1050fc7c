import { buildOpenApiDocument, endpoints } from '@tandem/contracts';
import { createRoute } from '../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The OpenAPI 3.1 document of this API, built from the endpoint registry; the server's own
// origin is its `servers` entry, so a client generator pointed here needs nothing else.
export const GET = createRoute(endpoints.openapi, {
  handler: async ({ runtime, request }) =>
    buildOpenApiDocument({ version: runtime.version, serverUrl: new URL(request.url).origin }),
});
