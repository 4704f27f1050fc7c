import { StackStreamEvent, endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../server/create-route';
import { caller } from '../documents/_lib/access';
import { startInSlot } from '../documents/_lib/run-slot';
import { runEventResponse, unnumbered } from '../documents/_lib/run-stream';
import { stackView } from '../documents/_lib/views';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Several documents into one table; the answer streams the stacks agent's events.
export const POST = createRoute(endpoints.stacksCreate, {
  handler: async ({ body, runtime, auth, request, log }) => {
    const run = await startInSlot(runtime, auth, () =>
      runtime.documents.startStack(caller(auth), {
        documentIds: body.documentIds,
        ...(body.name ? { name: body.name } : {}),
        ...(body.columns ? { columns: body.columns } : {}),
        ...(body.instructions ? { instructions: body.instructions } : {}),
      }),
    );
    return rawResponse(
      runEventResponse(unnumbered(run.events), StackStreamEvent, request.signal, log),
    );
  },
});

export const GET = createRoute(endpoints.stacks, {
  handler: async ({ runtime, auth }) => ({
    stacks: (await runtime.store.stacks.list(auth.tenantId, { userId: auth.userId })).map(
      (stack) => {
        const { rows: _rows, ...view } = stackView(stack, []);
        return view;
      },
    ),
  }),
});
