import { ExtractionStreamEvent, endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../../../server/create-route';
import { caller, requireExtraction } from '../../../documents/_lib/access';
import { runEventResponse } from '../../../documents/_lib/run-stream';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Follow an extraction's run from any process: the events its run publishes on the bus.
export const GET = createRoute(endpoints.extractionEvents, {
  handler: async ({ params, runtime, auth, request, log }) => {
    const extraction = await requireExtraction(runtime, auth, params.extractionId);
    const events = await runtime.documents.followExtraction(caller(auth), extraction.id);
    return rawResponse(runEventResponse(events, ExtractionStreamEvent, request.signal, log));
  },
});
