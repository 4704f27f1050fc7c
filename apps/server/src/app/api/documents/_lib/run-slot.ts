// A stack run holds one of its tenant's DOCUMENT_RUNS_PER_TENANT slots from its start to its end
// (the run outlives the request when the client goes away): the 201st concurrent run of one
// tenant is told 429 rather than started. Stacks run in the request's process;
// extraction runs are jobs and hold their slot through server/document-runs.ts.
import type { AuthContext } from '../../../../server/auth';
import type { Runtime } from '../../../../server/runtime';
import { claimSlot, DOCUMENT_RUNS } from '../../../../server/tenant-slots';

export async function startInSlot<R extends { done: Promise<void> }>(
  runtime: Runtime,
  auth: AuthContext,
  start: () => Promise<R>,
): Promise<R> {
  const slot = await claimSlot(
    runtime.store.idempotency,
    auth.tenantId,
    DOCUMENT_RUNS,
    runtime.env.DOCUMENT_RUNS_PER_TENANT,
  );
  let run: R;
  try {
    run = await start();
  } catch (error) {
    await slot.release();
    throw error;
  }
  // `done` never rejects: it settles once the run's outcome is stored.
  void run.done.finally(() => slot.release());
  return run;
}
