// The interact graph's state: one LangGraph thread per task (thread id = taskId), persisted by
// the store's checkpointer after every node, so a task survives a server restart between two
// requests. Every field is JSON: nothing here may hold a live object.
import { Annotation } from '@langchain/langgraph';
import type {
  ChainAction,
  CollectedCounts,
  SnapshotRequest,
  ChainMetadata,
  Complexity,
  CorrectionRecord,
  ErrorCode,
  ExpectedOutcome,
  InteractResponse,
  Plan,
  TaskStatus,
  VerificationResult,
} from '@tandem/contracts';
import type { PageState } from './page/page-state';

export type InformationSource = 'MEMORY' | 'PAGE' | 'WEB_SEARCH' | 'ASK_USER';

/** The action the client was sent and has (presumably) executed: what verification checks. */
export interface PendingAction {
  stepIndex: number;
  thought: string;
  action: string;
  /** Set when a chain was sent; `action` is then actions[0]. */
  chain: { actions: ChainAction[]; metadata: ChainMetadata } | null;
  expectedOutcome: ExpectedOutcome | null;
  beforeState: { url: string; domHash: string; semanticSkeleton: string };
  /** The task action record holding it (null for corrections, which reuse the step's record). */
  taskActionId: string | null;
  /** How it was produced: tokens spent and which node decided. */
  source:
    'direct_action' | 'step_refinement' | 'action_generation' | 'correction' | 'chain_recovery';
  /** Fingerprints of the targets (role + name) when sent, to explain "element changed". */
  targets: { id: string; role: string; name: string }[];
}

export interface PreviousAction {
  stepIndex: number;
  action: string;
  thought: string;
  success: boolean | null;
  reason: string | null;
}

/** Per-request scratch data the service reads after the run. */
export interface RunOutput {
  response: InteractResponse | null;
  /** A refusal the route turns into an HTTP error (4xx/5xx), with the task failed or not. */
  error: { code: ErrorCode; message: string; failTask: boolean } | null;
  /** Whether this run produced a response that should persist the task (not ASK_USER). */
  persistTask: boolean;
}

const replace = <T>(fallback: () => T) =>
  Annotation<T>({ reducer: (_old, next) => next, default: fallback });

export const InteractState = Annotation.Root({
  // --- identity (set once, when the task starts) ----------------------------------------
  /** Provisional from the first log line; persisted only once an action exists. */
  taskId: replace<string>(() => ''),
  tenantId: replace<string>(() => ''),
  userId: replace<string>(() => ''),
  sessionId: replace<string>(() => ''),
  /** The user's goal, verbatim. */
  query: replace<string>(() => ''),

  // --- the current request -------------------------------------------------------------
  /** Page state of the request being processed; replaced on every resume. */
  page: replace<PageState | null>(() => null),
  /** Number of interact requests this task has served (1 on the first). */
  requestCount: replace<number>(() => 0),
  /** RAG chunks fetched once per request by the service (never sent to the client). */
  ragContext: replace<{ text: string; chunkIds: string[]; hasOrgKnowledge: boolean }>(() => ({
    text: '',
    chunkIds: [],
    hasOrgKnowledge: false,
  })),

  // --- routing and reasoning -------------------------------------------------------------
  complexity: replace<Complexity | null>(() => null),
  complexityReason: replace<string>(() => ''),
  /** Context analysis (COMPLEX only): where the missing information comes from. */
  requiredSources: replace<InformationSource[]>(() => []),
  missingInformation: replace<string[]>(() => []),
  searchQuery: replace<string | null>(() => null),
  /** Web search summary injected into planning and action prompts (fenced as untrusted). */
  webSearchSummary: replace<string | null>(() => null),

  // --- plan and progress -----------------------------------------------------------------
  plan: replace<Plan | null>(() => null),
  /** Index of the plan step being worked on; also the task's currentStepIndex. */
  currentStepIndex: replace<number>(() => 0),
  /** Steps sent to the client so far (MAX_STEPS_PER_TASK applies to it). */
  stepCount: replace<number>(() => 0),
  /** The last 10 raw actions; older ones are folded into previousActionsSummary. */
  previousActions: replace<PreviousAction[]>(() => []),
  /** Rolling summary of actions older than the last 10 ("N earlier steps completed."). */
  previousActionsSummary: replace<string>(() => ''),

  // --- the action in flight and its verification -----------------------------------------
  pending: replace<PendingAction | null>(() => null),
  /** Verdict on the previous action, returned with the next response. */
  lastVerification: replace<VerificationResult | null>(() => null),
  /** Retries of the current step (reset when a step succeeds). */
  retryCount: replace<number>(() => 0),
  consecutiveFailures: replace<number>(() => 0),
  /** Velocity check: successes in a row that did not complete the goal. */
  consecutiveSuccessWithoutTaskComplete: replace<number>(() => 0),
  corrections: replace<CorrectionRecord[]>(() => []),
  /** Set by chain recovery / correction when they already decided the next action. */
  nextActionReady: replace<boolean>(() => false),

  // --- reading and collecting (specs 002 and 000) ----------------------------------------
  /** A snapshot asked of the client (needs_snapshot); set while waiting for its answer. */
  pageRequest: replace<SnapshotRequest | null>(() => null),
  /** The run resumed with the answer to pageRequest: reason again, verify nothing. */
  resumedFromPageRead: replace<boolean>(() => false),
  /** Snapshots asked for the current step; capped so a model cannot loop on reading. */
  pageReadsThisStep: replace<number>(() => 0),
  /** Finish once this many items are collected (spec 000 collectLimit); null: no target. */
  collectLimit: replace<number | null>(() => null),
  /**
   * Items collected so far per type. Counts only: the items live in the store, so the state
   * and every prompt stay the same size however many are collected (spec 000).
   */
  collectedCounts: replace<CollectedCounts>(() => ({})),

  // --- outcome ---------------------------------------------------------------------------
  status: replace<TaskStatus>(() => 'active'),
  /** Final answer or failure reason. */
  result: replace<string | null>(() => null),
  /** Tokens spent in this task so far (all LLM calls), and tokens avoided by tier-1 checks. */
  tokens: replace<{ input: number; output: number; saved: number; calls: number }>(() => ({
    input: 0,
    output: 0,
    saved: 0,
    calls: 0,
  })),
  output: replace<RunOutput>(() => ({ response: null, error: null, persistTask: false })),
});

export type InteractStateType = typeof InteractState.State;
export type InteractStateUpdate = typeof InteractState.Update;
