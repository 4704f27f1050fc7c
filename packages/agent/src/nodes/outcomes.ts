// How a node ends the request's run (state.ts `RunOutcome`). The service answers from the
// outcome and the state; nodes never build a client response themselves.
import type { ErrorCode } from '@tandem/contracts';
import type { InteractStateType, InteractStateUpdate, PendingQuestion } from '../state';

/** Questions one task may ask before it goes on with what it has. */
export const MAX_QUESTIONS = 3;

/** Send `pending` (an action, a chain, or the terminal finish/fail). */
export const sendAction = (): InteractStateUpdate => ({ outcome: { kind: 'action' } });

/**
 * Send `pageRequest`: the client answers with a snapshot and executes nothing (docs/specs.md, "page
 * snapshots").
 */
export const readPage = (thought: string): InteractStateUpdate => ({
  outcome: { kind: 'read_page', thought },
});

/**
 * Ask the user for what only they know. The task pauses on the question (before dispatch, like
 * an action); the answer resumes it at `askedBy`.
 */
export function askUser(
  state: Pick<InteractStateType, 'questionsAsked'>,
  askedBy: PendingQuestion['askedBy'],
  question: { message: string; missingInformation: string[]; thought?: string },
): InteractStateUpdate {
  return {
    outcome: { kind: 'ask_user', ...question },
    question: { askedBy, message: question.message },
    questionsAsked: state.questionsAsked + 1,
  };
}

/** An error answer; the status is the contract's for `code` (ERROR_HTTP_STATUS). */
export function refusal(code: ErrorCode, message: string, failTask: boolean): InteractStateUpdate {
  return { outcome: { kind: 'refused', code, message, failTask } };
}
