// Self-correction (docs/specs.md, "self-correction"): within the retry and consecutive-failure
// limits, produce a corrected action and a CorrectionRecord. A target that merely re-rendered under
// a new id is fixed deterministically; otherwise the model proposes the fix.
import { formatAction, type CorrectionRecord, type ParsedAction } from '@tandem/contracts';
import { randomUUID } from 'node:crypto';
import type { AgentDeps } from '../../deps';
import { matchContingency } from '../../engines/contingency';
import type { PageState } from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate, PendingAction } from '../../state';
import { validateAction } from '../action-check';
import { policyOf } from '../action-policy';
import { llmContext, logFor, withUsage } from '../node-context';
import { refusal } from '../outcomes';
import { actionSummaryOf, actionText, makePending, remapTarget } from '../pending-action';
import { CorrectionOutput, correctionPrompt, correctionSystem } from './prompt';

interface Fix {
  action: ParsedAction;
  strategy: CorrectionRecord['strategy'];
  why: string;
  /** The plan step's contingency condition this fix carries out. */
  contingency?: string;
  /** Found without the model: the critic has nothing to second-guess. */
  deterministic?: boolean;
}

/** Why the task may not be corrected again, or null while within both limits. */
export function correctionLimit(
  state: Pick<InteractStateType, 'retryCount' | 'consecutiveFailures'>,
  limits: AgentDeps['limits'],
): string | null {
  if (state.retryCount + 1 > limits.maxRetriesPerStep)
    return `${limits.maxRetriesPerStep} corrections of the same step`;
  if (state.consecutiveFailures >= limits.maxConsecutiveFailures)
    return `${limits.maxConsecutiveFailures} failed steps in a row`;
  return null;
}

/** The failed single action with its target re-found by role + name, if it moved. */
export function remappedFix(pending: PendingAction, page: PageState): Fix | null {
  if (pending.chain) return null;
  const action = remapTarget(pending.action, pending.targets, page);
  return action
    ? {
        action,
        strategy: 'ALTERNATIVE_SELECTOR',
        why: 'the element re-rendered under a new id',
        deterministic: true,
      }
    : null;
}

export const correction =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const log = logFor(deps, state, 'correction');
    const pending = state.pending;
    const page = state.page;
    if (!pending || !page) throw new Error('correction needs the failed action');
    const reason = state.lastVerification?.reason ?? 'verification failed';
    const limit = correctionLimit(state, deps.limits);
    if (limit) {
      log.warn('correction limit reached', {
        attempt: state.retryCount + 1,
        consecutiveFailures: state.consecutiveFailures,
      });
      // Max retries / consecutive failures fail the task with a 400 (docs/specs.md, "limits fail
      // the task with a 400").
      const message = `Gave up after ${limit}. Last failure: ${reason}`;
      return {
        status: 'failed',
        result: message,
        ...refusal('MAX_RETRIES_EXCEEDED', message, true),
      };
    }
    let tokens = state.tokens;
    let fix = remappedFix(pending, page) ?? contingencyFix(state, page);
    if (!fix && deps.llm.configured) {
      const proposed = await modelFix(deps, state, pending, page, reason);
      tokens = withUsage(state, proposed.result);
      fix = proposed.fix;
    }
    if (!fix) {
      const failed = actionText(pending);
      return {
        tokens,
        status: 'failed',
        result: `Could not correct the failed action ${failed}: ${reason}`,
      };
    }
    return { tokens, ...applyFix(deps, state, pending, page, fix) };
  };

/**
 * Conditional planning: the current step's first contingency whose condition the page shows
 * and whose action resolves, unless it was already tried on this step. Checked before the
 * model, so a foreseen obstacle costs no correction call.
 */
export function contingencyFix(state: InteractStateType, page: PageState): Fix | null {
  const step = state.plan?.steps[state.currentStepIndex];
  const used = state.corrections
    .filter((c) => c.stepIndex === state.currentStepIndex && c.strategy === 'CONTINGENCY')
    .map((c) => c.contingencyAction ?? '');
  const match = matchContingency(step, page, used);
  if (!match) return null;
  return {
    action: match.action,
    strategy: 'CONTINGENCY',
    why: `the plan foresaw this: ${match.why}, so ${match.contingency.action}`,
    contingency: match.contingency.action,
    deterministic: true,
  };
}

/** The model's correction, validated against the page (null when it names an invalid one). */
async function modelFix(
  deps: AgentDeps,
  state: InteractStateType,
  pending: PendingAction,
  page: PageState,
  reason: string,
) {
  const result = await deps.llm.generate({
    node: 'correction',
    actionType: 'SELF_CORRECTION',
    system: correctionSystem,
    prompt: correctionPrompt({
      goal: state.query,
      step: state.plan?.steps[state.currentStepIndex]?.description ?? state.query,
      failed: actionText(pending),
      reason,
      attempt: state.retryCount + 1,
      page,
    }),
    schema: CorrectionOutput,
    schemaName: 'correction',
    context: llmContext(state),
  });
  const checked = validateAction(result.output.action, page, policyOf(state));
  if (!checked.ok) {
    logFor(deps, state, 'correction').warn('correction rejected', {
      action: result.output.action,
      reason: checked.reason,
    });
  }
  const fix: Fix | null = checked.ok
    ? { action: checked.action, strategy: result.output.strategy, why: result.output.reason }
    : null;
  return { result, fix };
}

/** A terminal fix ends the task; any other becomes the step's retry, with its record. */
function applyFix(
  deps: AgentDeps,
  state: InteractStateType,
  pending: PendingAction,
  page: PageState,
  fix: Fix,
): InteractStateUpdate {
  const { action, strategy, why } = fix;
  if (action.name === 'fail') return { status: 'failed', result: action.args.reason };
  if (action.name === 'finish') return { status: 'completed', result: action.args.message ?? why };
  const attempt = state.retryCount + 1;
  const record: CorrectionRecord = {
    id: randomUUID(),
    stepIndex: state.currentStepIndex,
    attempt,
    failedAction: actionText(pending),
    correctedAction: formatAction(action),
    strategy,
    reason: why,
    ...(fix.contingency ? { contingencyAction: fix.contingency } : {}),
    createdAt: new Date().toISOString(),
  };
  logFor(deps, state, 'correction').info('corrected', {
    strategy,
    failed: record.failedAction,
    corrected: record.correctedAction,
    attempt,
  });
  const thought = `Correction (${strategy}): ${why}`;
  const corrected: PendingAction = {
    ...makePending({ state, page, thought, action, source: 'correction' }),
    // A correction retries the step: it reuses the step's task action record.
    taskActionId: pending.taskActionId,
    ...(fix.contingency ? { contingency: fix.contingency } : {}),
    ...(fix.deterministic ? { deterministic: true } : {}),
  };
  // In words as well as ids: a lesson learned from it must make sense on another page.
  record.failedSummary = actionSummaryOf(pending);
  record.correctedSummary = actionSummaryOf(corrected);
  return {
    retryCount: attempt,
    corrections: [...state.corrections, record],
    pending: corrected,
    nextActionReady: true,
  };
}
