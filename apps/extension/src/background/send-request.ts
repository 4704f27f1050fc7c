// Sending one interact request until the server answers it: under one idempotency key kept in
// the run (so a retry, even from a restarted worker, can never make the server decide twice
// and the page act twice), waiting out 429s, outages and a busy task with the wait recorded
// for the live view, and ending every wait at once on Stop.
import type { InteractRequestInput, InteractResponse } from '@tandem/contracts';
import type { ApiClient } from '../shared/api-client';
import type { RunWait } from '../shared/run-state';
import { retryDecision } from './request-retry';
import { RunStopped, type RunControl, type Timing } from './run-control';
import type { RunRecord } from './run-record';

export interface Sender {
  api: Pick<ApiClient, 'interact' | 'cancel'>;
  run: RunRecord;
  control: RunControl;
  timing: Timing;
  newRequestKey: () => string;
  retryBudgetMs?: number;
}

/** The request's answer; throws the last error once retrying is pointless, RunStopped on Stop. */
export async function sendInteract(
  sender: Sender,
  request: InteractRequestInput,
): Promise<InteractResponse> {
  await finishStoredWait(sender);
  let body = { ...request, idempotencyKey: await requestKey(sender) };
  const firstSentAt = sender.timing.now();
  let waits = 0;
  let resent = false;
  for (;;) {
    sender.control.check();
    // A new task's first request is not aborted on Stop: the server creates the task as it
    // answers, and only that answer names it, so the task can then be cancelled too.
    const opensTask = !body.taskId;
    const answer = sender.api.interact(body, opensTask ? undefined : sender.control.signal);
    try {
      return await sender.control.guard(answer);
    } catch (error) {
      if (sender.control.stopped) {
        if (opensTask) cancelWhenAnswered(sender, answer);
        throw new RunStopped();
      }
      const decision = retryDecision(error, {
        attempt: waits + 1,
        elapsedMs: sender.timing.now() - firstSentAt,
        random: sender.timing.random(),
        resent,
        startsInSession: !body.taskId && !!body.sessionId,
        budgetMs: sender.retryBudgetMs,
      });
      if (decision.kind === 'give_up') throw error;
      if (decision.kind === 'wait') {
        waits += 1;
        await waitBeforeResending(sender, decision.reason, decision.delayMs, waits);
        continue;
      }
      resent = true;
      if (decision.kind === 'new_session') {
        const { sessionId: _unknown, ...fresh } = body;
        body = fresh;
        await sender.run.save({ sessionId: undefined });
      }
      body = { ...body, idempotencyKey: await requestKey(sender, true) };
    }
  }
}

/** The turn's key: the one kept in the run (a retry, or a worker that restarted), else new. */
async function requestKey(sender: Sender, fresh = false): Promise<string> {
  const kept = sender.run.current.requestKey;
  if (kept && !fresh) return kept;
  const key = sender.newRequestKey();
  // Kept before sending: a worker that dies while waiting for the answer reuses it.
  await sender.run.save({ requestKey: key });
  return key;
}

async function waitBeforeResending(
  sender: Sender,
  reason: RunWait['reason'],
  delayMs: number,
  attempt: number,
): Promise<void> {
  await sender.run.save({ wait: { reason, until: sender.timing.now() + delayMs, attempt } });
  await sender.timing.sleep(delayMs, sender.control.signal);
  await sender.run.save({ wait: undefined });
}

/** A worker that Chrome stopped mid-wait finishes that wait before it sends again. */
async function finishStoredWait(sender: Sender): Promise<void> {
  const wait = sender.run.current.wait;
  if (!wait) return;
  const left = wait.until - sender.timing.now();
  if (left > 0) await sender.timing.sleep(left, sender.control.signal);
  await sender.run.save({ wait: undefined });
}

/** Cancels the task a stopped run's first request created, once its answer names it. */
function cancelWhenAnswered(sender: Sender, answer: Promise<InteractResponse>): void {
  void answer
    .then((response) => (response.taskId ? sender.api.cancel(response.taskId) : undefined))
    // Best effort, like Stop's own cancel: the task expires on its own otherwise.
    .catch(() => undefined);
}
