import { ExtractionStreamEvent, endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../../../server/create-route';
import { caller, requireExtraction } from '../../../documents/_lib/access';
import { runEventResponse } from '../../../documents/_lib/run-stream';
import { lastEventSeq } from '../../../../../server/sse';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Follow an extraction's run from any process: the events its run publishes on the bus. A
// reconnect with Last-Event-ID (a write's history seq) first gets the writes it missed.
export const GET = createRoute(endpoints.extractionEvents, {
  handler: async ({ params, runtime, auth, request, log }) => {
    const extraction = await requireExtraction(runtime, auth, params.extractionId);
    const afterSeq = lastEventSeq(request);
    const events = await runtime.documents.followExtraction(
      caller(auth),
      extraction.id,
      afterSeq === undefined ? {} : { afterSeq },
    );
    return rawResponse(runEventResponse(events, ExtractionStreamEvent, request.signal, log));
  },
});
