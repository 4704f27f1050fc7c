// Shapes shared by the wire formats and the stored records (Task, TaskAction, CorrectionRecord…).
// One schema, one name: each `export const X` has a same-named `export type X`.
import { z } from 'zod';

/**
 * Lifecycle of a task. `needs_user_input`: paused on a question until the user answers;
 * `interrupted` is set lazily when a task is untouched for > 30 minutes; `cancelled`: the
 * user stopped it.
 */
export const TaskStatus = z.enum([
  'active',
  'executing',
  'completed',
  'failed',
  'interrupted',
  'needs_user_input',
  'cancelled',
]);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** Statuses after which a task can never advance again (a request for it gets 409). */
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = [
  'completed',
  'failed',
  'interrupted',
  'cancelled',
];

export const Complexity = z.enum(['SIMPLE', 'COMPLEX']);
export type Complexity = z.infer<typeof Complexity>;

export const PlanStepStatus = z.enum(['pending', 'active', 'completed', 'failed', 'skipped']);
export type PlanStepStatus = z.infer<typeof PlanStepStatus>;

export const PlanStep = z.object({
  index: z.number().int().nonnegative(),
  description: z.string().min(1),
  status: PlanStepStatus,
  /** Whether step refinement can turn this step into a DOM action without a full action prompt. */
  refinable: z.boolean().optional(),
  /** Conditional planning: "if X, do Y" branches checked before the correction LLM. */
  contingencies: z.array(z.object({ condition: z.string(), action: z.string() })).optional(),
  /**
   * Hierarchical planning: the sub-task this step belongs to (its index in the task's
   * hierarchical plan and its name), so a plan shows its parts wherever it is displayed.
   */
  subTask: z.object({ index: z.number().int().nonnegative(), name: z.string() }).optional(),
  /**
   * A short text the page shows once the step worked, as the planner predicted it: evidence
   * verification checks without a model.
   */
  expect: z.string().optional(),
});
export type PlanStep = z.infer<typeof PlanStep>;

export const Plan = z.object({
  goal: z.string(),
  steps: z.array(PlanStep),
  currentStepIndex: z.number().int().nonnegative(),
  createdAt: z.string().datetime().optional(),
  /**
   * The planner's answer for the user once the last step is verified, when it does not depend
   * on what the pages will show: the task then ends without a call for its final answer.
   */
  answer: z.string().optional(),
});
export type Plan = z.infer<typeof Plan>;

export const SubTaskStatus = z.enum(['pending', 'active', 'completed', 'failed']);
export type SubTaskStatus = z.infer<typeof SubTaskStatus>;

/** Hierarchical (manager–worker) planning: sub-tasks with an input/output contract. */
export const SubTask = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  inputs: z.array(z.string()).default([]),
  outputs: z.array(z.string()).default([]),
  status: SubTaskStatus,
  stepIndexes: z.array(z.number().int().nonnegative()).default([]),
});
export type SubTask = z.infer<typeof SubTask>;

export const HierarchicalPlan = z.object({
  subTasks: z.array(SubTask),
  currentSubTaskIndex: z.number().int().nonnegative(),
});
export type HierarchicalPlan = z.infer<typeof HierarchicalPlan>;

/** Look-ahead: what must be available for the next step (verification checks it). */
export const NextGoal = z.object({
  description: z.string(),
  selector: z.string().optional(),
  textContent: z.string().optional(),
  role: z.string().optional(),
  required: z.boolean(),
});
export type NextGoal = z.infer<typeof NextGoal>;

export const ExpectedOutcome = z.object({
  description: z.string(),
  urlShouldChange: z.boolean().optional(),
  /** Simple DOM expectations (e.g. an element with aria-expanded=true, a text that appears). */
  domChanges: z
    .object({
      elementShouldExist: z.string().optional(),
      elementShouldNotExist: z.string().optional(),
      elementShouldHaveText: z.object({ selector: z.string(), text: z.string() }).optional(),
      attributeChanges: z
        .array(z.object({ attribute: z.string(), expectedValue: z.string() }))
        .optional(),
    })
    .optional(),
  nextGoal: NextGoal.optional(),
  /** A text the page should show afterwards (a confirmation, the record's name). */
  textShouldAppear: z.string().optional(),
  /** The action's own prediction that it achieves the whole goal (tier 1 may then settle it). */
  completesGoal: z.boolean().optional(),
  /**
   * The answer to show the user when the goal is then confirmed, written with the action: the
   * task ends without another model call for its final answer.
   */
  answer: z.string().optional(),
  /** `template` for the fixed dropdown/navigation predictions, `llm` otherwise. */
  source: z.enum(['template', 'llm']).optional(),
});
export type ExpectedOutcome = z.infer<typeof ExpectedOutcome>;

export const VerificationTier = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export type VerificationTier = z.infer<typeof VerificationTier>;

export const VerificationResult = z.object({
  success: z.boolean(),
  confidence: z.number().min(0).max(1),
  reason: z.string(),
  /** The action did what it was meant to do (step level). */
  actionSucceeded: z.boolean().optional(),
  /** The whole user goal is done (task level). */
  taskCompleted: z.boolean().optional(),
  /** taskCompleted && confidence >= 0.70 */
  goalAchieved: z.boolean().optional(),
  subTaskCompleted: z.boolean().optional(),
  verificationTier: VerificationTier.optional(),
  tokensSaved: z.number().int().nonnegative().optional(),
  observations: z.array(z.string()).optional(),
  nextGoalCheck: z.object({ available: z.boolean(), reason: z.string() }).optional(),
});
export type VerificationResult = z.infer<typeof VerificationResult>;

export const CorrectionStrategy = z.enum([
  'ALTERNATIVE_SELECTOR',
  'ALTERNATIVE_TOOL',
  'GATHER_INFORMATION',
  'UPDATE_PLAN',
  'RETRY_WITH_DELAY',
  'CONTINGENCY',
]);
export type CorrectionStrategy = z.infer<typeof CorrectionStrategy>;

export const CorrectionRecord = z.object({
  id: z.string(),
  stepIndex: z.number().int().nonnegative(),
  attempt: z.number().int().positive(),
  failedAction: z.string(),
  correctedAction: z.string(),
  strategy: CorrectionStrategy,
  reason: z.string(),
  /** Filled in once the corrected action is verified. */
  succeeded: z.boolean().optional(),
  /** The failed and the corrected action in plain language ("Clicked “Patients”"), for lessons. */
  failedSummary: z.string().optional(),
  correctedSummary: z.string().optional(),
  /** Strategy CONTINGENCY: the plan step's contingency action carried out (tried once a step). */
  contingencyAction: z.string().optional(),
  createdAt: z.string().datetime(),
});
export type CorrectionRecord = z.infer<typeof CorrectionRecord>;

export const TaskMetrics = z.object({
  totalSteps: z.number().int().nonnegative(),
  totalRequests: z.number().int().nonnegative(),
  totalDurationMs: z.number().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** Integer micro-USD: money is never a float. */
  costMicroUsd: z.number().int().nonnegative(),
  verificationsPassed: z.number().int().nonnegative(),
  verificationsFailed: z.number().int().nonnegative(),
  corrections: z.number().int().nonnegative(),
  /** Plans adapted or regenerated because the page changed (re-plan frequency). */
  replans: z.number().int().nonnegative().optional(),
  /**
   * Counters behind the KPIs (docs/specs.md, "Metrics and KPIs"), kept per task (absent on tasks
   * recorded before they were counted, and while zero). `actionsSent` counts every client action,
   * each element of a chain included, so 1 − totalSteps / actionsSent is the round-trip reduction
   * of chaining.
   */
  actionsSent: z.number().int().nonnegative().optional(),
  /** Proposals the critic reviewed, and those it rejected (its catch rate). */
  criticReviews: z.number().int().nonnegative().optional(),
  criticRejections: z.number().int().nonnegative().optional(),
  /** Action generation calls that were shown at least one skill (the skill hit rate). */
  skillHintSteps: z.number().int().nonnegative().optional(),
  /**
   * Look-ahead (Batch & Adapt Task 3): next goals checked, found on the page (hit rate), and
   * required ones missing after an action that otherwise looked successful (early detection).
   */
  lookAheadChecks: z.number().int().nonnegative().optional(),
  lookAheadHits: z.number().int().nonnegative().optional(),
  lookAheadCaught: z.number().int().nonnegative().optional(),
});
export type TaskMetrics = z.infer<typeof TaskMetrics>;

export const emptyTaskMetrics = (): TaskMetrics => ({
  totalSteps: 0,
  totalRequests: 0,
  totalDurationMs: 0,
  totalTokens: 0,
  inputTokens: 0,
  outputTokens: 0,
  costMicroUsd: 0,
  verificationsPassed: 0,
  verificationsFailed: 0,
  corrections: 0,
});

/** One element of an action chain (Batch & Adapt Task 1). */
export const ChainAction = z.object({
  action: z.string(),
  description: z.string(),
  index: z.number().int().nonnegative(),
  canFail: z.boolean().optional(),
});
export type ChainAction = z.infer<typeof ChainAction>;

export const ChainMetadata = z.object({
  totalActions: z.number().int().positive(),
  estimatedDuration: z.number().optional(),
  safeToChain: z.boolean(),
});
export type ChainMetadata = z.infer<typeof ChainMetadata>;

/** The chain last sent to the client, kept on the task for partial-failure recovery. */
export const StoredChain = z.object({
  actions: z.array(ChainAction),
  metadata: ChainMetadata,
  stepIndex: z.number().int().nonnegative(),
});
export type StoredChain = z.infer<typeof StoredChain>;

/** The action types a TokenUsageLog is attributed to (docs/specs.md, "usage dual-write"). */
export const LlmActionType = z.enum([
  'PLANNING',
  'REFINEMENT',
  'VERIFICATION',
  'CONTEXT_ANALYSIS',
  'SELF_CORRECTION',
  'OUTCOME_PREDICTION',
  'ACTION_GENERATION',
  'DIRECT_ACTION',
  'CRITIC',
  'MULTI_SOURCE_SYNTHESIS',
  'DYNAMIC_INTERRUPT',
  'SKILLS_RETRIEVAL',
  'CONTINGENCY_CHECK',
  'HIERARCHICAL_PLANNING',
  'REPLANNING',
  'EXTRACTION',
  /** The model reading a slice of a replayed page to cross-check the replay. */
  'EXTRACTION_CHECK',
  'EMBEDDING',
  /** The final answer finalize writes for the user. */
  'FINAL_ANSWER',
  /** The document extraction agent: extraction runs and corrections. */
  'DOCUMENT_EXTRACTION',
  /** The stacks agent: several documents into one table. */
  'STACK_EXTRACTION',
  /** A routine rerun: the cheap call that picks between readings of an ambiguous goal. */
  'ROUTINE_RERUN',
  /** A routine rerun: the model doing one step whose target or outcome changed. */
  'ROUTINE_HEAL',
]);
export type LlmActionType = z.infer<typeof LlmActionType>;

export const LlmProvider = z.enum(['GOOGLE', 'OPENAI_COMPATIBLE', 'SCRIPTED']);
export type LlmProvider = z.infer<typeof LlmProvider>;

export const ApiKeyRole = z.enum(['user', 'admin']);
export type ApiKeyRole = z.infer<typeof ApiKeyRole>;

export const MessageRole = z.enum(['user', 'assistant', 'system']);
export type MessageRole = z.infer<typeof MessageRole>;

export const SessionStatus = z.enum(['active', 'completed', 'failed', 'archived']);
export type SessionStatus = z.infer<typeof SessionStatus>;

export const ActionStatus = z.enum(['success', 'failure', 'pending']);
export type ActionStatus = z.infer<typeof ActionStatus>;

/** Token usage as returned to the client and summed on tasks. */
export const Usage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  costMicroUsd: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof Usage>;
