// The client side of the interact loop (docs/specs.md, "High-Level Loop"), for one tab: capture →
// interact → execute → wait for stability → capture … It takes its browser APIs as parameters
// (TabDriver, storage, API client, clock) so it runs in unit tests and in the service worker alike.
// Every step is written to storage before the next one starts, so a service worker that Chrome
// stops mid-task picks the task up where it was (without executing anything twice). Stop (a
// RunControl) is checked right before everything that touches the tab.
import {
  isNeedsUserInput,
  type InteractRequestInput,
  type NeedsUserInputResponse,
  type NextActionResponse,
} from '@tandem/contracts';
import type { ApiClient } from '../shared/api-client';
import type { SettleReply } from '../shared/messages';
import {
  loadRun,
  persistTask,
  taskKey,
  type PendingApproval,
  type PendingReport,
  type PlannedStep,
  type RunState,
} from '../shared/run-state';
import { loadSecrets, secretRefs } from '../shared/secrets';
import type { KeyValueStore } from '../shared/settings';
import {
  executeActions,
  executedReport,
  plannedActions,
  type ExecuteFailure,
} from './action-execution';
import { approvedOnPage, markedStep, stepRisks } from './approval';
import { findTaskId, interactBody } from './interact-request';
import type { LearnTicket, PageLearning } from './page-learning';
import { runErrorMessage } from './run-error';
import { realTiming, RunControl, RunStopped, type Timing } from './run-control';
import { RunInterrupted, RunRecord } from './run-record';
import { securedExecute } from './secure-execute';
import { sendInteract } from './send-request';
import { askedQuestion, nextMove, recordedStep, stepSummary } from './server-answer';
import { escapedTo, type SiteGuard } from './site-guard';
import type { CapturedPage, TabDriver } from './tab-driver';

export type { CapturedPage, TabDriver } from './tab-driver';
export { answerRun, startRun, stopRun } from './run-commands';

export interface LoopDeps {
  tabs: TabDriver;
  storage: KeyValueStore;
  api: () => Promise<ApiClient>;
  /** Upper bound on requests in one run (the server also enforces MAX_STEPS_PER_TASK). */
  maxRequests?: number;
  /** The clock and waits of retries; real ones by default. */
  timing?: Timing;
  /** The idempotency key of each request (a UUID by default). */
  newRequestKey?: () => string;
  /** How long one request is retried in all (request-retry.ts RETRY_BUDGET_MS by default). */
  retryBudgetMs?: number;
  /** Sends the pages of consented sites to the tenant's knowledge, beside the loop. */
  learning?: PageLearning;
  /** Blocks the tab's navigations outside the task's sites while the loop runs. */
  siteGuard?: SiteGuard;
}

const TASK_LOST = 'The task was lost (expired after 30 minutes or interrupted); start it again.';

/** What one request of the loop works with. */
interface Turn {
  tabId: number;
  tabs: TabDriver;
  storage: KeyValueStore;
  api: ApiClient;
  run: RunRecord;
  control: RunControl;
  timing: Timing;
  newRequestKey: () => string;
  retryBudgetMs?: number;
  learning?: PageLearning | undefined;
}

/** A step to execute: the server's action or chain, as the loop runs it. */
interface Step {
  actions: PlannedStep[];
  isChain: boolean;
  taskId: string;
}

/** Whether the loop sends another request, or returns `run` as the outcome of the loop. */
type TurnResult = { done: false; run: RunState } | { done: true; run: RunState | null };

/**
 * Runs (or resumes) the tab's loop until the task ends, needs input, fails or is stopped.
 * Retries and waits happen inside one request and do not count towards `maxRequests`.
 */
export async function runTaskLoop(
  deps: LoopDeps,
  tabId: number,
  control: RunControl = new RunControl(),
): Promise<RunState | null> {
  const { storage } = deps;
  const run = await loadRun(storage, tabId);
  if (!run || run.status !== 'running' || control.stopped) return run;
  if (deps.siteGuard && run.sites?.length) await deps.siteGuard.hold(tabId, run.sites);
  try {
    return await loop(deps, tabId, control, run);
  } finally {
    // The rules hold only while the agent acts: a question, an approval card or the end of
    // the run give the tab back to the user.
    const now = await loadRun(storage, tabId).catch(() => null);
    if (deps.siteGuard && now?.status !== 'running')
      await deps.siteGuard.release(tabId).catch(() => undefined);
  }
}

async function loop(
  deps: LoopDeps,
  tabId: number,
  control: RunControl,
  first: RunState,
): Promise<RunState | null> {
  const { tabs, storage } = deps;
  let run = first;
  const api = await deps.api();
  const maxRequests = deps.maxRequests ?? 60;
  const shared = {
    tabId,
    tabs,
    storage,
    api,
    control,
    timing: deps.timing ?? realTiming,
    newRequestKey: deps.newRequestKey ?? (() => crypto.randomUUID()),
    retryBudgetMs: deps.retryBudgetMs,
    learning: deps.learning,
  };

  for (let request = 0; request < maxRequests; request++) {
    const stored = await loadRun(storage, tabId);
    if (!stored || stored.status !== 'running' || control.stopped) return stored;
    const record = new RunRecord(storage, stored);
    // A step the user approved runs first; the request after it reports the decision.
    const turn = stored.approval?.decision
      ? await guarded({ ...shared, run: record }, (t) => executeApproved(t))
      : await takeTurn({ ...shared, run: record });
    if (turn.done) return turn.run;
    run = turn.run;
  }
  const last = await end(new RunRecord(storage, run), {
    status: 'error',
    error: `Stopped after ${maxRequests} requests without finishing.`,
  });
  return last.run;
}

/** Runs `work`, ending the run as an error, a stop or an interruption says. */
async function guarded(turn: Turn, work: (turn: Turn) => Promise<TurnResult>): Promise<TurnResult> {
  try {
    return await work(turn);
  } catch (error) {
    return endWith(turn, error);
  }
}

async function endWith(turn: Turn, error: unknown): Promise<TurnResult> {
  if (error instanceof RunInterrupted) return { done: true, run: error.run };
  // Stopped: the stop handler writes `stopped` once an action handed to the tab settled.
  if (error instanceof RunStopped || turn.control.stopped)
    return { done: true, run: await loadRun(turn.storage, turn.tabId) };
  return end(turn.run, { status: 'error', error: runErrorMessage(error) });
}

/** One request: capture the page, call the server, record its step, then act on its answer. */
async function takeTurn(turn: Turn): Promise<TurnResult> {
  let learned: LearnTicket | undefined;
  try {
    const request = await prepareRequest(turn);
    if (request === 'task_lost') return end(turn.run, { status: 'error', error: TASK_LOST });
    learned = request.learned;
    const res = await sendInteract(turn, request.body);
    learned?.ready(res.taskId ?? undefined);
    if (isNeedsUserInput(res)) return { done: true, run: await ask(turn, res, request.url) };
    await recordStep(turn, res, request.url);
    return await actOn(turn, res, request.url);
  } catch (error) {
    return await endWith(turn, error);
  } finally {
    learned?.ready();
  }
}

/** Ends the run with `patch`, unless a Stop (or a new run) was stored first. */
async function end(
  run: RunRecord,
  patch: Partial<RunState>,
): Promise<{ done: true; run: RunState }> {
  try {
    return {
      done: true,
      run: await run.save({ ...patch, wait: undefined, requestKey: undefined }),
    };
  } catch (error) {
    if (error instanceof RunInterrupted) return { done: true, run: error.run };
    throw error;
  }
}

/** Captures the page as the last answer asked and builds the request; 'task_lost' without a task. */
async function prepareRequest(
  turn: Turn,
): Promise<{ url: string; body: InteractRequestInput; learned?: LearnTicket } | 'task_lost'> {
  const { tabs, tabId, control } = turn;
  const run = turn.run.current;
  const mode = run.pending?.captureMode ?? 'semantic_v3';
  control.check();
  // A page that redirected itself away since the last step (blocked by the site guard): back.
  await control.guard(escapedTo(tabs, tabId, run.sites ?? []));
  let page = await control.guard(tabs.capture(tabId, mode));
  const found = await control.guard(findTaskId(turn.storage, turn.api, run, tabId, page.url));
  if (found === 'lost') return 'task_lost';
  // The page as the task first sees it goes to the knowledge beside the request (consent).
  const learned = turn.learning?.pageSeen({
    tabId,
    runId: runIdOf(run),
    url: page.url,
    title: page.pageTitle,
    taskId: found.taskId,
  });
  if (mode === 'hybrid') page = await withScreenshot(turn, page);
  const snapshotRequest = run.pending?.snapshotRequest;
  if (snapshotRequest) {
    control.check();
    page.snapshot = await control.guard(tabs.snapshot(tabId, snapshotRequest));
  }
  const secrets = secretRefs(await loadSecrets(turn.storage));
  const body = interactBody(page, run, found.taskId, secrets);
  return { url: page.url, body, ...(learned ? { learned } : {}) };
}

/** Tells one run in a tab from the next (startRun makes startedAt unique per tab). */
const runIdOf = (run: RunState): string => `${run.startedAt ?? 0}:${run.goal}`;

/**
 * The hybrid capture with its screenshot; without one (no driver support, a tab that cannot be
 * shot, such as a chrome:// page), the full DOM instead, which the server reads in its place.
 */
async function withScreenshot(turn: Turn, page: CapturedPage): Promise<CapturedPage> {
  const { tabs, tabId, control } = turn;
  control.check();
  const shot = tabs.screenshot
    ? await control.guard(tabs.screenshot(tabId, page.viewport).catch(() => null))
    : null;
  if (shot) return { ...page, screenshot: shot };
  control.check();
  return control.guard(tabs.capture(tabId, 'full'));
}

/** Keeps the taskId for the next request (and a restarted worker) and records the step. */
async function recordStep(turn: Turn, res: NextActionResponse, url: string): Promise<void> {
  await keepTask(turn, res.taskId, res.sessionId, url);
  await turn.run.save(recordedStep(turn.run.current, res, turn.timing.now()));
}

/**
 * The tab's task, for the next request and for a worker that restarts (docs/specs.md, "taskId
 * persistence and task recovery").
 */
function keepTask(turn: Turn, taskId: string, sessionId: string, url: string): Promise<void> {
  return persistTask(turn.storage, turn.tabId, { taskId, sessionId, url });
}

/** A question: the run waits for the answer, with the task kept for it like any step's. */
async function ask(turn: Turn, res: NeedsUserInputResponse, url: string): Promise<RunState> {
  if (res.taskId) await keepTask(turn, res.taskId, res.sessionId, url);
  return turn.run.save(askedQuestion(turn.run.current, res));
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
  const step: Step = {
    actions: plannedActions(res),
    isChain: res.actions !== undefined,
    taskId: res.taskId,
  };
  const { risks, names } = await turn.control.guard(
    stepRisks({ tabs: turn.tabs, storage: turn.storage, tabId: turn.tabId }, res, step.actions),
  );
  if (risks.length > 0) {
    const approval: PendingApproval = {
      actions: step.actions,
      isChain: step.isChain,
      risks,
      names,
      summary: stepSummary(res) ?? step.actions.map((a) => a.action).join('; '),
      url,
    };
    const steps = markedStep(turn.run.current.steps, 'waiting');
    return { done: true, run: await turn.run.save({ status: 'needs_approval', approval, steps }) };
  }
  return executeAndReport(turn, step, url);
}

/** The step the user approved (or edited) on its card, then the report saying so. */
async function executeApproved(turn: Turn): Promise<TurnResult> {
  const approval = turn.run.current.approval;
  const taskId = turn.run.current.taskId;
  if (!approval?.decision || !taskId) throw new Error('No approved step to run.');
  const decision =
    approval.decision === 'edited'
      ? { decision: 'edited' as const, actions: approval.actions.map((a) => a.action) }
      : { decision: 'approved' as const };
  // Cleared before anything runs: a worker that dies mid-step never runs it twice.
  await turn.run.save({ approval: undefined, pending: { approval: decision } });
  // The page as it is now (a restarted browser reloaded it): its elements, found again by name.
  turn.control.check();
  const page = await turn.control.guard(turn.tabs.capture(turn.tabId, 'semantic_v3'));
  const onPage = approvedOnPage(approval.actions, approval.names ?? {}, page.interactiveTree ?? []);
  if (!onPage.ok) {
    const pending: PendingReport = {
      approval: decision,
      lastActionStatus: 'failure',
      lastActionError: `not_found: ${onPage.reason}`,
      previousUrl: approval.url,
    };
    return { done: false, run: await turn.run.save({ pending }) };
  }
  const step = { actions: onPage.steps, isChain: approval.isChain, taskId };
  return executeAndReport(turn, step, approval.url, { approval: decision });
}

/**
 * Executes the action or chain within the task's limits (secure-execute.ts), waits for the page
 * to settle, keeps the report for the server. A navigation the site guard blocked is undone and
 * reported as the step's failure.
 */
async function executeAndReport(
  turn: Turn,
  step: Step,
  beforeUrl: string,
  extra: PendingReport = {},
): Promise<TurnResult> {
  const { tabs, tabId, control } = turn;
  const { actions } = step;
  const sites = turn.run.current.sites ?? [];
  const secrets = await loadSecrets(turn.storage);
  await turn.run.save({ inFlight: actions.map((a) => a.action) });
  const secured = securedExecute(tabs, { sites, secrets, pageUrl: beforeUrl });
  const outcome = await executeActions(secured, turn.storage, tabId, actions, control);
  if (outcome.interrupted) return { done: true, run: outcome.run };
  const left = () => control.guard(escapedTo(tabs, tabId, sites, beforeUrl));
  let escaped = await left();
  let settled: SettleReply;
  try {
    // The stability wait ends at once on Stop; the content script's own wait then runs out.
    settled = await control.guard(tabs.settle(tabId, beforeUrl));
  } catch (error) {
    // A blocked navigation leaves an error page no script runs in: back, then settle there.
    escaped ??= await left();
    if (!escaped || control.stopped) throw error;
    settled = await control.guard(tabs.settle(tabId, beforeUrl));
  }
  escaped ??= await left();
  const trigger = actions.find((a) => a.index === outcome.lastOk)?.action;
  if (trigger && !escaped) learnChange(turn, { taskId: step.taskId, trigger, beforeUrl, settled });
  const pending = executedReport(
    {
      actions,
      isChain: step.isChain,
      lastOk: escaped ? Math.min(outcome.lastOk, actions.length - 2) : outcome.lastOk,
      failure: escaped ? blockedNavigation(actions, escaped) : outcome.failure,
    },
    settled.observations,
    beforeUrl,
  );
  return {
    done: false,
    run: await turn.run.save({ pending: { ...pending, ...extra }, inFlight: undefined }),
  };
}

/** The failure a blocked navigation is reported as: on the step's last action. */
function blockedNavigation(actions: PlannedStep[], site: string): ExecuteFailure {
  return {
    ok: false,
    action: actions.at(-1)?.action ?? '',
    error: `the page went to ${site}, which is not one of this task's sites: the navigation was blocked and the tab went back`,
    code: 'blocked',
  };
}

/**
 * An action that changed the page without leaving it (a menu, a dialog, a tab opened): what it
 * revealed goes to the knowledge as post-interaction content. A page it navigated to is new to
 * the run and is sent as initial content when the next request captures it.
 */
function learnChange(
  turn: Turn,
  step: { taskId: string; trigger: string; beforeUrl: string; settled: SettleReply },
): void {
  const { observations, url } = step.settled;
  if (url !== step.beforeUrl || observations.didUrlChange === true) return;
  if (observations.didDomMutate !== true) return;
  turn.learning?.pageChanged({
    tabId: turn.tabId,
    runId: runIdOf(turn.run.current),
    url,
    taskId: step.taskId,
    triggerAction: step.trigger,
  });
}
