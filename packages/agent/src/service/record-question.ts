// A question pauses the task (spec 003 ASK_USER; the dynamic interrupt's ask path uses it too):
// the task is written with status needs_user_input — created if the question comes before its
// first action — the question becomes the session's message, and the answer continues it.
import type { NeedsUserInputResponse } from '@tandem/contracts';
import type { Store } from '@tandem/store';
import { questionResponse, type QuestionOutcome } from './response';
import type { StepRecordInput } from './record-step';
import { writeTask } from './record-step';
import { taskPatchFrom } from './task-record';

export async function recordQuestion(
  store: Store,
  input: Omit<StepRecordInput, 'verifiedActionId'>,
  outcome: QuestionOutcome,
): Promise<NeedsUserInputResponse> {
  const { caller, state, existing, started } = input;
  const facts = { durationMs: Date.now() - started, verifiedPrevious: false };
  const patch = { ...taskPatchFrom(state, existing, facts), status: 'needs_user_input' as const };
  await writeTask(store, input, patch);
  await store.messages.append(caller.tenantId, {
    sessionId: state.sessionId,
    role: 'assistant',
    content: outcome.message,
    taskId: state.taskId,
  });
  return questionResponse(state, outcome);
}
