// A question pauses the task (ASK_USER, docs/specs.md, "reasoning before planning"; the dynamic
// interrupt's ask path uses it too): the task is written with status needs_user_input — created if
// the question comes before its first action — the question becomes the session's message, and the
// answer continues it.
import type { NeedsUserInputResponse } from '@tandem/contracts';
import type { Store } from '@tandem/store';
import { questionResponse, type QuestionOutcome } from './response';
import type { StepRecordInput } from './record-step';
import { writeTask } from './record-step';
import { taskPatchFrom, verdictPatchFrom } from './task-record';

export async function recordQuestion(
  store: Store,
  input: StepRecordInput,
  outcome: QuestionOutcome,
): Promise<NeedsUserInputResponse> {
  const { caller, state, existing, started, verifiedActionId } = input;
  const facts = { durationMs: Date.now() - started, verifiedPrevious: verifiedActionId !== null };
  const patch = { ...taskPatchFrom(state, existing, facts), status: 'needs_user_input' as const };
  // A question mid-task (the dynamic interrupt) comes after the previous action was verified.
  const verdict = verdictPatchFrom(state);
  // One unit of work, as a step is (record-step.ts).
  await store.transaction(async () => {
    await writeTask(store, input, patch);
    if (verifiedActionId && verdict) {
      await store.taskActions.update(caller.tenantId, verifiedActionId, verdict);
    }
    await store.messages.append(caller.tenantId, {
      sessionId: state.sessionId,
      role: 'assistant',
      content: outcome.message,
      taskId: state.taskId,
    });
  });
  return questionResponse(state, outcome);
}
