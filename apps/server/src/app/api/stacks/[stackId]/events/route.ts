import { StackStreamEvent, endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../../../server/create-route';
import { caller, requireStack } from '../../../documents/_lib/access';
import { runEventResponse, unnumbered } from '../../../documents/_lib/run-stream';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Follow a stack's run from any process: the events its run publishes on the bus. A stack with
// no run going answers its `complete` at once.
export const GET = createRoute(endpoints.stackEvents, {
  handler: async ({ params, runtime, auth, request, log }) => {
    const stack = await requireStack(runtime, auth, params.stackId);
    const events = await runtime.documents.followStack(caller(auth), stack.id);
    return rawResponse(runEventResponse(unnumbered(events), StackStreamEvent, request.signal, log));
  },
});
