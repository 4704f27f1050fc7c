// The client side of spec 003's loop, for one tab: capture → interact → execute → wait for
// stability → capture … It takes its browser APIs as parameters (TabDriver, storage, API
// client) so it runs in unit tests and in the service worker alike. Every step is written to
// storage before the next one starts, so a service worker that Chrome stops mid-task picks the
// task up where it was (without executing anything twice).
import {
  isNeedsUserInput,
  type InteractRequestInput,
  type NextActionResponse,
} from '@tandem/contracts';
import type { ApiClient } from '../shared/api-client';
import { loadRun, persistTask, taskKey, writeRun, type RunState } from '../shared/run-state';
import type { KeyValueStore } from '../shared/settings';
import { executeActions, executedReport, plannedActions } from './action-execution';
import { findTaskId, interactBody } from './interact-request';
import { runErrorMessage } from './run-error';
import { nextMove, recordedStep } from './server-answer';
import type { TabDriver } from './tab-driver';

export type { CapturedPage, TabDriver } from './tab-driver';

export interface LoopDeps {
  tabs: TabDriver;
  storage: KeyValueStore;
  api: () => Promise<ApiClient>;
  /** Upper bound on requests in one run (the server also enforces MAX_STEPS_PER_TASK). */
  maxRequests?: number;
}

const TASK_LOST = 'The task was lost (expired after 30 minutes or interrupted); start it again.';

/** Starts a new run for a tab (the popup's "Start"). */
export async function startRun(
  storage: KeyValueStore,
  tabId: number,
  goal: string,
): Promise<RunState> {
  // A new goal is a new task: forget the tab's previous taskId.
  await storage.remove(taskKey(tabId));
  return writeRun(storage, { tabId, goal, status: 'running', steps: [] });
}

export async function stopRun(storage: KeyValueStore, tabId: number): Promise<void> {
  const run = await loadRun(storage, tabId);
  if (run && run.status === 'running') await writeRun(storage, run, { status: 'stopped' });
}

/**
 * The run as the current request last wrote it. The loop writes only through `save`, so an
 * error thrown midway is recorded on top of everything already written (inFlight included).
 */
class RunRecord {
  #current: RunState;
  constructor(
    private readonly storage: KeyValueStore,
    run: RunState,
  ) {
    this.#current = run;
  }
  get current(): RunState {
    return this.#current;
  }
  async save(patch: Partial<RunState>): Promise<RunState> {
    this.#current = await writeRun(this.storage, this.#current, patch);
    return this.#current;
  }
}

/** What one request of the loop works with. */
interface Turn {
  tabId: number;
  tabs: TabDriver;
  storage: KeyValueStore;
  api: ApiClient;
  run: RunRecord;
}

/** Whether the loop sends another request, or returns `run` as the outcome of the loop. */
type TurnResult = { done: false; run: RunState } | { done: true; run: RunState | null };

/** Runs (or resumes) the tab's loop until the task ends, needs input, fails or is stopped. */
export async function runTaskLoop(deps: LoopDeps, tabId: number): Promise<RunState | null> {
  const { tabs, storage } = deps;
  let run = await loadRun(storage, tabId);
  if (!run || run.status !== 'running') return run;
  const api = await deps.api();
  const maxRequests = deps.maxRequests ?? 60;

  for (let request = 0; request < maxRequests; request++) {
    const stored = await loadRun(storage, tabId);
    if (!stored || stored.status !== 'running') return stored;
    const turn = await takeTurn({ tabId, tabs, storage, api, run: new RunRecord(storage, stored) });
    if (turn.done) return turn.run;
    run = turn.run;
  }
  return writeRun(storage, run, {
    status: 'error',
    error: `Stopped after ${maxRequests} requests without finishing.`,
  });
}

/** One request: capture the page, call the server, record its step, then act on its answer. */
async function takeTurn(turn: Turn): Promise<TurnResult> {
  try {
    const request = await prepareRequest(turn);
    if (request === 'task_lost')
      return { done: true, run: await turn.run.save({ status: 'error', error: TASK_LOST }) };
    const res = await turn.api.interact(request.body);
    if (isNeedsUserInput(res)) {
      const asked = await turn.run.save({
        status: 'needs_input',
        question: res.message,
        sessionId: res.sessionId,
        pending: undefined,
        inFlight: undefined,
      });
      return { done: true, run: asked };
    }
    await recordStep(turn, res, request.url);
    return await actOn(turn, res, request.url);
  } catch (error) {
    const message = runErrorMessage(error);
    // TASK_BUSY: our earlier request is still advancing the task; the next one picks it up.
    if (message === null) return { done: false, run: turn.run.current };
    return { done: true, run: await turn.run.save({ status: 'error', error: message }) };
  }
}

/** Captures the page as the last answer asked and builds the request; 'task_lost' without a task. */
async function prepareRequest(
  turn: Turn,
): Promise<{ url: string; body: InteractRequestInput } | 'task_lost'> {
  const { tabs, tabId } = turn;
  const run = turn.run.current;
  const mode = run.pending?.captureMode ?? 'semantic_v3';
  const page = await tabs.capture(tabId, mode);
  const found = await findTaskId(turn.storage, turn.api, run, tabId, page.url);
  if (found === 'lost') return 'task_lost';
  if (mode === 'hybrid' && tabs.screenshot) page.screenshot = await tabs.screenshot(tabId);
  const snapshotRequest = run.pending?.snapshotRequest;
  if (snapshotRequest) page.snapshot = await tabs.snapshot(tabId, snapshotRequest);
  return { url: page.url, body: interactBody(page, run, found.taskId) };
}

/** Keeps the taskId for the next request (and a restarted worker) and records the step. */
async function recordStep(turn: Turn, res: NextActionResponse, url: string): Promise<void> {
  await persistTask(turn.storage, turn.tabId, {
    taskId: res.taskId,
    sessionId: res.sessionId,
    url,
  });
  await turn.run.save(recordedStep(turn.run.current, res, Date.now()));
}

/** Answers a request for the page, ends a finished run, or executes the action(s). */
async function actOn(turn: Turn, res: NextActionResponse, url: string): Promise<TurnResult> {
  const move = nextMove(res);
  if (move.kind === 'resend_page')
    return { done: false, run: await turn.run.save({ pending: move.pending }) };
  if (move.kind === 'finish') {
    await turn.storage.remove(taskKey(turn.tabId));
    return { done: true, run: await turn.run.save({ status: move.status, result: move.result }) };
  }
  return executeAndReport(turn, res, url);
}

/** Executes the action or chain, waits for the page to settle, keeps the report for the server. */
async function executeAndReport(
  turn: Turn,
  res: NextActionResponse,
  beforeUrl: string,
): Promise<TurnResult> {
  const actions = plannedActions(res);
  await turn.run.save({ inFlight: actions.map((a) => a.action) });
  const outcome = await executeActions(turn.tabs, turn.storage, turn.tabId, actions);
  if (outcome.interrupted) return { done: true, run: outcome.run };
  const settled = await turn.tabs.settle(turn.tabId, beforeUrl);
  const pending = executedReport(
    {
      actions,
      isChain: res.actions !== undefined,
      lastOk: outcome.lastOk,
      failure: outcome.failure,
    },
    settled.observations,
    beforeUrl,
  );
  return { done: false, run: await turn.run.save({ pending, inFlight: undefined }) };
}
