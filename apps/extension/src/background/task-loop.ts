// The client side of spec 003's loop, for one tab: capture → interact → execute → wait for
// stability → capture … It takes its browser APIs as parameters (TabDriver, storage, API
// client) so it runs in unit tests and in the service worker alike. Every step is written to
// storage before the next one starts, so a service worker that Chrome stops mid-task picks the
// task up where it was (without executing anything twice).
import {
  isNeedsUserInput,
  type DomMode,
  type InteractRequestInput,
  type InteractResponse,
  type PageSnapshot,
  type SnapshotRequest,
} from '@tandem/contracts';
import { ApiError, type ApiClient } from '../shared/api-client';
import type { ExecuteReply, SettleReply } from '../shared/messages';
import {
  getTaskForTab,
  loadRun,
  persistTask,
  saveRun,
  taskKey,
  type PendingReport,
  type RunState,
} from '../shared/run-state';
import type { KeyValueStore } from '../shared/settings';

/** The page-state fields of an InteractRequest, as the content script captured them. */
export type CapturedPage = Omit<InteractRequestInput, 'query' | 'taskId' | 'sessionId'> & {
  url: string;
};

export interface TabDriver {
  capture(tabId: number, mode: DomMode): Promise<CapturedPage>;
  /** An outline or content snapshot (spec 002), answering the server's needs_snapshot. */
  snapshot(tabId: number, request: SnapshotRequest): Promise<PageSnapshot>;
  execute(tabId: number, action: string, observe: boolean): Promise<ExecuteReply>;
  /** Waits until the tab's page is stable (across a navigation) and reports what happened. */
  settle(tabId: number, beforeUrl: string): Promise<SettleReply>;
  /** JPEG (base64) of the visible tab, for hybrid mode only. */
  screenshot?(tabId: number): Promise<string | null>;
}

export interface LoopDeps {
  tabs: TabDriver;
  storage: KeyValueStore;
  api: () => Promise<ApiClient>;
  /** Upper bound on requests in one run (the server also enforces MAX_STEPS_PER_TASK). */
  maxRequests?: number;
}

const firstAction = (res: Exclude<InteractResponse, { needsUserInput: true }>) =>
  res.actions?.map((a) => ({ action: a.action, canFail: a.canFail === true, index: a.index })) ??
  (res.action ? [{ action: res.action, canFail: false, index: 0 }] : []);

async function update(
  storage: KeyValueStore,
  run: RunState,
  patch: Partial<RunState>,
): Promise<RunState> {
  const next = { ...run, ...patch, updatedAt: Date.now() };
  await saveRun(storage, next);
  return next;
}

/** Starts a new run for a tab (the popup's "Start"). */
export async function startRun(
  storage: KeyValueStore,
  tabId: number,
  goal: string,
): Promise<RunState> {
  const run: RunState = { tabId, goal, status: 'running', steps: [], updatedAt: Date.now() };
  // A new goal is a new task: forget the tab's previous taskId.
  await storage.remove(taskKey(tabId));
  await saveRun(storage, run);
  return run;
}

export async function stopRun(storage: KeyValueStore, tabId: number): Promise<void> {
  const run = await loadRun(storage, tabId);
  if (run && run.status === 'running') await saveRun(storage, { ...run, status: 'stopped' });
}

/** Runs (or resumes) the tab's loop until the task ends, needs input, fails or is stopped. */
export async function runTaskLoop(deps: LoopDeps, tabId: number): Promise<RunState | null> {
  const { tabs, storage } = deps;
  let run = await loadRun(storage, tabId);
  if (!run || run.status !== 'running') return run;
  const api = await deps.api();
  const maxRequests = deps.maxRequests ?? 60;

  for (let request = 0; request < maxRequests; request++) {
    run = await loadRun(storage, tabId);
    if (!run || run.status !== 'running') return run;
    try {
      const mode = run.pending?.captureMode ?? 'semantic_v3';
      const page = await tabs.capture(tabId, mode);
      // The taskId comes from chrome.storage.local (task_${tabId}, 30-minute expiry) and, if that
      // is gone mid-task, from the server's recovery endpoint (spec 003 § 1) — never from memory.
      let taskId: string | undefined;
      if (run.steps.length > 0) {
        const stored = await getTaskForTab(storage, tabId);
        taskId = stored?.taskId;
        if (!taskId && run.sessionId)
          taskId = (await api.activeTask(run.sessionId, page.url))?.taskId;
        if (!taskId)
          return await update(storage, run, {
            status: 'error',
            error: 'The task was lost (expired after 30 minutes or interrupted); start it again.',
          });
      }
      if (mode === 'hybrid' && tabs.screenshot) page.screenshot = await tabs.screenshot(tabId);
      const snapshotRequest = run.pending?.snapshotRequest;
      if (snapshotRequest) page.snapshot = await tabs.snapshot(tabId, snapshotRequest);
      const { captureMode: _mode, snapshotRequest: _read, ...report } = run.pending ?? {};
      const body: InteractRequestInput = {
        ...page,
        ...report,
        ...(taskId ? { taskId } : { query: run.goal }),
        ...(run.sessionId ? { sessionId: run.sessionId } : {}),
      };
      const res = await api.interact(body);

      if (isNeedsUserInput(res)) {
        return await update(storage, run, {
          status: 'needs_input',
          question: res.message,
          sessionId: res.sessionId,
          pending: undefined,
          inFlight: undefined,
        });
      }
      await persistTask(storage, tabId, {
        taskId: res.taskId,
        sessionId: res.sessionId,
        url: page.url,
      });
      const actions = firstAction(res);
      const step = {
        index: run.steps.length,
        thought: res.thought,
        ...(res.action ? { action: res.action } : {}),
        ...(res.actions ? { chain: res.actions.map((a) => a.action) } : {}),
        ...(res.verification ? { verification: res.verification } : {}),
        status: res.status,
        at: Date.now(),
      };
      run = await update(storage, run, {
        taskId: res.taskId,
        sessionId: res.sessionId,
        steps: [...run.steps, step],
        pending: undefined,
        ...(res.collected ? { collected: res.collected } : {}),
      });

      if (res.needs_full_dom) {
        // Full DOM only because the server asked for it (spec 003 mode priority 5).
        run = await update(storage, run, { pending: { captureMode: 'full' } });
        continue;
      }
      if (res.needs_snapshot) {
        // The server wants to read the page before acting: answer with the snapshot, run nothing.
        run = await update(storage, run, { pending: { snapshotRequest: res.needs_snapshot } });
        continue;
      }
      if (res.status === 'completed' || res.status === 'failed') {
        await storage.remove(taskKey(tabId));
        return await update(storage, run, {
          status: res.status,
          result: res.result ?? res.thought,
        });
      }

      // Execute the action, or the chain in order, stopping at the first failure.
      run = await update(storage, run, { inFlight: actions.map((a) => a.action) });
      const beforeUrl = page.url;
      let lastOk = -1;
      let failure: Extract<ExecuteReply, { ok: false }> | null = null;
      for (const item of actions) {
        const current = await loadRun(storage, tabId);
        if (!current || current.status !== 'running') return current;
        const result = await tabs.execute(tabId, item.action, item.index === 0);
        if (result.ok) lastOk = item.index;
        else if (!item.canFail) {
          failure = result;
          break;
        }
      }
      const settled = await tabs.settle(tabId, beforeUrl);
      const pending: PendingReport = {
        lastActionStatus: failure ? 'failure' : 'success',
        ...(failure ? { lastActionError: `${failure.code}: ${failure.error}` } : {}),
        clientObservations: settled.observations,
        previousUrl: beforeUrl,
        ...(res.actions
          ? {
              lastExecutedActionIndex: Math.max(lastOk, 0),
              chainPartialState: {
                executedActions: actions.filter((a) => a.index <= lastOk).map((a) => a.action),
                totalActionsInChain: actions.length,
              },
              ...(failure
                ? {
                    chainActionError: {
                      action: failure.action,
                      message: failure.error,
                      index: lastOk + 1,
                      code: failure.code,
                    },
                  }
                : {}),
            }
          : {}),
      };
      // A chain that failed at its first action reports no executed index: nothing ran.
      if (res.actions && lastOk < 0) {
        delete pending.lastExecutedActionIndex;
      }
      run = await update(storage, run, { pending, inFlight: undefined });
    } catch (error) {
      const message =
        error instanceof ApiError
          ? error.status === 409 && error.code === 'TASK_BUSY'
            ? null
            : `${error.message}`
          : error instanceof Error
            ? error.message
            : String(error);
      if (message === null) continue; // another request of ours is still advancing the task
      return await update(storage, run, { status: 'error', error: message });
    }
  }
  return await update(storage, run, {
    status: 'error',
    error: `Stopped after ${maxRequests} requests without finishing.`,
  });
}
