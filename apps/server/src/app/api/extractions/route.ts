import { ExtractionStreamEvent, endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../server/create-route';
import { caller } from '../documents/_lib/access';
import { runEventResponse } from '../documents/_lib/run-stream';
import { inlineFile } from '../documents/_lib/upload';
import { extractionView } from '../documents/_lib/views';
import { knowledgeErrors } from '../knowledge/_lib/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Extract a document with the agent (the document-extraction agent spec in docs/specs.md); the
// answer streams its flat events. The run is a job (document-runs.ts): this stream follows it on
// the event bus, wherever it runs.
export const POST = createRoute(endpoints.extractionsCreate, {
  handler: async ({ body, runtime, auth, request, log }) => {
    const run = await knowledgeErrors(() =>
      runtime.documentRuns.startExtraction(caller(auth), {
        ...(body.documentId ? { documentId: body.documentId } : {}),
        ...(body.upload ? { upload: inlineFile(body.upload) } : {}),
        ...(body.schema ? { schema: body.schema } : {}),
        ...(body.instructions ? { instructions: body.instructions } : {}),
      }),
    );
    return rawResponse(
      runEventResponse(run.events, ExtractionStreamEvent, request.signal, log, {
        'tandem-extraction-id': run.record.id,
      }),
    );
  },
});

export const GET = createRoute(endpoints.extractions, {
  handler: async ({ query, runtime, auth }) => {
    const page = await runtime.store.documentExtractions.list(auth.tenantId, {
      userId: auth.userId,
      limit: query.limit,
      ...(query.documentId ? { documentId: query.documentId } : {}),
      ...(query.cursor ? { cursor: query.cursor } : {}),
    });
    return { extractions: page.items.map(extractionView), nextCursor: page.nextCursor };
  },
});
