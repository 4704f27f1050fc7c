// Observation-based, tiered verification of the previous action (docs/specs.md, "tiered,
// observation-based verification"): tier 1 deterministic (0 tokens) for intermediate steps; tier 2
// (light LLM) for a final step whose mechanics checked out; tier 3 (full LLM) when the evidence is
// inconclusive. goalAchieved = task_completed && confidence >= 0.70.
import type { VerificationResult } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import {
  goalConfirmation,
  LOOK_AHEAD_MISS_CONFIDENCE,
  verifyTier1,
  type Tier1Verdict,
} from '../../engines/tier1-verification';
import { currentSubTask, endsSubTask, subTaskGoal } from '../../engines/sub-tasks';
import { pressedNextStep } from '../advance/node';
import type { PageState } from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate, KpiCounts, PendingAction } from '../../state';
import { appendPrevious } from '../history';
import { traceVerdict } from '../../routines/trace';
import { routineVerdict } from '../../routines/verdict';
import { learnFromVerdict } from '../../skills/lessons';
import { llmContext, logFor, withUsage } from '../node-context';
import { actionText, completesStep, sentText } from '../pending-action';
import { fullPrompt, lightPrompt, VerificationOutput, verificationSystem } from './prompt';

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** The client stopped a chain before its last action (and the chain was not all sent). */
export function isChainBreak(state: Pick<InteractStateType, 'pending' | 'page'>): boolean {
  const chain = state.pending?.chain;
  const index = state.page?.lastExecutedActionIndex;
  if (!chain || index === null || index === undefined) return false;
  return (
    index < chain.actions.length - 1 &&
    (state.page?.lastActionStatus === 'failure' || state.page?.chainActionError !== null)
  );
}

/** A chain that stopped part-way failed at the action after the last one executed. */
export function chainBreakVerdict(pending: PendingAction, page: PageState): VerificationResult {
  const at = (page.lastExecutedActionIndex ?? -1) + 1;
  const failed = pending.chain?.actions[at]?.action ?? '?';
  return {
    success: false,
    confidence: 0.95,
    reason: `the chain stopped at action ${at} (${failed}): ${page.chainActionError ?? page.lastActionError ?? 'failed'}`,
    actionSucceeded: false,
    taskCompleted: false,
    goalAchieved: false,
    verificationTier: 1,
    tokensSaved: 0,
  };
}

/** The verdict of the tiers, before the goal threshold and the task's bookkeeping. */
interface Judgement {
  tier: 1 | 2 | 3;
  success: boolean;
  confidence: number;
  reason: string;
  taskCompleted: boolean;
  tokens: InteractStateType['tokens'];
  tokensSaved: number;
  /** The look-ahead's counters for this verdict (contracts' TaskMetrics); null: no next goal. */
  lookAhead: KpiCounts | null;
  /** Set at a sub-task's last step: whether the sub-task's contract was met. */
  subTaskCompleted?: boolean;
}

/**
 * What a verdict judges: the goal, or at the last step of a sub-task that another follows,
 * that sub-task's contract (hierarchical planning: sub-task verification). The model tier
 * then looks as it does at a final step.
 */
export function verificationScope(
  state: Pick<
    InteractStateType,
    'complexity' | 'plan' | 'currentStepIndex' | 'hierarchicalPlan' | 'query' | 'pending'
  >,
): { goal: string; finalStep: boolean; subTaskEnd: boolean } {
  const plan = state.plan;
  // A chain that pressed the form's button did the next step too (see advance).
  const last = state.currentStepIndex + (plan && pressedNextStep(plan, state) ? 1 : 0);
  const finalStep = state.complexity === 'SIMPLE' || !plan || last >= plan.steps.length - 1;
  const hierarchy = state.hierarchicalPlan;
  const task = currentSubTask(hierarchy);
  if (!finalStep && hierarchy && task && endsSubTask(hierarchy, state.currentStepIndex)) {
    const goal = subTaskGoal(task, hierarchy.currentSubTaskIndex, hierarchy.subTasks.length);
    return { goal, finalStep: true, subTaskEnd: true };
  }
  return { goal: state.query, finalStep, subTaskEnd: false };
}

/** The plan's last step when the task is on it: what the goal's last action was meant to do. */
function lastPlanStep(state: InteractStateType): string | undefined {
  const steps = state.plan?.steps ?? [];
  const step = steps[state.currentStepIndex];
  return step && step.index === steps.length - 1 ? step.description : undefined;
}

/** At a sub-task's end, "completed" means the sub-task: the task itself goes on. */
function scopedToSubTask<J extends Judgement>(judged: J): J {
  // Without a model (tier 1) the sub-task's steps, all verified, are its check.
  const met = judged.success && (judged.taskCompleted || judged.tier === 1);
  return {
    ...judged,
    success: met,
    reason: met || !judged.success ? judged.reason : `the sub-task is not done: ${judged.reason}`,
    taskCompleted: false,
    subTaskCompleted: met,
  };
}

/**
 * Which tier judges: a model looks when tier 1 is inconclusive (tier 3), or at the final
 * step of a COMPLEX task whose mechanics checked out, to judge the goal (tier 2).
 */
export function tierFor(
  t1: Pick<Tier1Verdict, 'conclusive' | 'success'>,
  input: {
    llmConfigured: boolean;
    complex: boolean;
    finalStep: boolean;
    confirmed?: boolean;
    notFinal?: boolean;
  },
): 1 | 2 | 3 {
  if (!input.llmConfigured) return 1;
  if (!t1.conclusive) return 3;
  // The page shows what the step said would mean the goal is done, or the step said it does
  // not finish the goal (the next action decides): no model needed to judge the goal.
  if (input.confirmed || input.notFinal) return 1;
  return input.complex && input.finalStep && t1.success ? 2 : 1;
}

export const verification =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const pending = state.pending;
    const page = state.page;
    if (!pending || !page)
      throw new Error('verification needs the pending action and the new page');
    // A routine's step is checked against its recorded outcome, without a model.
    const routine = routineVerdict(deps, state, pending, page);
    if (routine && 'settled' in routine) return routine.settled;
    const handOver = routine?.also ?? {};
    if (isChainBreak(state)) {
      const result = chainBreakVerdict(pending, page);
      logFor(deps, state, 'verification').info('chain partially failed', {
        reason: result.reason,
      });
      scoreVerification(deps, result, pending.source === 'correction');
      return {
        lastVerification: result,
        ...traceVerdict(state, pending, page, result, true),
        ...handOver,
      };
    }
    const unscoped = await judge(deps, state, pending, page);
    const judged = verificationScope(state).subTaskEnd ? scopedToSubTask(unscoped) : unscoped;
    const result: VerificationResult = {
      success: judged.success,
      confidence: judged.confidence,
      reason: judged.reason,
      actionSucceeded: judged.success,
      taskCompleted: judged.taskCompleted,
      goalAchieved: judged.taskCompleted && judged.confidence >= deps.limits.goalConfidence,
      verificationTier: judged.tier,
      tokensSaved: judged.tokensSaved,
      ...judged.extra,
      ...(judged.subTaskCompleted !== undefined
        ? { subTaskCompleted: judged.subTaskCompleted }
        : {}),
    };
    logFor(deps, state, 'verification').info('verified', {
      tier: judged.tier,
      success: result.success,
      confidence: result.confidence,
      goalAchieved: result.goalAchieved,
      tokensSaved: judged.tokensSaved,
    });
    scoreVerification(deps, result, pending.source === 'correction');
    await learnFromVerdict(deps, state, pending, result.success);
    return {
      lastVerification: result,
      ...(judged.lookAhead ? { kpiCounts: judged.lookAhead } : {}),
      ...(state.skillHintIds.length > 0 ? { skillHintIds: [] } : {}),
      tokens: { ...judged.tokens, saved: judged.tokens.saved + judged.tokensSaved },
      ...traceVerdict(state, pending, page, result),
      ...progressAfter(deps, state, pending, result),
      ...handOver,
    };
  };

/** The look-ahead's KPI counters for a verdict; `caught`: it alone failed a working action. */
function lookAheadCounts(t1: Tier1Verdict, caught: boolean): KpiCounts | null {
  if (!t1.nextGoal) return null;
  return {
    lookAheadChecks: 1,
    lookAheadHits: t1.nextGoal.available ? 1 : 0,
    lookAheadCaught: caught ? 1 : 0,
  };
}

/**
 * The tier for this verdict, and the evidence that settled the goal without a model. Only the
 * goal's own last step (not a sub-task's end) is settled by the step's own prediction.
 */
function tierOf(
  deps: AgentDeps,
  state: InteractStateType,
  t1: Tier1Verdict,
): { tier: 1 | 2 | 3; confirmed: string | null } {
  const { pending, page } = state;
  const complex = state.complexity === 'COMPLEX';
  const { finalStep, subTaskEnd } = verificationScope(state);
  const confirmed =
    complex && finalStep && !subTaskEnd && pending && page
      ? goalConfirmation(pending, page, t1)
      : null;
  const tier = tierFor(t1, {
    llmConfigured: deps.llm.configured,
    complex,
    finalStep,
    confirmed: confirmed !== null,
    notFinal: pending?.expectedOutcome?.completesGoal === false && !subTaskEnd,
  });
  return { tier, confirmed };
}

/** Tier 1, then the model tier it calls for; the tokens a cheaper tier saved. */
async function judge(
  deps: AgentDeps,
  state: InteractStateType,
  pending: PendingAction,
  page: PageState,
): Promise<Judgement & { extra: Pick<VerificationResult, 'observations' | 'nextGoalCheck'> }> {
  const t1 = verifyTier1(pending, page);
  const simple = state.complexity === 'SIMPLE';
  const complex = state.complexity === 'COMPLEX';
  const { goal, finalStep } = verificationScope(state);
  const full = fullPrompt({
    goal,
    action: sentText(pending),
    expected: pending.expectedOutcome?.description ?? '',
    before: pending.beforeState.semanticSkeleton,
    observations: t1.observations,
    page,
  });
  const { tier, confirmed } = tierOf(deps, state, t1);
  const extra = {
    observations: t1.observations,
    ...(t1.nextGoal ? { nextGoalCheck: t1.nextGoal } : {}),
  };
  if (tier === 1) {
    // No model to judge the goal: a final COMPLEX step that worked and shows success counts.
    const completedWithoutModel = complex && finalStep && t1.success && page.hasSuccess;
    return {
      tier,
      success: t1.success,
      confidence: t1.confidence,
      reason: confirmed ? `${t1.reason}; ${confirmed}` : t1.reason,
      taskCompleted: simple
        ? t1.success
        : confirmed !== null || (!deps.llm.configured && completedWithoutModel),
      tokens: state.tokens,
      tokensSaved: estimateTokens(verificationSystem + full),
      extra,
      lookAhead: lookAheadCounts(t1, t1.lookAheadCaught === true),
    };
  }
  const prompt =
    tier === 2
      ? lightPrompt({
          goal,
          action: actionText(pending),
          observations: t1.observations,
          lastStep: lastPlanStep(state),
        })
      : full;
  const result = await deps.llm.generate({
    node: 'verification',
    actionType: 'VERIFICATION',
    system: verificationSystem,
    prompt,
    schema: VerificationOutput,
    schemaName: 'verification_verdict',
    context: llmContext(state),
  });
  // A required next goal that is missing outweighs the model: the next step cannot run.
  const caught = t1.nextGoalMissing === true && result.output.action_succeeded;
  return {
    tier,
    success: result.output.action_succeeded && !caught,
    confidence: caught
      ? Math.min(result.output.confidence, LOOK_AHEAD_MISS_CONFIDENCE)
      : result.output.confidence,
    reason: caught ? `${result.output.reason}, but ${t1.nextGoal?.reason}` : result.output.reason,
    taskCompleted: result.output.task_completed,
    tokens: withUsage(state, result),
    tokensSaved:
      tier === 2
        ? Math.max(0, estimateTokens(full) - estimateTokens(t1.observations.join(' ')))
        : 0,
    extra,
    lookAhead: lookAheadCounts(t1, caught),
  };
}

/**
 * The task's bookkeeping after a verdict: failure and retry counters, the correction's
 * outcome, the history, and the end of the task when the goal is achieved or the velocity
 * check trips.
 */
function progressAfter(
  deps: AgentDeps,
  state: InteractStateType,
  pending: PendingAction,
  result: VerificationResult,
): InteractStateUpdate {
  const { success, goalAchieved, reason } = result;
  const corrections =
    pending.source === 'correction' && state.corrections.length > 0
      ? state.corrections.map((c, i) =>
          i === state.corrections.length - 1 ? { ...c, succeeded: success } : c,
        )
      : state.corrections;
  const streak = velocityStreak(state, pending, result);
  const update: InteractStateUpdate = {
    corrections,
    consecutiveFailures: success ? 0 : state.consecutiveFailures + 1,
    retryCount: success ? 0 : state.retryCount,
    consecutiveSuccessWithoutTaskComplete: streak,
    ...appendPrevious(state, {
      stepIndex: pending.stepIndex,
      // A chain is one line with every action it sent: what the form got, and its button.
      action: sentText(pending),
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
}

/**
 * Velocity check (docs/specs.md, "velocity check": "semantic loops, e.g. paging forever"): count
 * successes that neither achieve the goal nor complete a plan step. Working through the plan is
 * progress; acting past it, or scrolling/waiting on one step, is not.
 */
export function velocityStreak(
  state: Pick<
    InteractStateType,
    'plan' | 'currentStepIndex' | 'consecutiveSuccessWithoutTaskComplete'
  >,
  pending: Pick<PendingAction, 'action'>,
  result: Pick<VerificationResult, 'success' | 'goalAchieved'>,
): number {
  if (!result.success || result.goalAchieved) return 0;
  const step = state.plan?.steps[state.currentStepIndex];
  const advancedPlan = Boolean(step && step.status !== 'completed' && completesStep(pending));
  return advancedPlan ? 0 : state.consecutiveSuccessWithoutTaskComplete + 1;
}

/**
 * The scores on the request's trace (docs/specs.md, "LangFuse and Sentry"). A correction's success
 * is only known here, when the corrected action has been verified.
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
