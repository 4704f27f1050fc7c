// The user's decision on a high-risk step, as the request after it reports:
// approved, the step is verified as sent; edited, as the user changed it (its typed text or
// chosen option only); rejected, nothing ran: the step is recorded as refused by the user, the
// model hears why and may not propose the same action again, and a single command ends.
import {
  formatAction,
  isAllowedEdit,
  safeParseAction,
  type ApprovalDecision,
  type ParsedAction,
  type VerificationResult,
} from '@tandem/contracts';
import type { InteractStateType, InteractStateUpdate, PendingAction } from '../../state';
import { fallBack, replaying } from '../../routines/run';
import { actionSummaryOf, sentText } from '../pending-action';

/** The pending action as the user edited it, or why the edit is not one they may make. */
export function editedPending(
  pending: PendingAction,
  actions: readonly string[],
): PendingAction | string {
  const sent = pending.chain ? pending.chain.actions.map((a) => a.action) : [sentText(pending)];
  if (actions.length !== sent.length)
    return `the edit has ${actions.length} actions, the step had ${sent.length}`;
  const edited: ParsedAction[] = [];
  for (const [i, text] of actions.entries()) {
    const parsed = safeParseAction(text);
    const original = safeParseAction(sent[i] ?? '');
    if (!parsed.ok) return `edited action ${i + 1} is not an action: ${parsed.error.message}`;
    if (!original.ok || !isAllowedEdit(original.action, parsed.action))
      return `edited action ${i + 1} (${text}) is not the same action on the same element`;
    edited.push(parsed.action);
  }
  const first = edited[0] as ParsedAction;
  return {
    ...pending,
    action: first,
    chain: pending.chain
      ? {
          ...pending.chain,
          actions: pending.chain.actions.map((a, i) => ({
            ...a,
            action: formatAction(edited[i] as ParsedAction),
          })),
        }
      : null,
  };
}

function rejectedVerdict(reason: string): VerificationResult {
  return {
    success: false,
    confidence: 1,
    reason,
    actionSucceeded: false,
    taskCompleted: false,
    goalAchieved: false,
    verificationTier: 1,
    tokensSaved: 0,
  };
}

/** What the decision changes before the task goes on; {} for a plain approval. */
export function approvalUpdate(
  state: InteractStateType,
  pending: PendingAction | null,
  decision: ApprovalDecision | undefined,
): InteractStateUpdate {
  if (!decision || !pending || decision.decision === 'approved') return {};
  if (decision.decision === 'edited') {
    const edited = editedPending(pending, decision.actions ?? []);
    if (typeof edited === 'string')
      return {
        outcome: {
          kind: 'refused',
          code: 'VALIDATION_ERROR',
          message: `approval.actions: ${edited}.`,
          failTask: true,
        },
      };
    return { pending: edited };
  }
  const note = decision.note ? `: “${decision.note}”` : '';
  const texts = pending.chain ? pending.chain.actions.map((a) => a.action) : [sentText(pending)];
  const run = state.routineRun;
  const rejected = {
    // On the step it judges, which already says what it would have done.
    lastVerification: rejectedVerdict(`You rejected it${note}`),
    rejectedActions: [...new Set([...state.rejectedActions, ...texts])],
    // A routine step the user said no to: the routine stops, the agent looks for another way.
    ...(replaying(run)
      ? { routineRun: fallBack(run, `you rejected ${sentText(pending)}${note}`) }
      : {}),
  };
  // A single command the user said no to is done with; a task looks for another way.
  if (state.complexity === 'SIMPLE')
    return {
      ...rejected,
      status: 'failed',
      result: `You rejected “${actionSummaryOf(pending)}”${note}.`,
    };
  return {
    ...rejected,
    resumedFromPageRead: true,
    criticFeedback:
      `The user rejected ${sentText(pending)}${note}. Nothing was executed. Do not ` +
      'propose it again: reach the goal another way, or finish or fail saying why.',
  };
}
