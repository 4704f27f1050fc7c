// The critic (docs/specs.md, "critic loop"): a light review of
// the generated action before the client runs it, only when it is worth a call — finish() and
// fail(), a value typed into a sensitive field, a generator unsure of itself (confidence below
// 0.85), or the step after a failed verification. A rejection sends the model back to action
// generation with the reason, in the same request (no client round trip), up to
// MAX_CRITIC_REJECTIONS per step. The critic fails open: if it errors, the action runs.
import { replaying } from '../../routines/run';
import { formatAction, isTerminalAction } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import type { InteractStateType, InteractStateUpdate, PendingAction } from '../../state';
import { fellBack, llmContext, logFor, withUsage } from '../node-context';
import { actionSummaryOf } from '../pending-action';
import { CriticOutput, criticPrompt, criticSystem } from './prompt';

/** Rejections per step; after them the last proposal runs and verification judges it. */
export const MAX_CRITIC_REJECTIONS = 2;
export const CRITIC_CONFIDENCE = 0.85;

/** Fields whose value must be right the first time: secrets, money, identity numbers. */
const SENSITIVE_FIELD =
  /pass(word|code)?|\bpin\b|card|cvv|cvc|iban|account|routing|\bssn\b|social security|tax id|national id/i;

function typesIntoSensitiveField(pending: PendingAction): boolean {
  if (pending.action.name !== 'setValue') return false;
  const target = pending.targets[0];
  return target !== undefined && SENSITIVE_FIELD.test(target.name);
}

/** Whether the pending action gets a review (and the critic still may reject on this step). */
export function needsCritic(state: InteractStateType): boolean {
  const pending = state.pending;
  if (!pending || state.criticRejections >= MAX_CRITIC_REJECTIONS) return false;
  // Made without the model (a re-found target, a finish the collect count decided): no claim
  // of the model's to review.
  if (pending.deterministic) return false;
  // A model's correction always follows a failed verification: it is reviewed too.
  if (pending.source === 'correction') return true;
  if (pending.source !== 'action_generation') return false;
  // A routine step the model heals is checked against the outcome the routine recorded, and
  // may only type the run's values: reviewed only when it ends the task or types a secret.
  if (replaying(state.routineRun) && state.routineRun.healing)
    return isTerminalAction(pending.action) || typesIntoSensitiveField(pending);
  return (
    isTerminalAction(pending.action) ||
    typesIntoSensitiveField(pending) ||
    (state.actionConfidence !== null && state.actionConfidence < CRITIC_CONFIDENCE) ||
    state.lastVerification?.success === false
  );
}

export const critic =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const { pending, page } = state;
    if (!pending || !page) return {};
    const log = logFor(deps, state, 'critic');
    try {
      const result = await deps.llm.generate({
        node: 'critic',
        actionType: 'CRITIC',
        system: criticSystem,
        prompt: criticPrompt({
          query: state.query,
          step: state.plan?.steps[state.currentStepIndex]?.description ?? '',
          action: formatAction(pending.action),
          actionInWords: actionSummaryOf(pending),
          thought: pending.thought,
          page,
        }),
        schema: CriticOutput,
        schemaName: 'critic_verdict',
        context: llmContext(state),
      });
      const tokens = withUsage(state, result);
      const { approve, reason, evidence } = result.output;
      log.info('reviewed', { approve, reason, action: formatAction(pending.action) });
      if (approve) {
        // A finish carries what the critic saw, so the answer rests on evidence from the page.
        const thought = isTerminalAction(pending.action)
          ? `${pending.thought}\nCritic: ${evidence}`
          : pending.thought;
        return { tokens, pending: { ...pending, thought }, kpiCounts: { criticReviews: 1 } };
      }
      return {
        tokens,
        pending: null,
        criticFeedback: `${formatAction(pending.action)} was rejected by a reviewer: ${reason}`,
        criticRejections: state.criticRejections + 1,
        kpiCounts: { criticReviews: 1, criticRejections: 1 },
        // A rejected correction never ran: its record goes, action generation proposes anew.
        ...(pending.source === 'correction'
          ? { corrections: state.corrections.slice(0, -1), nextActionReady: false }
          : {}),
      };
    } catch (error) {
      log.warn('critic failed; the action runs unreviewed', { error });
      const note = fellBack(deps, 'critic', 'Not reviewed', error);
      return { pending: { ...pending, thought: `${pending.thought}\n${note}` } };
    }
  };
