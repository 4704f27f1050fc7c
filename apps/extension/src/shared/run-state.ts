// The state of one tab's task run, kept in chrome.storage.local so that the popup can show it
// live and the service worker can pick the loop up again after Chrome stops it mid-task.
import {
  ActionRisk,
  ApprovalDecision,
  CollectedCounts,
  SnapshotRequest,
  ChainActionError,
  ChainPartialState,
  ClientObservations,
  DomMode,
  ExtractionProgress,
  Plan,
  RoutineRunInfo,
  RoutineRunRequest,
  Usage,
  VerificationResult,
} from '@tandem/contracts';
import { z } from 'zod';
import type { KeyValueStore } from './settings';

export const TASK_TTL_MS = 30 * 60 * 1000;
export const taskKey = (tabId: number) => `task_${tabId}`;
export const runKey = (tabId: number) => `run_${tabId}`;

/**
 * taskId persisted per tab (docs/specs.md, "taskId persistence and task recovery"), expiring after
 * 30 minutes of inactivity.
 */
export const StoredTask = z.object({
  taskId: z.string(),
  sessionId: z.string(),
  url: z.string(),
  timestamp: z.number(),
});
export type StoredTask = z.infer<typeof StoredTask>;

export const StepView = z.object({
  index: z.number().int(),
  thought: z.string(),
  /** The step in plain language ("Clicked “Patients”"): what people read first. */
  summary: z.string().optional(),
  /** The plan step (0-based) this step worked on. */
  planStep: z.number().int().nonnegative().optional(),
  action: z.string().optional(),
  chain: z.array(z.string()).optional(),
  /** A page read (needs_snapshot) rather than an action. */
  read: z.boolean().optional(),
  /** Where the step's approval stands, when it needed one (a high-risk step). */
  approval: z.enum(['waiting', 'approved', 'edited', 'rejected']).optional(),
  /** The verdict on THIS step, attached when the next response judges it. */
  verification: VerificationResult.optional(),
  status: z.string(),
  at: z.number(),
});
export type StepView = z.infer<typeof StepView>;

/** What the next request must report about the action(s) just executed. */
export const PendingReport = z.object({
  lastActionStatus: z.enum(['success', 'failure', 'pending']).optional(),
  lastActionError: z.string().optional(),
  clientObservations: ClientObservations.optional(),
  previousUrl: z.string().optional(),
  lastExecutedActionIndex: z.number().int().nonnegative().optional(),
  chainPartialState: ChainPartialState.optional(),
  chainActionError: ChainActionError.optional(),
  captureMode: DomMode.optional(),
  /** The server asked for a snapshot: take it with the next capture and execute nothing. */
  snapshotRequest: SnapshotRequest.optional(),
  /** The user's answer to the task's question, sent with the next request. */
  answer: z.string().optional(),
  /** The user's decision on the last step's approval card, sent with the next request. */
  approval: ApprovalDecision.optional(),
});
export type PendingReport = z.infer<typeof PendingReport>;

/** Why the loop is waiting before its next request, and until when (epoch ms). */
export const RunWait = z.object({
  reason: z.enum(['rate_limit', 'server_unavailable', 'busy']),
  until: z.number(),
  attempt: z.number().int().positive(),
});
export type RunWait = z.infer<typeof RunWait>;

/** One action of a step as the loop executes it (a chain's, or a single action as a chain of one). */
export const PlannedStep = z.object({
  action: z.string(),
  /** The chain goes on past this action when it fails. */
  canFail: z.boolean(),
  index: z.number().int().nonnegative(),
});
export type PlannedStep = z.infer<typeof PlannedStep>;

/** A high-risk step waiting for the user (status needs_approval), as the approval card shows it. */
export const PendingApproval = z.object({
  /** The step's actions as the server sent them: placeholders, never a secret's value. */
  actions: z.array(PlannedStep).min(1),
  /** The server sent a chain (reported as one), not a single action. */
  isChain: z.boolean(),
  risks: z.array(ActionRisk).min(1),
  /** The step in plain language. */
  summary: z.string(),
  /** The page it was decided on: where it runs, and how a restarted browser finds the run. */
  url: z.string(),
  /** The targets' names as the page gave them, for the card's words. */
  names: z.record(z.string(), z.string()).optional(),
  /** Set once the user approved or edited: the loop executes `actions` as they are then. */
  decision: z.enum(['approved', 'edited']).optional(),
});
export type PendingApproval = z.infer<typeof PendingApproval>;

export const RunState = z.object({
  tabId: z.number().int(),
  goal: z.string(),
  status: z.enum([
    'running',
    'completed',
    'failed',
    'stopped',
    'needs_input',
    'needs_approval',
    'error',
  ]),
  /** The sites the task may act on: its start page's, then the ones the user added. */
  sites: z.array(z.string()).optional(),
  /**
   * The saved routine the user chose to run ("Run again with…"): sent with the request that
   * starts the task. Kept in the run, not the message, so a worker that restarts before that
   * request still sends it.
   */
  routineRequest: RoutineRunRequest.optional(),
  /** The routine the task runs, as the latest response that spoke of it said (the banner). */
  routine: RoutineRunInfo.optional(),
  /** The high-risk step the run waits on while its status is needs_approval. */
  approval: PendingApproval.optional(),
  taskId: z.string().optional(),
  sessionId: z.string().optional(),
  steps: z.array(StepView),
  pending: PendingReport.optional(),
  /** Actions handed to the tab but not yet reported (the worker may die in between). */
  inFlight: z.array(z.string()).optional(),
  /** The final answer, written for the user. */
  result: z.string().optional(),
  /**
   * Items the task has collected so far, per type (docs/specs.md, "streaming extraction"); shown
   * with a download.
   */
  collected: CollectedCounts.optional(),
  duplicatesSkipped: z.number().int().nonnegative().optional(),
  /** The task's collect target, when it has one ("12 of 25"). */
  collectLimit: z.number().int().positive().optional(),
  /**
   * The task's structured extractions (docs/specs.md, "extraction overhaul"), counts only, as the
   * latest response listed them; the data itself is downloaded from the server when asked for.
   */
  extractions: z.array(ExtractionProgress).optional(),
  question: z.string().optional(),
  error: z.string().optional(),
  /** The task's plan and the plan step being worked on (COMPLEX tasks). */
  plan: Plan.optional(),
  currentStep: z.number().int().nonnegative().optional(),
  /** Set while the loop waits (429 Retry-After, server unavailable, task busy). */
  wait: RunWait.optional(),
  /** Idempotency key of the request being sent, reused by its retries. */
  requestKey: z.string().optional(),
  /**
   * When the run started (epoch ms), requests answered, and the task's tokens and cost so far.
   * startedAt is unique per tab (startRun makes it so): writes of an older run are refused.
   */
  startedAt: z.number().optional(),
  requests: z.number().int().nonnegative().optional(),
  usage: Usage.optional(),
  updatedAt: z.number(),
});
export type RunState = z.infer<typeof RunState>;

export async function loadRun(storage: KeyValueStore, tabId: number): Promise<RunState | null> {
  const parsed = RunState.safeParse((await storage.get(runKey(tabId)))[runKey(tabId)]);
  return parsed.success ? parsed.data : null;
}

export type RunStatus = RunState['status'];

/** A run that can still act, so Stop ends it: running, or waiting on the user (answer, approval). */
export const isActiveStatus = (status: RunStatus | undefined): boolean =>
  status === 'running' || status === 'needs_input' || status === 'needs_approval';

/**
 * Whether a write may turn the stored status `from` into `to`. A running run may become
 * anything; a question or an approval card may be answered (running), stopped or fail; Stop and the end of a run
 * are final: only a new run (startRun) replaces them. This is what keeps a loop that still
 * holds a copy from before a Stop from turning `stopped` back into `running`.
 */
export function statusMayChange(from: RunStatus, to: RunStatus): boolean {
  if (from === to || from === 'running') return true;
  if (from === 'needs_input' || from === 'needs_approval')
    return to === 'running' || to === 'stopped' || to === 'error';
  return false;
}

/** A write of `next` may replace `stored`: the same run (by startedAt) and an allowed status. */
export function mayOverwrite(
  stored: Pick<RunState, 'startedAt' | 'status'>,
  next: Pick<RunState, 'startedAt' | 'status'>,
): boolean {
  return stored.startedAt === next.startedAt && statusMayChange(stored.status, next.status);
}

// chrome.storage has no transactions: a read-check-write of one tab's run must not interleave
// with another in this worker, or both checks pass and the later write wins. Writes of a tab
// therefore queue behind each other (per store, so tests with separate stores stay apart).
const queues = new WeakMap<KeyValueStore, Map<number, Promise<unknown>>>();

function serialised<T>(storage: KeyValueStore, tabId: number, work: () => Promise<T>): Promise<T> {
  let tabs = queues.get(storage);
  if (!tabs) queues.set(storage, (tabs = new Map()));
  const result = (tabs.get(tabId) ?? Promise.resolve()).then(work);
  const tail = result.catch(() => undefined);
  tabs.set(tabId, tail);
  void tail.then(() => {
    if (tabs.get(tabId) === tail) tabs.delete(tabId);
  });
  return result;
}

export interface RunWrite {
  /** False when the stored run was newer (another run, or a status this write may not undo). */
  written: boolean;
  /** What is stored now: the write, or the newer run that refused it. */
  run: RunState;
}

/**
 * Compare-and-set of the tab's run: writes `run` with `patch` applied, stamped now, unless the
 * run stored meanwhile may not be overwritten by it (mayOverwrite). `replace` skips the check:
 * only a new run (Start) replaces whatever is stored. Every write of a run goes through here.
 */
export async function compareAndSetRun(
  storage: KeyValueStore,
  run: Omit<RunState, 'updatedAt'>,
  patch: Partial<RunState> = {},
  options: { replace?: boolean } = {},
): Promise<RunWrite> {
  return serialised(storage, run.tabId, async () => {
    const next: RunState = { ...run, ...patch, updatedAt: Date.now() };
    if (!options.replace) {
      const stored = await loadRun(storage, next.tabId);
      if (stored && !mayOverwrite(stored, next)) return { written: false, run: stored };
    }
    await storage.set({ [runKey(next.tabId)]: next });
    return { written: true, run: next };
  });
}

/** compareAndSetRun for callers that only need what is stored afterwards. */
export async function writeRun(
  storage: KeyValueStore,
  run: Omit<RunState, 'updatedAt'>,
  patch: Partial<RunState> = {},
  options: { replace?: boolean } = {},
): Promise<RunState> {
  return (await compareAndSetRun(storage, run, patch, options)).run;
}

export async function persistTask(
  storage: KeyValueStore,
  tabId: number,
  task: Omit<StoredTask, 'timestamp'>,
  now = Date.now(),
): Promise<void> {
  await storage.set({ [taskKey(tabId)]: { ...task, timestamp: now } });
}

/** The tab's taskId if it was used within the last 30 minutes. */
export async function getTaskForTab(
  storage: KeyValueStore,
  tabId: number,
  now = Date.now(),
): Promise<StoredTask | null> {
  const parsed = StoredTask.safeParse((await storage.get(taskKey(tabId)))[taskKey(tabId)]);
  if (!parsed.success) return null;
  return now - parsed.data.timestamp < TASK_TTL_MS ? parsed.data : null;
}
