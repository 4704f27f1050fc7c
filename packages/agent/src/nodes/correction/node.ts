// Self-correction (spec 003 Step 3.4): within the retry and consecutive-failure limits, produce
// a corrected action and a CorrectionRecord. A target that merely re-rendered under a new id is
// fixed deterministically; otherwise the model proposes the fix.
import {
  formatAction,
  parseAction,
  type CorrectionRecord,
  type ParsedAction,
} from '@tandem/contracts';
import { randomUUID } from 'node:crypto';
import type { AgentDeps } from '../../deps';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { llmContext, logFor, makePending, refusal, validateAction, withUsage } from '../shared';
import { CorrectionOutput, correctionPrompt, correctionSystem } from './prompt';

/** The failed action with its target re-found by role + name, if it moved to another id. */
export function remapTarget(state: InteractStateType): ParsedAction | null {
  const pending = state.pending;
  const page = state.page;
  if (!pending || !page || pending.chain) return null;
  const action = parseAction(pending.action);
  if (!('id' in action.args)) return null;
  const id = action.args.id;
  const fp = pending.targets.find((t) => t.id === id);
  if (!fp || page.tree.some((n) => n.i === id)) return null;
  const matches = page.tree.filter((n) => n.r === fp.role && (n.n ?? '') === fp.name && !n.occ);
  const match = matches[0];
  if (matches.length !== 1 || !match) return null;
  return { ...action, args: { ...action.args, id: match.i } } as ParsedAction;
}

export const correction =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const log = logFor(deps, state, 'correction');
    const pending = state.pending;
    const page = state.page;
    if (!pending || !page) throw new Error('correction needs the failed action');
    const attempt = state.retryCount + 1;
    const reason = state.lastVerification?.reason ?? 'verification failed';
    if (
      attempt > deps.limits.maxRetriesPerStep ||
      state.consecutiveFailures >= deps.limits.maxConsecutiveFailures
    ) {
      const which =
        attempt > deps.limits.maxRetriesPerStep
          ? `${deps.limits.maxRetriesPerStep} corrections of the same step`
          : `${deps.limits.maxConsecutiveFailures} failed steps in a row`;
      log.warn('correction limit reached', {
        attempt,
        consecutiveFailures: state.consecutiveFailures,
      });
      // Spec 003 Phase 4: max retries / consecutive failures fail the task with a 400.
      return {
        status: 'failed',
        result: `Gave up after ${which}. Last failure: ${reason}`,
        ...refusal('MAX_RETRIES_EXCEEDED', `Gave up after ${which}. Last failure: ${reason}`, true),
      };
    }

    let corrected: ParsedAction | null = remapTarget(state);
    let strategy: CorrectionRecord['strategy'] = 'ALTERNATIVE_SELECTOR';
    let why = 'the element re-rendered under a new id';
    let tokens = state.tokens;
    if (!corrected && deps.llm.configured) {
      const result = await deps.llm.generate({
        node: 'correction',
        actionType: 'SELF_CORRECTION',
        system: correctionSystem,
        prompt: correctionPrompt({
          goal: state.query,
          step: state.plan?.steps[state.currentStepIndex]?.description ?? state.query,
          failed: pending.action,
          reason,
          attempt,
          page,
        }),
        schema: CorrectionOutput,
        schemaName: 'correction',
        context: llmContext(state),
      });
      tokens = withUsage(state, result);
      const checked = validateAction(result.output.action, page);
      if (checked.ok) {
        corrected = checked.action;
        strategy = result.output.strategy;
        why = result.output.reason;
      } else {
        log.warn('correction rejected', { action: result.output.action, reason: checked.reason });
      }
    }
    if (!corrected) {
      return {
        tokens,
        status: 'failed',
        result: `Could not correct the failed action ${pending.action}: ${reason}`,
      };
    }
    if (corrected.name === 'fail' || corrected.name === 'finish') {
      return {
        tokens,
        status: corrected.name === 'fail' ? 'failed' : 'completed',
        result: corrected.name === 'fail' ? corrected.args.reason : (corrected.args.message ?? why),
      };
    }
    const record: CorrectionRecord = {
      id: randomUUID(),
      stepIndex: state.currentStepIndex,
      attempt,
      failedAction: pending.action,
      correctedAction: formatAction(corrected),
      strategy,
      reason: why,
      createdAt: new Date().toISOString(),
    };
    log.info('corrected', {
      strategy,
      failed: pending.action,
      corrected: record.correctedAction,
      attempt,
    });
    return {
      tokens,
      retryCount: attempt,
      corrections: [...state.corrections, record],
      pending: {
        ...makePending({
          state,
          page,
          thought: `Correction (${strategy}): ${why}`,
          action: corrected,
          source: 'correction',
        }),
        taskActionId: pending.taskActionId,
      },
      nextActionReady: true,
    };
  };
