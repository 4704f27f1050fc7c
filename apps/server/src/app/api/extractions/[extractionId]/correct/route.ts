import { ExtractionStreamEvent, endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../../../server/create-route';
import { caller } from '../../../documents/_lib/access';
import { runEventResponse } from '../../../documents/_lib/run-stream';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// A correction in plain words; the answer streams like the extraction's (a job, followed on the
// event bus).
export const POST = createRoute(endpoints.extractionCorrect, {
  handler: async ({ params, body, runtime, auth, request, log }) => {
    const run = await runtime.documentRuns.startCorrection(
      caller(auth),
      params.extractionId,
      body.message,
    );
    return rawResponse(runEventResponse(run.events, ExtractionStreamEvent, request.signal, log));
  },
});
