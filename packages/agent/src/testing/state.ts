// State builders for unit tests of nodes, routes and the service's pure parts: a state with
// every channel at its default (as a run starts), a page, and a pending action.
import { parseAction, type SemanticNodeV3 } from '@tandem/contracts';
import type { PageState } from '../page/page-state';
import { InteractState, type InteractStateType, type PendingAction } from '../state';

/** A state with every channel at its default, as the graph starts, with `overrides` laid over. */
export function stateWith(overrides: Partial<InteractStateType> = {}): InteractStateType {
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
  return {
    ...defaults,
    taskId: '11111111-1111-4111-8111-111111111111',
    tenantId: 'tenant-1',
    userId: 'user-1',
    sessionId: '22222222-2222-4222-8222-222222222222',
    ...overrides,
  };
}

export function pageWith(extra: Partial<PageState> = {}): PageState {
  return {
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
  };
}

/** A page whose tree is `tree`. */
export const pageOf = (tree: SemanticNodeV3[], extra: Partial<PageState> = {}): PageState =>
  pageWith({ tree, ...extra });

/** A pending action from its grammar text; `chain` sends three setValue actions. */
export function pendingOf(
  action: string,
  options: { chain?: boolean } & Partial<Omit<PendingAction, 'action' | 'chain'>> = {},
): PendingAction {
  const { chain, ...rest } = options;
  return {
    stepIndex: 0,
    thought: '',
    action: parseAction(action),
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
    ...rest,
  };
}
