// A task (one user request the agent works through) and its action history (the steps it took).
import {
  emptyTaskMetrics,
  type ActionStatus,
  type Complexity,
  type CorrectionRecord,
  type ExpectedOutcome,
  type HierarchicalPlan,
  type Plan,
  type StoredChain,
  type TaskMetrics,
  type TaskStatus,
  type VerificationResult,
} from '@tandem/contracts';
import type { Page } from '../../port';
import { isoTime, newId } from '../../shared';

/**
 * Statuses a task can still advance from (findActive / expireStale look at these): a task
 * paused on a question is live too, and its answer continues it.
 */
export const LIVE_TASK_STATUSES: TaskStatus[] = ['active', 'executing', 'needs_user_input'];

export interface Task {
  id: string;
  tenantId: string;
  userId: string;
  sessionId: string | null;
  url: string;
  query: string;
  status: TaskStatus;
  complexity: Complexity | null;
  plan: Plan | null;
  hierarchicalPlan: HierarchicalPlan | null;
  currentStepIndex: number;
  corrections: CorrectionRecord[];
  metrics: TaskMetrics;
  lastChain: StoredChain | null;
  webSearchResult: unknown;
  /** Final answer (finish) or failure reason (fail / limits). */
  result: string | null;
  /** Streaming collection: stop the task once this many items were collected. */
  collectLimit: number | null;
  consecutiveFailures: number;
  consecutiveSuccessWithoutTaskComplete: number;
  /** Optimistic concurrency: bumped by every update; `ifVersion` guards against lost updates. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface TaskAction {
  id: string;
  tenantId: string;
  taskId: string;
  stepIndex: number;
  thought: string;
  action: string;
  expectedOutcome: ExpectedOutcome | null;
  /** State before the action ran, for observation-based verification. */
  beforeState: { url: string; domHash: string; semanticSkeleton?: string } | null;
  verification: VerificationResult | null;
  status: ActionStatus;
  metrics: { durationMs: number; inputTokens: number; outputTokens: number } | null;
  createdAt: string;
}

/**
 * A new task: who asked what, where, and optionally any field an update could set, so a task
 * whose first step is already decided is written once. Absent fields take their defaults.
 */
export type NewTask = Pick<Task, 'userId' | 'url' | 'query'> &
  Partial<Pick<Task, 'id' | 'sessionId'>> &
  TaskPatch;

/**
 * Fields a task update may change. `version`, ids, tenant and createdAt are never patched.
 * A key that is absent or `undefined` leaves the field unchanged; `null` clears it.
 */
export type TaskPatch = Partial<
  Omit<Task, 'id' | 'tenantId' | 'userId' | 'version' | 'createdAt' | 'updatedAt'>
>;

export type NewTaskAction = Omit<TaskAction, 'id' | 'tenantId' | 'createdAt'> & {
  id?: string;
  createdAt?: string;
};

export interface TaskRepository {
  create(tenantId: string, input: NewTask): Promise<Task>;
  get(tenantId: string, id: string): Promise<Task | null>;
  /**
   * Applies the patch and bumps `version`. With `ifVersion`, throws VersionConflictError unless
   * the stored version equals it (only one of two concurrent requests advances a task).
   * Returns null if the task does not exist for this tenant.
   */
  update(
    tenantId: string,
    id: string,
    patch: TaskPatch,
    options?: { ifVersion?: number },
  ): Promise<Task | null>;
  /** Newest first. */
  list(
    tenantId: string,
    options?: {
      status?: TaskStatus[];
      userId?: string;
      sessionId?: string;
      /** Creation window (admin reports): `createdFrom` inclusive, `createdTo` exclusive. */
      createdFrom?: string;
      createdTo?: string;
      limit?: number;
      cursor?: string | null;
    },
  ): Promise<Page<Task>>;
  /** The newest active/executing task of a session, optionally on a URL. */
  findActive(tenantId: string, input: { sessionId: string; url?: string }): Promise<Task | null>;
  /** Marks active/executing tasks not updated since `olderThan` as interrupted; returns count. */
  expireStale(tenantId: string, input: { olderThan: string; sessionId?: string }): Promise<number>;
}

export interface TaskActionRepository {
  insert(tenantId: string, input: NewTaskAction): Promise<TaskAction>;
  /** One batched write (one transaction / one insertMany). */
  insertMany(tenantId: string, inputs: NewTaskAction[]): Promise<TaskAction[]>;
  get(tenantId: string, id: string): Promise<TaskAction | null>;
  /** Ordered by stepIndex then createdAt. */
  listByTask(tenantId: string, taskId: string): Promise<TaskAction[]>;
  getLast(tenantId: string, taskId: string): Promise<TaskAction | null>;
  /**
   * The actions of several tasks at once (admin metrics over a page of tasks), ordered by
   * taskId, then like listByTask. Ids of other tenants' tasks contribute nothing.
   */
  listByTasks(tenantId: string, taskIds: readonly string[]): Promise<TaskAction[]>;
  update(
    tenantId: string,
    id: string,
    patch: Partial<Pick<TaskAction, 'verification' | 'status' | 'metrics' | 'expectedOutcome'>>,
  ): Promise<TaskAction | null>;
}

/** A task starts active at step 0, version 1, unless the input already decided more. */
export function newTaskRecord(tenantId: string, input: NewTask, now: string): Task {
  return {
    id: input.id ?? newId(),
    tenantId,
    userId: input.userId,
    sessionId: input.sessionId ?? null,
    url: input.url,
    query: input.query,
    status: input.status ?? 'active',
    complexity: input.complexity ?? null,
    plan: input.plan ?? null,
    hierarchicalPlan: input.hierarchicalPlan ?? null,
    currentStepIndex: input.currentStepIndex ?? 0,
    corrections: input.corrections ?? [],
    metrics: input.metrics ?? emptyTaskMetrics(),
    lastChain: input.lastChain ?? null,
    webSearchResult: input.webSearchResult ?? null,
    result: input.result ?? null,
    collectLimit: input.collectLimit ?? null,
    consecutiveFailures: input.consecutiveFailures ?? 0,
    consecutiveSuccessWithoutTaskComplete: input.consecutiveSuccessWithoutTaskComplete ?? 0,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** A caller may backdate an action (replayed history); its time is normalised like `now`. */
export function newTaskActionRecord(
  tenantId: string,
  input: NewTaskAction,
  now: string,
): TaskAction {
  return {
    id: input.id ?? newId(),
    tenantId,
    taskId: input.taskId,
    stepIndex: input.stepIndex,
    thought: input.thought,
    action: input.action,
    expectedOutcome: input.expectedOutcome ?? null,
    beforeState: input.beforeState ?? null,
    verification: input.verification ?? null,
    status: input.status,
    metrics: input.metrics ?? null,
    createdAt: input.createdAt === undefined ? now : isoTime(input.createdAt),
  };
}
