// The interact graph's state: one LangGraph thread per task (thread id = taskId). The store's
// checkpointer persists it when a run stops (paused before dispatch, or at the end), so a task
// survives a server restart between two requests. Every field is JSON: nothing here may hold a
// live object.
import { Annotation } from '@langchain/langgraph';
import type {
  ChainAction,
  ChainMetadata,
  Complexity,
  CorrectionRecord,
  ErrorCode,
  ExpectedOutcome,
  GraphNode,
  HierarchicalPlan,
  ParsedAction,
  Plan,
  SecretRef,
  TaskStatus,
  VerificationResult,
} from '@tandem/contracts';
import { replace } from './channel';
import { captureState } from './capture/state';
import { collectState } from './collect/state';
import type { ReplanReason } from './engines/dom-similarity';
import { criticState } from './nodes/critic/state';
import { extractionState } from './nodes/extraction/state';
import type { PlanningOutput } from './nodes/planning/prompt';
import type { PageState } from './page/page-state';
import { pageReadsState } from './page-reads/state';
import type { TargetLocators } from './routines/locators';
import { routinesState } from './routines/state';
import { skillsState } from './skills/state';
import { webSearchState } from './web-search/state';

export type { ExtractionNote } from './nodes/extraction/state';

export type InformationSource = 'MEMORY' | 'PAGE' | 'WEB_SEARCH' | 'ASK_USER';

/** The action the client was sent and has (presumably) executed: what verification checks. */
export interface PendingAction {
  stepIndex: number;
  thought: string;
  /** The action sent, parsed once when it was decided (a chain's first action). */
  action: ParsedAction;
  /** Set when a chain was sent; `action` is then actions[0]. */
  chain: { actions: ChainAction[]; metadata: ChainMetadata } | null;
  expectedOutcome: ExpectedOutcome | null;
  beforeState: { url: string; domHash: string; semanticSkeleton: string };
  /** The task action record holding it (null for corrections, which reuse the step's record). */
  taskActionId: string | null;
  /** How it was produced: tokens spent and which node decided. */
  source: Extract<
    GraphNode,
    | 'direct_action'
    | 'step_refinement'
    | 'routine_step'
    | 'action_generation'
    | 'correction'
    | 'chain_recovery'
  >;
  /**
   * Fingerprints of the targets (role + name) when sent, to explain "element changed"; with the
   * locators a routine finds them by again. Checkpoints from before routines lack them.
   */
  targets: ({ id: string; role: string; name: string } & Partial<TargetLocators>)[];
  /**
   * Set when the action is a plan step's contingency (a cookie banner dismissed…): it clears
   * the way for the step, so the step itself is tried again after it, not marked done.
   */
  contingency?: string;
  /**
   * Made without the model (a correction's re-found target or contingency, the finish the
   * collect count decided): the critic does not review it.
   */
  deterministic?: boolean;
}

/** A question the task is paused on until the user answers. */
export interface PendingQuestion {
  /** The node that asked, and resumes with the answer. */
  askedBy: 'context_analysis' | 'direct_action' | 'action_generation';
  message: string;
}

export interface TokenTotals {
  input: number;
  output: number;
  saved: number;
  calls: number;
  /** Missing in checkpoints written before costs were tracked. */
  costMicroUsd?: number;
}

export interface PreviousAction {
  stepIndex: number;
  action: string;
  thought: string;
  success: boolean | null;
  reason: string | null;
}

/**
 * How a run ends, set by the node that ends it; the service answers the request from it and
 * the state (service/response.ts builds the response once).
 * - `action`: send `pending` (an action, a chain, or the terminal finish/fail);
 * - `read_page`: send `pageRequest` and execute nothing (docs/specs.md, "page snapshots");
 * - `ask_user`: the agent needs information only the user has; no task is created;
 * - `refused`: an error answer, failing the task when `failTask`.
 */
export type RunOutcome =
  | { kind: 'action' }
  | { kind: 'read_page'; thought: string }
  | {
      kind: 'ask_user';
      message: string;
      missingInformation: string[];
      thought?: string;
    }
  | { kind: 'refused'; code: ErrorCode; message: string; failTask: boolean };

/**
 * The task's KPI counters (docs/specs.md, "Metrics and KPIs"), copied onto its metrics (contracts'
 * TaskMetrics).
 */
export type KpiCounter =
  | 'actionsSent'
  | 'criticReviews'
  | 'criticRejections'
  | 'skillHintSteps'
  | 'lookAheadChecks'
  | 'lookAheadHits'
  | 'lookAheadCaught';
export type KpiCounts = Partial<Record<KpiCounter, number>>;

/** Nodes return increments (`{ criticReviews: 1 }`); the channel keeps the task's totals. */
export function addKpiCounts(totals: KpiCounts, increments: KpiCounts): KpiCounts {
  const sum: KpiCounts = { ...totals };
  for (const [key, value] of Object.entries(increments) as [KpiCounter, number][]) {
    if (value) sum[key] = (sum[key] ?? 0) + value;
  }
  return sum;
}

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

  // --- what the task may do (nodes/action-policy.ts enforces it) -------------------------
  /**
   * The sites the task may act on: the start page's site, then the ones the user added
   * (contracts' site-policy). Empty only in checkpoints written before the rule: then the
   * current page's site.
   */
  sites: replace<string[]>(() => []),
  /** Names and sites of the secrets the user stored in the extension; never a value. */
  secrets: replace<SecretRef[]>(() => []),
  /**
   * Per site, fingerprints (short hashes) of the data its pages showed: what stops data read
   * on one site from being typed into another (engines/site-data.ts). Never the data itself.
   */
  siteData: replace<Record<string, string[]>>(() => ({})),
  /** Actions the user rejected in this task, as grammar text: the policy refuses them. */
  rejectedActions: replace<string[]>(() => []),

  // --- routing and reasoning -------------------------------------------------------------
  complexity: replace<Complexity | null>(() => null),
  complexityReason: replace<string>(() => ''),
  /** Context analysis (COMPLEX only): where the missing information comes from. */
  requiredSources: replace<InformationSource[]>(() => []),
  missingInformation: replace<string[]>(() => []),
  ...webSearchState,

  // --- conversation (sessions, MEMORY, ASK_USER: docs/specs.md, "session") ---------------
  /**
   * The session's conversation as the prompts read it: the user's goals and answers, the
   * agent's questions and final answers (recent ones verbatim, older ones summarised). Loaded
   * by the service for a new task and with an answer; the MEMORY source of context analysis.
   */
  conversation: replace<string>(() => ''),
  /** The question the task is paused on, and the node that asked (it resumes with the answer). */
  question: replace<PendingQuestion | null>(() => null),
  /** The user's latest answer, for the node that asked. */
  answer: replace<string | null>(() => null),
  /** Questions asked in this task: capped, so a model cannot keep asking. */
  questionsAsked: replace<number>(() => 0),
  /** Set by dispatch when a request answers the question: the node to resume at. */
  resumeAt: replace<PendingQuestion['askedBy'] | null>(() => null),

  // --- plan and progress -----------------------------------------------------------------
  plan: replace<Plan | null>(() => null),
  /**
   * The plan context analysis wrote in the same call (one call for both), which planning takes
   * instead of asking; null once taken, or when the analysis could not plan yet.
   */
  draftPlan: replace<PlanningOutput | null>(() => null),
  /**
   * Hierarchical planning: the plan's sub-tasks with their contracts (null for a flat plan).
   * Also the task row's hierarchicalPlan, for the admin trace.
   */
  hierarchicalPlan: replace<HierarchicalPlan | null>(() => null),
  /**
   * One line per finished sub-task ("Sub-task 1 … completed (…); outputs: …"): what the
   * prompts keep of it once its step-by-step history is reset.
   */
  subTaskNotes: replace<string[]>(() => []),
  /** Index of the plan step being worked on; also the task's currentStepIndex. */
  currentStepIndex: replace<number>(() => 0),
  /** Steps sent to the client so far (MAX_STEPS_PER_TASK applies to it). */
  stepCount: replace<number>(() => 0),
  /** The last 10 raw actions; older ones are only counted (earlierActionCount). */
  previousActions: replace<PreviousAction[]>(() => []),
  /** Actions older than the last 10, which prompts show as "N earlier steps completed." */
  earlierActionCount: replace<number>(() => 0),

  // --- the action in flight and its verification -----------------------------------------
  pending: replace<PendingAction | null>(() => null),
  /** Verdict on the previous action, returned with the next response. */
  lastVerification: replace<VerificationResult | null>(() => null),
  /**
   * Set by dispatch when the page under the plan changed (docs/specs.md, "dynamic re-planning"):
   * the URL path, or a DOM similarity below 70%. The replanning node checks the plan against it.
   */
  replanSignal: replace<{ reason: ReplanReason; similarity: number } | null>(() => null),
  /** The plan was adapted or regenerated in this request (the response's `rePlanning`). */
  rePlanning: replace<boolean>(() => false),
  /** Plans adapted or regenerated in this task (the re-plan frequency metric). */
  replanCount: replace<number>(() => 0),
  /** KPI counters of the task; updates are increments, summed by the reducer. */
  kpiCounts: Annotation<KpiCounts>({ reducer: addKpiCounts, default: () => ({}) }),
  ...criticState,
  /** Retries of the current step (reset when a step succeeds). */
  retryCount: replace<number>(() => 0),
  consecutiveFailures: replace<number>(() => 0),
  /** Velocity check: successes in a row that did not complete the goal. */
  consecutiveSuccessWithoutTaskComplete: replace<number>(() => 0),
  corrections: replace<CorrectionRecord[]>(() => []),
  ...skillsState,
  ...routinesState,
  /** Set by chain recovery / correction when they already decided the next action. */
  nextActionReady: replace<boolean>(() => false),

  // --- reading, capturing, collecting and extracting (specs 002 and 000) -----------------
  ...pageReadsState,
  ...captureState,
  ...collectState,
  ...extractionState,

  // --- outcome ---------------------------------------------------------------------------
  status: replace<TaskStatus>(() => 'active'),
  /** Final answer or failure reason. */
  result: replace<string | null>(() => null),
  /**
   * Tokens spent in this task so far (all LLM calls), tokens avoided by tier-1 checks, and
   * what the calls cost (integer micro-USD, priced like the usage log).
   */
  tokens: replace<TokenTotals>(() => ({
    input: 0,
    output: 0,
    saved: 0,
    calls: 0,
    costMicroUsd: 0,
  })),
  /** How this request's run ended; null until a node ends it (dispatch clears it). */
  outcome: replace<RunOutcome | null>(() => null),
});

export type InteractStateType = typeof InteractState.State;
export type InteractStateUpdate = typeof InteractState.Update;
