import { ExtractionStreamEvent, endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../../../server/create-route';
import { caller } from '../../../documents/_lib/access';
import { runEventResponse } from '../../../documents/_lib/run-stream';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// A failed extraction's run, queued again (keeping what was saved); streams like a correction.
export const POST = createRoute(endpoints.extractionRetry, {
  handler: async ({ params, runtime, auth, request, log }) => {
    const run = await runtime.documentRuns.retry(caller(auth), params.extractionId);
    return rawResponse(runEventResponse(run.events, ExtractionStreamEvent, request.signal, log));
  },
});
