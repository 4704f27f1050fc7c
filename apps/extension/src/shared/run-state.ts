// The state of one tab's task run, kept in chrome.storage.local so that the popup can show it
// live and the service worker can pick the loop up again after Chrome stops it mid-task.
import {
  CollectedCounts,
  SnapshotRequest,
  ChainActionError,
  ChainPartialState,
  ClientObservations,
  DomMode,
  Plan,
  Usage,
  VerificationResult,
} from '@tandem/contracts';
import { z } from 'zod';
import type { KeyValueStore } from './settings';

export const TASK_TTL_MS = 30 * 60 * 1000;
export const taskKey = (tabId: number) => `task_${tabId}`;
export const runKey = (tabId: number) => `run_${tabId}`;

/** Spec 003 § 1: taskId persisted per tab, expiring after 30 minutes of inactivity. */
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
});
export type PendingReport = z.infer<typeof PendingReport>;

/** Why the loop is waiting before its next request, and until when (epoch ms). */
export const RunWait = z.object({
  reason: z.enum(['rate_limit', 'server_unavailable', 'busy']),
  until: z.number(),
  attempt: z.number().int().positive(),
});
export type RunWait = z.infer<typeof RunWait>;

export const RunState = z.object({
  tabId: z.number().int(),
  goal: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'stopped', 'needs_input', 'error']),
  taskId: z.string().optional(),
  sessionId: z.string().optional(),
  steps: z.array(StepView),
  pending: PendingReport.optional(),
  /** Actions handed to the tab but not yet reported (the worker may die in between). */
  inFlight: z.array(z.string()).optional(),
  /** The final answer, written for the user. */
  result: z.string().optional(),
  /** Items the task has collected so far, per type (spec 000); shown with a download. */
  collected: CollectedCounts.optional(),
  duplicatesSkipped: z.number().int().nonnegative().optional(),
  question: z.string().optional(),
  error: z.string().optional(),
  /** The task's plan and the plan step being worked on (COMPLEX tasks). */
  plan: Plan.optional(),
  currentStep: z.number().int().nonnegative().optional(),
  /** Set while the loop waits (429 Retry-After, server unavailable, task busy). */
  wait: RunWait.optional(),
  /** Idempotency key of the request being sent, reused by its retries. */
  requestKey: z.string().optional(),
  /** When the run started (epoch ms), requests sent, and the task's tokens and cost so far. */
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

/**
 * Writes the tab's run as `run` with `patch` applied, stamped now, and returns what it wrote.
 * Every write of a run goes through here (Start, Stop, each step of the loop, the worker's
 * last-resort error). That matters for the Stop race (#15): a loop write is made from a copy
 * read earlier and can overwrite a Stop written in between, and this is the one place that
 * sees every such write.
 */
export async function writeRun(
  storage: KeyValueStore,
  run: Omit<RunState, 'updatedAt'>,
  patch: Partial<RunState> = {},
): Promise<RunState> {
  const next: RunState = { ...run, ...patch, updatedAt: Date.now() };
  await storage.set({ [runKey(next.tabId)]: next });
  return next;
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
