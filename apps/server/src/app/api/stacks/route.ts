import { StackStreamEvent, endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../server/create-route';
import { caller } from '../documents/_lib/access';
import { runEventResponse, unnumbered } from '../documents/_lib/run-stream';
import { stackView } from '../documents/_lib/views';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Several documents into one table; the answer streams the stacks agent's events. The run is a
// job (stack-runs.ts): this stream follows it on the event bus, wherever it runs.
export const POST = createRoute(endpoints.stacksCreate, {
  handler: async ({ body, runtime, auth, request, log }) => {
    const run = await runtime.stackRuns.start(caller(auth), {
      documentIds: body.documentIds,
      ...(body.name ? { name: body.name } : {}),
      ...(body.columns ? { columns: body.columns } : {}),
      ...(body.instructions ? { instructions: body.instructions } : {}),
    });
    return rawResponse(
      runEventResponse(unnumbered(run.events), StackStreamEvent, request.signal, log, {
        'tandem-stack-id': run.record.id,
      }),
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
