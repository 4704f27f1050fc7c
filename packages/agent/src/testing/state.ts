// State builders for unit tests of nodes, routes and the service's pure parts: a state with
// every channel at its default (as a run starts), a page, a pending action, a plan, and the
// deps a node is built with.
import { parseAction, type Plan, type SemanticNodeV3 } from '@tandem/contracts';
import { priceUsage, silentLogger, type ScoreRecord, type Tracing } from '@tandem/observability';
import { DEFAULT_LIMITS, type AgentDeps } from '../deps';
import { createUnconfiguredLlmClient } from '@tandem/llm';
import { targetsOf } from '../nodes/pending-action';
import { domHash, semanticSkeleton, type PageState } from '../page/page-state';
import {
  InteractState,
  type InteractStateType,
  type InteractStateUpdate,
  type PendingAction,
} from '../state';
import { createDisabledWebSearch } from '../web-search/disabled-web-search';

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

/**
 * The state after a node's `update`, as the graph applies it: every channel replaces its value.
 * Typed as the state, so a test reads the update's fields without unwrapping LangGraph's
 * update types.
 */
export const applyUpdate = (
  state: InteractStateType,
  update: InteractStateUpdate,
): InteractStateType => ({ ...state, ...update }) as InteractStateType;

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

/**
 * A pending action as a node sends it on `before`: the before-state and the targets'
 * fingerprints are that page's, so tier-1 verification and target remapping see real changes.
 */
export function pendingOn(
  action: string,
  before: PageState,
  options: Partial<Omit<PendingAction, 'action' | 'chain'>> = {},
): PendingAction {
  const parsed = parseAction(action);
  return pendingOf(action, {
    beforeState: {
      url: before.url,
      domHash: domHash(before.tree),
      semanticSkeleton: semanticSkeleton(before.tree),
    },
    targets: targetsOf([parsed], before),
    ...options,
  });
}

/** A plan of `descriptions` on step `current`: earlier steps completed, later ones pending. */
export function planOf(descriptions: string[], current = 0): Plan {
  return {
    goal: 'the goal',
    currentStepIndex: current,
    steps: descriptions.map((description, index) => ({
      index,
      description,
      status: index < current ? 'completed' : index === current ? 'active' : 'pending',
    })),
  };
}

/** The deps a node is built with; no model and web search disabled unless overridden. */
export function nodeDeps(overrides: Partial<AgentDeps> = {}): AgentDeps {
  return {
    llm: createUnconfiguredLlmClient(),
    webSearch: createDisabledWebSearch(),
    log: silentLogger,
    limits: DEFAULT_LIMITS,
    ...overrides,
  };
}

/** What one scripted call of these tokens costs, priced as the usage log prices it. */
export const costOf = (inputTokens: number, outputTokens: number): number =>
  priceUsage('scripted', { inputTokens, outputTokens, cachedInputTokens: 0, thinkingTokens: 0 });

/** A tracing that keeps the scores a node queues (the other calls are not a node's). */
export function recordingTracing(): { tracing: Tracing; scores: ScoreRecord[] } {
  const scores: ScoreRecord[] = [];
  const unused = () => Promise.reject(new Error('not used by a node'));
  const tracing: Tracing = {
    enabled: true,
    startTrace: unused,
    span: unused,
    generation: () => {},
    score: (score) => void scores.push(score),
    currentTraceId: () => null,
    traceIdOf: () => null,
    flush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  return { tracing, scores };
}
