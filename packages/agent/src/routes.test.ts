import { describe, expect, it } from 'vitest';
import {
  END_RUN,
  routeAfterActionGeneration,
  routeAfterAdvance,
  routeAfterChainRecovery,
  routeAfterComplexity,
  routeAfterContext,
  routeAfterCritic,
  routeAfterCorrection,
  routeAfterDirectAction,
  routeAfterDispatch,
  routeAfterOutcome,
  routeAfterRefinement,
  routeAfterVerification,
  routeAfterWebSearch,
} from './routes';
import { MAX_CRITIC_REJECTIONS } from './nodes/critic/node';
import { pageWith, pendingOf, stateWith } from './testing/state';

const state = stateWith;
const page = pageWith;
const pending = (action: string, chain = false) => pendingOf(action, { chain });

const refused = {
  outcome: {
    kind: 'refused' as const,
    code: 'INVALID_ACTION' as const,
    message: 'x',
    failTask: false,
  },
};

describe('routing functions', () => {
  it('routeAfterComplexity', () => {
    expect(routeAfterComplexity(state({ complexity: 'SIMPLE' }))).toBe('direct_action');
    expect(routeAfterComplexity(state({ complexity: 'COMPLEX' }))).toBe('context_analysis');
    expect(routeAfterComplexity(state({ complexity: 'COMPLEX', ...refused }))).toBe(END_RUN);
  });

  it('routeAfterDirectAction', () => {
    expect(routeAfterDirectAction(state({ pending: pending('click("1")') }))).toBe(
      'outcome_prediction',
    );
    expect(routeAfterDirectAction(state({ pending: pending('fail("no such element")') }))).toBe(
      'finalize',
    );
    expect(routeAfterDirectAction(state(refused))).toBe(END_RUN);
  });

  it('routeAfterContext: ASK_USER pauses, WEB_SEARCH searches, else plans', () => {
    expect(routeAfterContext(state({ requiredSources: ['PAGE'] }))).toBe('planning');
    expect(routeAfterContext(state({ requiredSources: ['MEMORY', 'WEB_SEARCH'] }))).toBe(
      'web_search',
    );
    const asked = state({
      requiredSources: ['ASK_USER'],
      outcome: { kind: 'ask_user', message: '?', missingInformation: [] },
    });
    // A question pauses the task before dispatch, where the answer resumes it.
    expect(routeAfterContext(asked)).toBe('dispatch');
    expect(routeAfterWebSearch(state())).toBe('planning');
    expect(routeAfterWebSearch(asked)).toBe('dispatch');
  });

  it('routeAfterRefinement / ActionGeneration / Outcome', () => {
    expect(routeAfterRefinement(state({ pending: pending('click("1")') }))).toBe(
      'outcome_prediction',
    );
    expect(routeAfterRefinement(state())).toBe('action_generation');
    // finish() is reviewed by the critic first, unless it already rejected twice on this step.
    expect(routeAfterActionGeneration(state({ pending: pending('finish("done")') }))).toBe(
      'critic',
    );
    expect(
      routeAfterActionGeneration(
        state({ pending: pending('finish("done")'), criticRejections: MAX_CRITIC_REJECTIONS }),
      ),
    ).toBe('finalize');
    expect(routeAfterActionGeneration(state({ pending: pending('click("1")') }))).toBe(
      'outcome_prediction',
    );
    // An unsure generator, or the step after a failed verification, is reviewed too.
    expect(
      routeAfterActionGeneration(state({ pending: pending('click("1")'), actionConfidence: 0.6 })),
    ).toBe('critic');
    expect(routeAfterCritic(state({ pending: null }))).toBe('action_generation');
    expect(routeAfterCritic(state({ pending: pending('click("1")') }))).toBe('outcome_prediction');
    expect(routeAfterCritic(state({ pending: pending('finish("done")') }))).toBe('finalize');
    expect(routeAfterActionGeneration(state(refused))).toBe(END_RUN);
    expect(routeAfterOutcome(state())).toBe('dispatch');
    expect(routeAfterOutcome(state(refused))).toBe(END_RUN);
  });

  it('routeAfterDispatch: an answer resumes its asker, a page read reasons, an extraction extracts', () => {
    expect(routeAfterDispatch(state())).toBe('verification');
    expect(routeAfterDispatch(state({ resumedFromPageRead: true }))).toBe('action_generation');
    expect(
      routeAfterDispatch(
        state({ resumedFromPageRead: true, pendingExtraction: { query: 'products' } }),
      ),
    ).toBe('extraction');
    expect(routeAfterDispatch(state({ resumeAt: 'context_analysis' }))).toBe('context_analysis');
  });

  it('routeAfterVerification', () => {
    const ok = { success: true, confidence: 0.9, reason: '' };
    const bad = { success: false, confidence: 0.9, reason: '' };
    expect(
      routeAfterVerification(
        state({ pending: pending('click("1")'), page: page(), lastVerification: ok }),
      ),
    ).toBe('advance');
    expect(
      routeAfterVerification(
        state({ pending: pending('click("1")'), page: page(), lastVerification: bad }),
      ),
    ).toBe('correction');
    expect(
      routeAfterVerification(
        state({
          pending: pending('click("1")'),
          page: page(),
          lastVerification: ok,
          status: 'completed',
        }),
      ),
    ).toBe('finalize');
    const broken = page({ lastExecutedActionIndex: 1, lastActionStatus: 'failure' });
    expect(
      routeAfterVerification(
        state({
          pending: pending('setValue("0", "x")', true),
          page: broken,
          lastVerification: bad,
        }),
      ),
    ).toBe('chain_recovery');
    const whole = page({ lastExecutedActionIndex: 2, lastActionStatus: 'success' });
    expect(
      routeAfterVerification(
        state({ pending: pending('setValue("0", "x")', true), page: whole, lastVerification: ok }),
      ),
    ).toBe('advance');
  });

  it('routeAfterCorrection / ChainRecovery / Advance', () => {
    expect(routeAfterCorrection(state({ nextActionReady: true }))).toBe('outcome_prediction');
    const modelFix = { ...pending('click("1")'), source: 'correction' as const };
    expect(routeAfterCorrection(state({ nextActionReady: true, pending: modelFix }))).toBe(
      'critic',
    );
    expect(
      routeAfterCorrection(
        state({ nextActionReady: true, pending: { ...modelFix, deterministic: true } }),
      ),
    ).toBe('outcome_prediction');
    expect(routeAfterCorrection(state({ status: 'failed' }))).toBe('finalize');
    expect(routeAfterCorrection(state(refused))).toBe(END_RUN);
    expect(
      routeAfterChainRecovery(state({ nextActionReady: true, pending: pending('click("1")') })),
    ).toBe('outcome_prediction');
    expect(
      routeAfterChainRecovery(
        state({ lastVerification: { success: true, confidence: 1, reason: '' } }),
      ),
    ).toBe('advance');
    expect(routeAfterChainRecovery(state())).toBe('action_generation');
    const plan = {
      goal: 'g',
      currentStepIndex: 1,
      steps: [
        { index: 0, description: 'a', status: 'completed' as const },
        { index: 1, description: 'b', status: 'active' as const },
      ],
    };
    expect(routeAfterAdvance(state({ plan, currentStepIndex: 1 }))).toBe('step_refinement');
    // The page changed under the plan: the plan is checked before the next step.
    expect(
      routeAfterAdvance(
        state({
          plan,
          currentStepIndex: 1,
          replanSignal: { reason: 'dom_changed', similarity: 0.3 },
        }),
      ),
    ).toBe('replanning');
    expect(
      routeAfterAdvance(
        state({
          plan: { ...plan, steps: plan.steps.map((s) => ({ ...s, status: 'completed' as const })) },
          currentStepIndex: 1,
        }),
      ),
    ).toBe('action_generation');
  });
});
