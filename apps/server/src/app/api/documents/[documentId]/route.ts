import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';
import { requireDocument } from '../_lib/access';
import { documentView } from '../_lib/views';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// One document without its text: what a client answered 202 follows until it is read.
export const GET = createRoute(endpoints.document, {
  handler: async ({ params, runtime, auth }) => ({
    document: documentView(await requireDocument(runtime, auth, params.documentId)),
  }),
});
