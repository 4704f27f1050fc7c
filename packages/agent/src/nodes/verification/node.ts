// Observation-based, tiered verification of the previous action (spec 003 Step 3.3, Phase 5):
// tier 1 deterministic (0 tokens) for intermediate steps; tier 2 (light LLM) for a final step
// whose mechanics checked out; tier 3 (full LLM) when the evidence is inconclusive.
// goalAchieved = task_completed && confidence >= 0.70.
import type { VerificationResult } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import { verifyTier1 } from '../../engines/tier1-verification';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { appendPrevious, completesStep, llmContext, logFor, withUsage } from '../shared';
import { fullPrompt, lightPrompt, VerificationOutput, verificationSystem } from './prompt';

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

export function isChainBreak(state: InteractStateType): boolean {
  const chain = state.pending?.chain;
  const index = state.page?.lastExecutedActionIndex;
  if (!chain || index === null || index === undefined) return false;
  return (
    index < chain.actions.length - 1 &&
    (state.page?.lastActionStatus === 'failure' || state.page?.chainActionError !== null)
  );
}

export const verification =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const log = logFor(deps, state, 'verification');
    const pending = state.pending;
    const page = state.page;
    if (!pending || !page)
      throw new Error('verification needs the pending action and the new page');

    if (isChainBreak(state)) {
      const at = (page.lastExecutedActionIndex ?? -1) + 1;
      const result: VerificationResult = {
        success: false,
        confidence: 0.95,
        reason: `the chain stopped at action ${at} (${pending.chain?.actions[at]?.action ?? '?'}): ${page.chainActionError ?? page.lastActionError ?? 'failed'}`,
        actionSucceeded: false,
        taskCompleted: false,
        goalAchieved: false,
        verificationTier: 1,
        tokensSaved: 0,
      };
      log.info('chain partially failed', { at, reason: result.reason });
      scoreVerification(deps, result, pending.source === 'correction');
      return { lastVerification: result };
    }

    const t1 = verifyTier1(pending, page);
    const plan = state.plan;
    const isFinalStep =
      state.complexity === 'SIMPLE' || !plan || state.currentStepIndex >= plan.steps.length - 1;
    const full = fullPrompt({
      goal: state.query,
      action: pending.chain
        ? pending.chain.actions.map((a) => a.action).join('; ')
        : pending.action,
      expected: pending.expectedOutcome?.description ?? '',
      before: pending.beforeState.semanticSkeleton,
      observations: t1.observations,
      page,
    });
    let tier: 1 | 2 | 3 = 1;
    let success = t1.success;
    let confidence = t1.confidence;
    let reason = t1.reason;
    let taskCompleted = state.complexity === 'SIMPLE' ? t1.success : false;
    let tokens = state.tokens;

    const needsLlm =
      deps.llm.configured &&
      (!t1.conclusive || (state.complexity === 'COMPLEX' && isFinalStep && t1.success));
    if (needsLlm) {
      const light = t1.conclusive && t1.success;
      tier = light ? 2 : 3;
      const result = await deps.llm.generate({
        node: 'verification',
        actionType: 'VERIFICATION',
        system: verificationSystem,
        prompt: light
          ? lightPrompt({
              goal: state.query,
              action: pending.action,
              observations: t1.observations,
            })
          : full,
        schema: VerificationOutput,
        schemaName: 'verification_verdict',
        context: llmContext(state),
      });
      tokens = withUsage({ ...state, tokens }, result);
      success = result.output.action_succeeded;
      confidence = result.output.confidence;
      reason = result.output.reason;
      taskCompleted = result.output.task_completed;
    } else if (
      !deps.llm.configured &&
      isFinalStep &&
      t1.success &&
      state.complexity === 'COMPLEX'
    ) {
      // No model to judge the goal: a final step that worked and shows success counts.
      taskCompleted = page.hasSuccess;
    }
    const tokensSaved =
      tier === 1
        ? estimateTokens(verificationSystem + full)
        : tier === 2
          ? Math.max(0, estimateTokens(full) - estimateTokens(t1.observations.join(' ')))
          : 0;
    const goalAchieved = taskCompleted && confidence >= deps.limits.goalConfidence;
    const result: VerificationResult = {
      success,
      confidence,
      reason,
      actionSucceeded: success,
      taskCompleted,
      goalAchieved,
      verificationTier: tier,
      tokensSaved,
      observations: t1.observations,
      ...(t1.nextGoal ? { nextGoalCheck: t1.nextGoal } : {}),
    };
    log.info('verified', { tier, success, confidence, goalAchieved, tokensSaved });

    const corrections =
      pending.source === 'correction' && state.corrections.length > 0
        ? state.corrections.map((c, i) =>
            i === state.corrections.length - 1 ? { ...c, succeeded: success } : c,
          )
        : state.corrections;
    // Velocity check (spec 003 "semantic loops, e.g. paging forever"): count successes that
    // neither achieve the goal nor complete a plan step. Working through the plan is progress;
    // acting past it, or scrolling/waiting on one step, is not.
    const step = plan?.steps[state.currentStepIndex];
    const advancedPlan = Boolean(step && step.status !== 'completed' && completesStep(pending));
    const streak =
      success && !goalAchieved
        ? advancedPlan
          ? 0
          : state.consecutiveSuccessWithoutTaskComplete + 1
        : 0;
    scoreVerification(deps, result, pending.source === 'correction');
    const update: InteractStateUpdate = {
      lastVerification: result,
      tokens: { ...tokens, saved: tokens.saved + tokensSaved },
      corrections,
      consecutiveFailures: success ? 0 : state.consecutiveFailures + 1,
      retryCount: success ? 0 : state.retryCount,
      consecutiveSuccessWithoutTaskComplete: streak,
      ...appendPrevious(state, {
        stepIndex: pending.stepIndex,
        action: pending.action,
        thought: pending.thought,
        success,
        reason,
      }),
    };
    if (goalAchieved || (state.complexity === 'SIMPLE' && success)) {
      update.status = 'completed';
      update.result = state.complexity === 'SIMPLE' ? `Done: ${pending.thought}` : reason;
    } else if (success && streak >= deps.limits.velocityLimit) {
      update.status = 'failed';
      update.result =
        `Stopped after ${streak} successful steps in a row without reaching the goal "${state.query}". ` +
        'The agent may be repeating itself (e.g. paging forever); check the page and restate the goal more specifically.';
    }
    return update;
  };

/**
 * Spec 003 scores on the request's trace. A correction's success is only known here, when the
 * corrected action has been verified.
 */
function scoreVerification(deps: AgentDeps, result: VerificationResult, ofCorrection: boolean) {
  const tracing = deps.tracing;
  if (!tracing?.enabled) return;
  tracing.score({
    name: 'verification_success',
    value: result.success ? 1 : 0,
    dataType: 'BOOLEAN',
  });
  tracing.score({ name: 'verification_confidence', value: result.confidence });
  if (ofCorrection) {
    tracing.score({
      name: 'correction_success',
      value: result.success ? 1 : 0,
      dataType: 'BOOLEAN',
    });
  }
}
