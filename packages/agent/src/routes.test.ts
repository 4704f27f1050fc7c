import { describe, expect, it } from 'vitest';
import type { PageState } from './page/page-state';
import {
  END_RUN,
  routeAfterActionGeneration,
  routeAfterAdvance,
  routeAfterChainRecovery,
  routeAfterComplexity,
  routeAfterContext,
  routeAfterCorrection,
  routeAfterDirectAction,
  routeAfterOutcome,
  routeAfterRefinement,
  routeAfterVerification,
  routeAfterWebSearch,
} from './routes';
import { InteractState, type InteractStateType, type PendingAction } from './state';

// A state with every channel at its default, as the graph starts.
function state(overrides: Partial<InteractStateType> = {}): InteractStateType {
  const defaults = Object.fromEntries(
    Object.entries(InteractState.spec).map(([k, channel]) => {
      const c = channel as unknown as {
        initialValueFactory?: () => unknown;
        default?: () => unknown;
      };
      const init = c.initialValueFactory ?? c.default;
      return [k, typeof init === 'function' ? init() : undefined];
    }),
  ) as InteractStateType;
  return { ...defaults, ...overrides };
}

const page = (extra: Partial<PageState> = {}): PageState => ({
  url: 'https://a.example/',
  title: '',
  tree: [],
  html: null,
  hasErrors: false,
  hasSuccess: false,
  errors: [],
  successMessages: [],
  recentEvents: [],
  observations: {},
  lastActionStatus: null,
  lastActionError: null,
  previousUrl: null,
  lastExecutedActionIndex: null,
  chainActionError: null,
  snapshot: null,
  ...extra,
});

const pending = (action: string, chain = false): PendingAction => ({
  stepIndex: 0,
  thought: '',
  action,
  chain: chain
    ? {
        actions: [0, 1, 2].map((index) => ({
          action: `setValue("${index}", "x")`,
          description: '',
          index,
        })),
        metadata: { totalActions: 3, safeToChain: true },
      }
    : null,
  expectedOutcome: null,
  beforeState: { url: '', domHash: '', semanticSkeleton: '' },
  taskActionId: null,
  source: 'action_generation',
  targets: [],
});

const refused = {
  output: {
    response: null,
    error: { code: 'INVALID_ACTION' as const, message: 'x', failTask: false },
    persistTask: false,
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

  it('routeAfterContext: ASK_USER ends, WEB_SEARCH searches, else plans', () => {
    expect(routeAfterContext(state({ requiredSources: ['PAGE'] }))).toBe('planning');
    expect(routeAfterContext(state({ requiredSources: ['MEMORY', 'WEB_SEARCH'] }))).toBe(
      'web_search',
    );
    const asked = state({
      requiredSources: ['ASK_USER'],
      output: {
        response: {
          needsUserInput: true,
          message: '?',
          missingInformation: [],
          sessionId: crypto.randomUUID(),
        },
        error: null,
        persistTask: false,
      },
    });
    expect(routeAfterContext(asked)).toBe(END_RUN);
    expect(routeAfterWebSearch(state())).toBe('planning');
    expect(routeAfterWebSearch(asked)).toBe(END_RUN);
  });

  it('routeAfterRefinement / ActionGeneration / Outcome', () => {
    expect(routeAfterRefinement(state({ pending: pending('click("1")') }))).toBe(
      'outcome_prediction',
    );
    expect(routeAfterRefinement(state())).toBe('action_generation');
    expect(routeAfterActionGeneration(state({ pending: pending('finish("done")') }))).toBe(
      'finalize',
    );
    expect(routeAfterActionGeneration(state({ pending: pending('click("1")') }))).toBe(
      'outcome_prediction',
    );
    expect(routeAfterActionGeneration(state(refused))).toBe(END_RUN);
    expect(routeAfterOutcome(state())).toBe('dispatch');
    expect(routeAfterOutcome(state(refused))).toBe(END_RUN);
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
