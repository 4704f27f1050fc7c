// What the popup's Start, Stop and answer do to a tab's run. The loop (task-loop.ts) then
// drives a running run; these only change what is stored, plus the server-side cancel.
import type { RoutineRunRequest } from '@tandem/contracts';
import type { ApiClient } from '../shared/api-client';
import {
  compareAndSetRun,
  getTaskForTab,
  isActiveStatus,
  loadRun,
  taskKey,
  writeRun,
  type RunState,
} from '../shared/run-state';
import type { KeyValueStore } from '../shared/settings';
import { within, type RunControl } from './run-control';

/**
 * Starts a new run for a tab (the popup's "Start"). A new goal is a new task, so the tab's
 * previous taskId is forgotten; but it continues the tab's session, so the server can read the
 * conversation ("now do the same for John Smith"). startedAt is kept unique per tab, since it
 * is what tells a late write of the previous run from one of this run.
 */
export async function startRun(
  storage: KeyValueStore,
  tabId: number,
  goal: string,
  now = Date.now(),
  /** The task's sites: the tab's site, then the ones the user added (contracts' taskSites). */
  sites: readonly string[] = [],
  /** The routine the popup filled the goal from ("Run again with…"), when it did. */
  routine?: RoutineRunRequest,
): Promise<RunState> {
  const previous = await loadRun(storage, tabId);
  await storage.remove(taskKey(tabId));
  const run = {
    tabId,
    goal,
    status: 'running' as const,
    steps: [],
    startedAt: Math.max(now, (previous?.startedAt ?? 0) + 1),
    requests: 0,
    ...(sites.length > 0 ? { sites: [...sites] } : {}),
    ...(routine ? { routineRequest: routine } : {}),
    ...(previous?.sessionId ? { sessionId: previous.sessionId } : {}),
  };
  return writeRun(storage, run, {}, { replace: true });
}

/** A run that Stop (or a new goal) ends: one that runs or waits for an answer. */
export const isActive = (run: Pick<RunState, 'status'>): boolean => isActiveStatus(run.status);

export interface StopDeps {
  storage: KeyValueStore;
  api: () => Promise<Pick<ApiClient, 'cancel'>>;
}

export interface StopLimits {
  /** How long Stop waits for an action the tab is executing. */
  settleMs?: number;
  /** How long the server gets to cancel the task; Stop never waits longer. */
  cancelMs?: number;
}

/**
 * Stop: the tab's loop (its `control`, when one runs in this worker) is aborted and an action
 * already handed to the tab settles, then `stopped` is written, so the popup's "Stopped" is
 * true; then the server task is cancelled, best effort. Returns what is stored afterwards.
 */
export async function stopRun(
  deps: StopDeps,
  tabId: number,
  control?: RunControl,
  limits: StopLimits = {},
): Promise<RunState | null> {
  await control?.stop(limits.settleMs);
  const run = await loadRun(deps.storage, tabId);
  if (!run || !isActive(run)) return run;
  const write = await compareAndSetRun(deps.storage, run, {
    status: 'stopped',
    question: undefined,
    approval: undefined,
    wait: undefined,
    inFlight: undefined,
    requestKey: undefined,
  });
  // Refused: the run ended by itself just before (its task needs no cancel).
  if (!write.written) return write.run;
  const taskId = run.taskId ?? (await getTaskForTab(deps.storage, tabId))?.taskId;
  await deps.storage.remove(taskKey(tabId));
  if (taskId) await cancelTask(deps, taskId, limits.cancelMs ?? 3_000);
  return write.run;
}

/** Best effort: the server may be down or slow, and Stop has already taken effect here. */
async function cancelTask(deps: StopDeps, taskId: string, ms: number): Promise<void> {
  const cancel = deps.api().then((api) => api.cancel(taskId, AbortSignal.timeout(ms)));
  await within(ms, cancel);
}

/**
 * The user's answer to the run's question: kept for the next request, which sends it with the
 * task's taskId and sessionId, and the run goes on. Throws when no question is waiting.
 */
export async function answerRun(
  storage: KeyValueStore,
  tabId: number,
  answer: string,
): Promise<RunState> {
  const run = await loadRun(storage, tabId);
  if (!run || run.status !== 'needs_input')
    throw new Error('This tab has no question waiting for an answer.');
  const write = await compareAndSetRun(storage, run, {
    status: 'running',
    question: undefined,
    pending: { ...run.pending, answer },
  });
  if (!write.written) throw new Error(`The run is ${write.run.status} now.`);
  return write.run;
}
