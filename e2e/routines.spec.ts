// Routines with the real built extension, the real server and the demo sites: a task that
// completes with every step verified leaves a routine, and a later goal that reads as its
// template reruns it without the model. The rerun must be held to the same rules as the run it
// was made from: Stop ends it, a risky step waits for the user's approval (and a rejection hands
// the task to the full agent), a secret is typed by its placeholder only, and a step that would
// leave the task's sites is refused. Each test runs on a server of its own, so the routines one
// test leaves (or another spec's runs leave) never match another test's goal.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import {
  RoutineDetail,
  RoutineList,
  TaskExtractionsResponse,
  type RoutineRunInfo,
  type RoutineSummary,
} from '@tandem/contracts';
import {
  CATALOG,
  DEMO_API,
  DEMO_PAGES,
  INJECT_API,
  type SentMessage,
  type SinkHit,
} from '@tandem/demo-sites';
import { fakeGemini } from './support/fake-gemini-control';
import type { RecordedCall } from './support/fake-gemini';
import {
  GRID_GOAL,
  LOGIN_GOAL,
  MESSAGE_GOAL,
  MESSAGE_PREFIX,
  MESSAGE_REJECTED,
  MESSAGE_TEXT,
  OPEN_LINK_GOAL,
} from './support/fake-everyday-model';
import {
  SCREENSHOTS,
  demoPatients,
  pageChangesSince,
  recordRuns,
  serverTask,
  signIn,
  useServer,
  waitForWrite,
  watchPage,
  type ServerCoordinates,
} from './support/flow';
import {
  expect,
  finished,
  openDemo,
  openPopup,
  runState,
  startGoal,
  test as base,
  typeGoal,
  waitForRun,
  type Extension,
  type RunStateView,
} from './support/fixtures';
import { startTandemServer, type TandemServer } from './support/tandem-server';

// Logging at its most verbose: the strictest place to look for a leaked secret.
const test = base.extend<{ server: TandemServer }>({
  server: async ({ ext }, use) => {
    const server = await startTandemServer({ gemini: ext.env.gemini, env: { LOG_LEVEL: 'debug' } });
    await useServer(ext, server);
    try {
      await use(server);
    } finally {
      await useServer(ext, { url: ext.env.server, apiKey: ext.env.apiKey });
      await server.close();
    }
  },
});

test.afterEach(async ({ ext }) => {
  // A failed test must not leave the server waiting on a held answer, nor a secret stored.
  await fakeGemini(ext.env.gemini).releaseAll();
  await ext.worker.evaluate(() => chrome.storage.local.remove('secrets'));
});

const PATIENT_GOAL = 'Add a new patient named Jas Patel';
const PATIENT_TEMPLATE = 'Add a new patient named {firstName} {lastName}';
const PLACEHOLDER = '{{secret:clinic_password}}';

type RunWithRoutine = RunStateView & { routine?: RoutineRunInfo };

async function api<T>(server: ServerCoordinates, pathname: string): Promise<T> {
  const res = await fetch(`${server.url}${pathname}`, {
    headers: { authorization: `Bearer ${server.apiKey}` },
  });
  expect(res.status, `GET ${pathname}`).toBe(200);
  return (await res.json()) as T;
}

/** The server's routines (the admin API), each routine once, as its latest version. */
async function routines(server: ServerCoordinates): Promise<RoutineSummary[]> {
  return RoutineList.parse(await api(server, '/api/routines')).items;
}

/**
 * The one routine the first run left, with its steps. The first run's model calls are billed
 * to its task, so a rerun's zero usage rows are an absence the same check would have seen.
 */
async function onlyRoutine(server: ServerCoordinates, template: string): Promise<RoutineDetail> {
  const all = await routines(server);
  expect(
    all.map((r) => r.goalTemplate),
    'the routines the first run left',
  ).toEqual([template]);
  const routine = RoutineDetail.parse(await api(server, `/api/routines/${all[0]?.id ?? ''}`));
  expect(routine.sourceTaskId).toBeTruthy();
  await expect
    .poll(async () => (await serverTask(server, routine.sourceTaskId ?? '')).task.usage.calls)
    .toBeGreaterThan(0);
  return routine;
}

/** The run with what the worker keeps of its routine (the banner's source). */
async function routineRun(ext: Extension, tabId: number): Promise<RunWithRoutine | null> {
  return (await runState(ext, tabId)) as RunWithRoutine | null;
}

const modelCallsSince = async (ext: Extension, since: number): Promise<RecordedCall[]> =>
  (await fakeGemini(ext.env.gemini).calls()).filter((c) => c.at >= since);

/** No model call since `since`, and no usage row billed to the task. */
async function expectNoModel(
  ext: Extension,
  server: ServerCoordinates,
  since: number,
  taskId: string | undefined,
): Promise<void> {
  const calls = await modelCallsSince(ext, since);
  expect(
    calls.map((c) => `${c.node}: ${c.goal}`),
    'model calls during the rerun',
  ).toEqual([]);
  expect(taskId, 'the rerun has a task').toBeTruthy();
  const task = await serverTask(server, taskId ?? '');
  expect(task.task.usage.calls, 'usage rows of the rerun').toBe(0);
  expect(task.steps.every((s) => s.usage.calls === 0)).toBe(true);
}

/** The live view's routine banner says the rerun asked the model nothing. */
async function expectBanner(view: Page, routineName: string): Promise<void> {
  const line = view.locator('#routine-line');
  await expect(line).toBeVisible();
  await expect(line).toContainText(`Running routine “${routineName}”`);
  await expect(line).toContainText('· 0 model calls ·');
}

/** Opens a fresh tab on `pathname` (closing the tabs of earlier runs, which may show it too). */
async function freshTab(ext: Extension, pathname: string): Promise<{ page: Page; tabId: number }> {
  for (const page of ext.context.pages()) await page.close();
  return openDemo(ext, pathname);
}

/** Runs `goal` to its end in the popup; the run as the worker ended it. */
async function runGoal(
  ext: Extension,
  pathname: string,
  goal: string,
): Promise<{ page: Page; tabId: number; popup: Page; run: RunWithRoutine }> {
  const { page, tabId } = await freshTab(ext, pathname);
  const popup = await startGoal(ext, tabId, goal);
  const run = (await waitForRun(ext, tabId, finished, 90_000)) as RunWithRoutine;
  return { page, tabId, popup, run };
}

/** Saves `docs/images/<name>.png`: the view whole, at the size it has. */
function shootAs(view: Page, name: string): Promise<Buffer> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return view.screenshot({
    path: path.join(SCREENSHOTS, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

// ------------------------------------------------------------------ Stop

test('Stop during a rerun: the task is cancelled and nothing more is done', async ({
  ext,
  server,
}) => {
  const first = await runGoal(ext, DEMO_PAGES.emr, PATIENT_GOAL);
  expect(first.run.status, JSON.stringify(first.run, null, 2)).toBe('completed');
  expect(first.run.routine).toBeUndefined();
  const routine = await onlyRoutine(server, PATIENT_TEMPLATE);
  expect(routine.parameters.map((p) => [p.name, p.example])).toEqual([
    ['firstName', 'Jas'],
    ['lastName', 'Patel'],
  ]);

  // The rerun's Save (the EMR's own POST) is held, so Stop comes while the page saves.
  const { page, tabId } = await freshTab(ext, DEMO_PAGES.emr);
  await recordRuns(ext);
  let saveArrived: () => void = () => undefined;
  const saving = new Promise<void>((resolve) => (saveArrived = resolve));
  let letSaveThrough: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (letSaveThrough = resolve));
  await page.route('**/api/patients', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    saveArrived();
    await released;
    await route.continue();
  });
  const since = Date.now();
  const popup = await startGoal(ext, tabId, 'Add a new patient named Bo Chen');
  await saving;
  await expect(page.getByText('Saving…')).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue('Bo');
  await expectBanner(popup, routine.name);
  await watchPage(page);

  await popup.getByRole('button', { name: 'Stop' }).click();
  await expect(popup.locator('#status')).toHaveText('Stopped.');
  const stopped = await waitForWrite(ext, tabId, (run) => run.status === 'stopped');
  expect(stopped.taskId).toBeTruthy();
  await expect
    .poll(async () => (await serverTask(server, stopped.taskId ?? '')).task.status)
    .toBe('cancelled');
  // Until the save is let through, the page is as Stop found it.
  expect(await pageChangesSince(page, stopped.updatedAt)).toEqual([]);
  letSaveThrough();

  // The page finishes the save the routine's click started, and the task does nothing more:
  // no verification, no step after Stop, no model call, and the routine counts no run.
  await expect(page.getByRole('status')).toContainText('saved successfully');
  const bo = (await demoPatients(ext)).filter((p) => p.firstName === 'Bo');
  expect(bo.map((p) => p.lastName)).toEqual(['Chen']);
  expect(stopped.steps.at(-1)?.summary).toBe('Clicked “Save”');
  expect(stopped.steps.at(-1)?.verification).toBeUndefined();
  const task = await serverTask(server, stopped.taskId ?? '');
  expect(task.task.status).toBe('cancelled');
  expect(task.steps).toHaveLength(stopped.steps.length);
  expect(task.steps.at(-1)?.verification).toBeNull();
  await expectNoModel(ext, server, since, stopped.taskId);
  // And the extension sent the server nothing more.
  const after = await runState(ext, tabId);
  expect(after?.status).toBe('stopped');
  expect(after?.requests).toBe(stopped.requests);
  expect((await routines(server)).map((r) => r.runs)).toEqual([0]);
});

// ------------------------------------------------------------------ approvals

const sent = async (ext: Extension): Promise<SentMessage[]> =>
  (
    (await (await fetch(`${ext.env.demo}${DEMO_API.messages}`)).json()) as {
      messages: SentMessage[];
    }
  ).messages;

const needsApproval = (run: RunStateView) => run.status === 'needs_approval';
const decided = (run: RunStateView) => run.status !== 'running' && run.status !== 'needs_approval';

/** Starts `goal` on the messages page and waits for the approval card; checks what it says. */
async function pausedOnSend(
  ext: Extension,
  goal: string,
  text: string,
): Promise<{ popup: Page; tabId: number; page: Page }> {
  const { page, tabId } = await freshTab(ext, DEMO_PAGES.messages);
  const popup = await startGoal(ext, tabId, goal);
  await waitForRun(ext, tabId, needsApproval, 90_000);
  const card = popup.getByRole('region', { name: 'Approve this step?' });
  await expect(card).toBeVisible();
  await expect(popup.locator('#status')).toHaveText('Waiting for your approval');
  await expect(card.locator('#approval-reasons')).toHaveText('Sends: “Send message”');
  await expect(
    card.getByRole('list', { name: 'What the step does' }).getByRole('listitem'),
  ).toHaveText([
    'Choose “Maria Lopez” in To',
    `Type “${text}” into Message`,
    'Click “Send message”',
  ]);
  // Nothing of the step ran.
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');
  return { popup, tabId, page };
}

test('approvals: a rerun asks before sending as the first run did; a rejection hands over to the agent', async ({
  ext,
  server,
}) => {
  test.setTimeout(240_000);
  // The first run, approved.
  const first = await pausedOnSend(ext, MESSAGE_GOAL, MESSAGE_TEXT);
  await first.popup.getByRole('button', { name: 'Approve' }).click();
  const done = await waitForRun(ext, first.tabId, decided, 90_000);
  expect(done.status, JSON.stringify(done, null, 2)).toBe('completed');
  const routine = await onlyRoutine(server, 'Send {to} the message: {message}');
  await fetch(`${ext.env.demo}${DEMO_API.reset}`, { method: 'POST' });
  expect(routine.steps.map((s) => s.safety).at(-1)).not.toBe('safe');

  // A rerun with another message asks the same, without asking the model; approved, it sends.
  const insurance = 'Please bring your insurance card.';
  let since = Date.now();
  const again = await pausedOnSend(ext, `${MESSAGE_PREFIX}${insurance}`, insurance);
  await expectBanner(again.popup, routine.name);
  expect(await modelCallsSince(ext, since)).toEqual([]);
  expect(await sent(ext)).toEqual([]);
  await again.popup.getByRole('button', { name: 'Approve' }).click();
  const approved = (await waitForRun(ext, again.tabId, decided, 90_000)) as RunWithRoutine;
  expect(approved.status, JSON.stringify(approved, null, 2)).toBe('completed');
  expect(approved.routine).toMatchObject({ done: routine.steps.length, fellBack: null });
  expect(approved.result).toContain(`saved routine “${routine.name}”`);
  expect(await sent(ext)).toEqual([{ to: 'Maria Lopez', body: insurance, sequence: 1 }]);
  await expectNoModel(ext, server, since, approved.taskId);

  // Another rerun, rejected: nothing is sent, and the same task goes on with the full agent,
  // which hears of the rejection as in a full run.
  await fetch(`${ext.env.demo}${DEMO_API.reset}`, { method: 'POST' });
  const reschedule = 'Call us to reschedule.';
  const rejectedGoal = `${MESSAGE_PREFIX}${reschedule}`;
  since = Date.now();
  const third = await pausedOnSend(ext, rejectedGoal, reschedule);
  expect(await modelCallsSince(ext, since)).toEqual([]);
  const paused = await routineRun(ext, third.tabId);
  expect(paused?.routine).toMatchObject({ modelCalls: 0, fellBack: null });
  await third.popup
    .getByRole('textbox', { name: 'Why not? (optional, for the agent)' })
    .fill('Not before I call her');
  await third.popup.getByRole('button', { name: 'Reject' }).click();
  const rejected = (await waitForRun(ext, third.tabId, decided, 90_000)) as RunWithRoutine;
  expect(rejected.taskId).toBe(paused?.taskId);
  expect(rejected.status, JSON.stringify(rejected, null, 2)).toBe('completed');
  expect(rejected.result).toBe(MESSAGE_REJECTED);
  expect(rejected.routine?.fellBack).toMatch(/^you rejected .*Not before I call her/);
  expect(await sent(ext)).toEqual([]);
  await expect(third.popup.locator('#routine-fallback')).toContainText(
    'Routine stopped: you rejected',
  );
  // The agent after the hand-over is the model: its calls are this task's, after the rejection.
  const calls = await modelCallsSince(ext, since);
  expect(calls.length).toBeGreaterThan(0);
  expect([...new Set(calls.map((c) => c.goal))]).toEqual([rejectedGoal]);
});

// ------------------------------------------------------------------ secrets

/** Every file under `dir` (the server's data dir: the libSQL database, its WAL, anything else). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

const filesContaining = (files: string[], text: string) =>
  files.filter((f) => readFileSync(f).includes(Buffer.from(text, 'utf8')));

interface LoginEvent {
  kind: string;
  detail: string;
}

const loginEvents = async (ext: Extension): Promise<unknown[]> =>
  (
    (await (await fetch(`${ext.env.demo}${INJECT_API.events}`)).json()) as { events: LoginEvent[] }
  ).events
    .filter((e) => e.kind === 'login')
    .map((e) => JSON.parse(e.detail) as unknown);

test('secrets: a rerun types the secret by its placeholder, which the extension fills in', async ({
  ext,
  server,
}) => {
  const secret = `Clinic-${randomBytes(9).toString('base64url')}`;
  const site = new URL(ext.env.demo).host;
  const options = await ext.context.newPage();
  await options.goto(`chrome-extension://${ext.id}/src/options/index.html`);
  await options.getByLabel('Name', { exact: true }).fill('clinic_password');
  await options.getByLabel('Value', { exact: true }).fill(secret);
  await options.getByLabel('Sites it may be typed on').fill(site);
  await options.getByRole('button', { name: 'Save secret' }).click();
  await expect(options.locator('#secret-message')).toHaveText(
    `Saved: the agent can type ${PLACEHOLDER} on ${site}.`,
  );

  const first = await runGoal(ext, DEMO_PAGES.injectLogin, LOGIN_GOAL);
  expect(first.run.status, JSON.stringify(first.run, null, 2)).toBe('completed');
  expect(await loginEvents(ext)).toEqual([{ user: 'maria.lopez', password: secret }]);
  const routine = await onlyRoutine(server, 'Sign in to the clinic portal as {username}');
  // The routine keeps the placeholder as literal text, never the value.
  const stored = JSON.stringify(routine);
  expect(stored).toContain(PLACEHOLDER);
  expect(stored).not.toContain(secret);

  await fetch(`${ext.env.demo}${DEMO_API.reset}`, { method: 'POST' });
  const since = Date.now();
  const rerun = await runGoal(
    ext,
    DEMO_PAGES.injectLogin,
    'Sign in to the clinic portal as jo.baker',
  );
  expect(rerun.run.status, JSON.stringify(rerun.run, null, 2)).toBe('completed');
  expect(rerun.run.routine).toMatchObject({ routineId: routine.id, modelCalls: 0, fellBack: null });
  await expectBanner(rerun.popup, routine.name);
  // The page got the real value: the extension filled it in at execution time.
  await expect(rerun.page.locator('#status')).toHaveText('Done: login.');
  expect(await loginEvents(ext)).toEqual([{ user: 'jo.baker', password: secret }]);
  await expectNoModel(ext, server, since, rerun.run.taskId);

  // The server's record of the rerun: its step typed the placeholder; no answer has the value.
  const task = await serverTask(server, rerun.run.taskId ?? '');
  const taskJson = JSON.stringify(task);
  expect(task.steps.flatMap((s) => s.chain).filter((a) => a.includes(PLACEHOLDER))).toHaveLength(1);
  expect(taskJson).not.toContain(secret);
  // Nor the log, nor any byte the server wrote, nor the extension's own record of the run.
  expect(server.output()).toContain(rerun.run.taskId ?? '(no task id)');
  expect(server.output()).not.toContain(secret);
  const files = filesUnder(server.dataDir);
  expect(filesContaining(files, 'jo.baker').length).toBeGreaterThan(0);
  expect(filesContaining(files, secret)).toEqual([]);
  const record = JSON.stringify(rerun.run);
  expect(record).toContain(PLACEHOLDER);
  expect(record).not.toContain(secret);
});

// ------------------------------------------------------------------ the task's sites

const sinkHits = async (ext: Extension): Promise<SinkHit[]> =>
  ((await (await fetch(`${ext.env.demo}${INJECT_API.hits}`)).json()) as { hits: SinkHit[] }).hits;

test('allowed sites: a routine step that leaves the task’s sites is refused as a model’s action is', async ({
  ext,
  server,
}) => {
  test.setTimeout(240_000);
  const victim = new URL(ext.env.demo);
  const attacker = `localhost:${victim.port}`;
  const page = DEMO_PAGES.injection.replace(/\/$/, '/exfil-link.html');

  // A full run without the other site allowed: how the task's rules end it.
  const refusal = `leads to ${attacker}, which is not one of this task's sites (${victim.host})`;
  const refused = await runGoal(ext, page, OPEN_LINK_GOAL);
  expect(refused.run.status, JSON.stringify(refused.run, null, 2)).toBe('error');
  const ending = refused.run.error ?? '';
  expect(ending).toContain(refusal);
  expect(await sinkHits(ext)).toEqual([]);
  expect(await routines(server)).toEqual([]);

  // The user allows the other site: the link is followed, and the run leaves a routine.
  const { tabId } = await freshTab(ext, page);
  const popup = await openPopup(ext, tabId);
  await popup.getByLabel('Also allow these sites (optional)').fill(attacker);
  await typeGoal(popup, OPEN_LINK_GOAL);
  const allowed = await waitForRun(ext, tabId, finished, 90_000);
  expect(allowed.status, JSON.stringify(allowed, null, 2)).toBe('completed');
  expect((await sinkHits(ext)).map((h) => h.host)).toEqual([attacker]);
  const routine = await onlyRoutine(server, OPEN_LINK_GOAL);

  // The same goal without the other site: the routine's click is refused by the task's rules
  // before it is sent, the full agent takes over, and the task ends as the full run did.
  await fetch(`${ext.env.demo}${DEMO_API.reset}`, { method: 'POST' });
  const since = Date.now();
  const rerun = await runGoal(ext, page, OPEN_LINK_GOAL);
  expect(rerun.run.status, JSON.stringify(rerun.run, null, 2)).toBe(refused.run.status);
  expect(rerun.run.error).toBe(ending);
  expect(await sinkHits(ext)).toEqual([]);
  expect(new URL(rerun.page.url()).host).toBe(victim.host);
  expect(rerun.run.steps).toEqual([]);
  // The request ended in the refusal, so no response told the extension of the task or the
  // routine; the server's log says the routine ran and why it handed over.
  const handOver = server
    .output()
    .split('\n')
    .filter((l) => l.includes('routine handed over') && l.includes(`routineId=${routine.id}`));
  expect(handOver, 'the routine step handed over').toHaveLength(1);
  expect(handOver[0]).toContain('is refused by the task’s rules: ');
  expect(handOver[0]).toContain(refusal);
  // The routine's step asked the model nothing: every call came from the agent after it.
  const handedAt = Date.parse(handOver[0]?.split(' ')[0] ?? '');
  const calls = await modelCallsSince(ext, since);
  expect(calls.map((c) => c.node)).toEqual(['action_generation', 'action_generation']);
  expect(calls.every((c) => c.at >= handedAt)).toBe(true);
});

// ------------------------------------------------------------------ the popup

test('popup: "Run again with…" reruns the routine with the values typed, without the model', async ({
  ext,
  server,
}) => {
  const first = await runGoal(ext, DEMO_PAGES.emr, PATIENT_GOAL);
  expect(first.run.status, JSON.stringify(first.run, null, 2)).toBe('completed');
  const routine = await onlyRoutine(server, PATIENT_TEMPLATE);

  const { page, tabId } = await freshTab(ext, DEMO_PAGES.emr);
  // The save is held, so the banner is seen mid-run.
  let saveArrived: () => void = () => undefined;
  const saving = new Promise<void>((resolve) => (saveArrived = resolve));
  let letSaveThrough: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (letSaveThrough = resolve));
  await page.route('**/api/patients', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    saveArrived();
    await released;
    await route.continue();
  });
  const popup = await openPopup(ext, tabId);
  await popup.setViewportSize({ width: 380, height: 600 });
  await expect(popup.getByRole('heading', { name: 'Run again with…' })).toBeVisible();
  const choice = popup.getByRole('button', { name: routine.name });
  await expect(choice).toBeVisible();
  await expect(choice).toContainText('0 runs');
  await shootAs(popup, 'routine-popup-offers');

  await choice.click();
  const form = popup.getByRole('form', { name: `Run “${routine.name}” again` });
  await expect(form).toBeVisible();
  await form.getByLabel('First name').fill('Ada');
  await form.getByLabel('Last name').fill('Okafor');
  await shootAs(popup, 'routine-popup-form');

  const since = Date.now();
  await form.getByRole('button', { name: 'Run' }).click();
  await saving;
  await expectBanner(popup, routine.name);
  await expect(popup.locator('#routine-line')).toContainText(`step 5 of ${routine.steps.length}`);
  await shootAs(popup, 'routine-live-banner');
  letSaveThrough();

  const run = (await waitForRun(ext, tabId, finished, 90_000)) as RunWithRoutine;
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  expect(run.routine).toMatchObject({
    routineId: routine.id,
    done: routine.steps.length,
    modelCalls: 0,
    fellBack: null,
  });
  expect(
    (await demoPatients(ext)).filter((p) => p.firstName === 'Ada').map((p) => p.lastName),
  ).toEqual(['Okafor']);
  await expectNoModel(ext, server, since, run.taskId);
  expect((await routines(server)).map((r) => r.runs)).toEqual([1]);
});

// ------------------------------------------------------------------ reads

const EXTRACT_GOAL = 'Extract every product as JSON with name, price and rating';

/** The task's merged extraction, as the server stored it. */
async function extractionOf(server: ServerCoordinates, taskId: string | undefined) {
  const body = TaskExtractionsResponse.parse(
    await api(server, `/api/tasks/${taskId ?? ''}/extractions`),
  );
  return { results: body.results, aggregate: body.aggregates[0] };
}

test('an extraction reruns with its saved strategy: every page read again, no model call', async ({
  ext,
  server,
}) => {
  const first = await runGoal(ext, DEMO_PAGES.catalog, EXTRACT_GOAL);
  expect(first.run.status, JSON.stringify(first.run, null, 2)).toBe('completed');
  const routine = await onlyRoutine(server, EXTRACT_GOAL);
  // Page 1 read, Next page, page 2 read, Next page, page 3 read (with the scrolls the model
  // made to find Next): the reads hold no data, only the strategy that reads it.
  expect(routine.steps.map((s) => s.action).filter((a) => a !== 'scroll')).toEqual([
    'extract',
    'click',
    'extract',
    'click',
    'extract',
  ]);
  const before = await extractionOf(server, first.run.taskId);
  expect(before.aggregate).toMatchObject({ items: CATALOG.uniqueProducts.length, pages: 3 });

  const since = Date.now();
  const again = await runGoal(ext, DEMO_PAGES.catalog, EXTRACT_GOAL);
  expect(again.run.status, JSON.stringify(again.run, null, 2)).toBe('completed');
  expect(again.run.routine).toMatchObject({ routineId: routine.id, modelCalls: 0, fellBack: null });
  expect(again.run.result).toContain(
    `Extracted ${CATALOG.uniqueProducts.length} items from 3 pages, stored with the task.`,
  );
  await expect(again.page).toHaveURL(/page=3/);
  await expectNoModel(ext, server, since, again.run.taskId);
  // The same data as the first run, every page by the strategy's selectors.
  const after = await extractionOf(server, again.run.taskId);
  expect(after.results.map((r) => [r.method, r.contentStats.modelCalls])).toEqual([
    ['replay', 0],
    ['replay', 0],
    ['replay', 0],
  ]);
  expect(after.aggregate?.data).toEqual(before.aggregate?.data);
  expect((await routines(server)).map((r) => r.runs)).toEqual([1]);

  // The admin page says what each read does, not that nothing visible changed.
  await ext.context.clearCookies();
  const admin = await ext.context.newPage();
  await admin.setViewportSize({ width: 1200, height: 900 });
  await admin.goto(`${server.url}/admin/routines/${routine.id}`);
  await signIn(admin, server.apiKey);
  await expect(admin.getByRole('heading', { name: routine.name })).toBeVisible();
  const steps = admin.getByRole('table', { name: 'Steps' });
  await expect(steps.locator('tbody tr').first()).toContainText(
    'reads items with the saved extraction (when saved: Extracted 40 items',
  );
  await expect(steps.locator('tbody tr').first()).toContainText('the page’s content');
  await shootAs(admin, 'admin-routine-extract');
  await admin.close();
});

// The model scoped its read to the product grid, so each replay reads the grid alone and the
// pager below it is in no read. Since the first run, the shop's last page leads on under
// another name ("More products", no rel): the routine must not hand back three pages as the
// whole list. The real extension lists the page's links outside the grid with the last read,
// and the link to page 4 hands the task to the agent.
test('a read scoped to the grid hands over when its last page now leads on under another name', async ({
  ext,
  server,
}) => {
  const first = await runGoal(ext, DEMO_PAGES.catalog, GRID_GOAL);
  expect(first.run.status, JSON.stringify(first.run, null, 2)).toBe('completed');
  const routine = await onlyRoutine(server, GRID_GOAL);
  expect(routine.steps.map((s) => s.action).filter((a) => a === 'extract')).toHaveLength(3);
  const before = await extractionOf(server, first.run.taskId);
  expect(before.aggregate).toMatchObject({ items: CATALOG.uniqueProducts.length, pages: 3 });

  await first.page.evaluate(() => localStorage.setItem('catalog:grown', 'yes'));
  try {
    const since = Date.now();
    const again = await runGoal(ext, DEMO_PAGES.catalog, GRID_GOAL);
    await expect(again.page).toHaveURL(/page=3/);
    await expect(again.page.getByRole('link', { name: 'More products' })).toBeVisible();
    expect(again.run.routine?.routineId).toBe(routine.id);
    expect(again.run.routine?.fellBack).toMatch(
      /the list goes on past the pages .*\/catalog\/\?page=4, a later page of the list/,
    );
    // Every page the routine read was read by the grid's selectors; the agent took it from there.
    const after = await extractionOf(server, again.run.taskId);
    expect(after.results.slice(0, 3).map((r) => r.method)).toEqual(['replay', 'replay', 'replay']);
    expect((await modelCallsSince(ext, since)).length).toBeGreaterThan(0);
  } finally {
    // The rerun's tab replaced the first one: any open demo page clears the flag for the origin.
    const demo = new URL(ext.env.demo).origin;
    const open = ext.context.pages().find((p) => p.url().startsWith(demo));
    await open?.evaluate(() => localStorage.removeItem('catalog:grown'));
  }
});

// ------------------------------------------------------------------ collected items

/** The unique keys of the items a task collected, in the order they were stored. */
async function collectedKeys(server: ServerCoordinates, taskId: string | undefined) {
  const body = await api<{ items: { uniqueKey: string | null }[] }>(
    server,
    `/api/tasks/${taskId ?? ''}/collected?limit=100`,
  );
  return body.items.map((i) => i.uniqueKey);
}

test('collected items rerun for another count: read again with learned selectors, no model call', async ({
  ext,
  server,
}) => {
  const first = await runGoal(ext, DEMO_PAGES.jobs, 'Extract 15 job listings');
  expect(first.run.status, JSON.stringify(first.run, null, 2)).toBe('completed');
  const routine = await onlyRoutine(server, 'Extract {count} job listings');
  // Page 1's cards, Next page, page 2's: the steps hold the item type, never the items.
  expect(routine.steps.map((s) => s.action).filter((a) => a !== 'scroll')).toEqual([
    'collect',
    'click',
    'collect',
  ]);
  expect(routine.steps.filter((s) => s.action === 'collect').map((s) => s.value)).toEqual([
    'job',
    'job',
  ]);
  const firstKeys = await collectedKeys(server, first.run.taskId);
  expect(firstKeys).toHaveLength(15);

  // Another count, within page 1: read by selectors learned from the first run's items there,
  // and the count reached on page 1 ends the run before Next page.
  const since = Date.now();
  const again = await runGoal(ext, DEMO_PAGES.jobs, 'Extract 12 job listings');
  expect(again.run.status, JSON.stringify(again.run, null, 2)).toBe('completed');
  expect(again.run.routine).toMatchObject({ routineId: routine.id, modelCalls: 0, fellBack: null });
  expect(again.run.result).toContain('Collected 12 items, stored with the task.');
  await expectNoModel(ext, server, since, again.run.taskId);
  expect(await collectedKeys(server, again.run.taskId)).toEqual(firstKeys.slice(0, 12));
  await expect(again.page).not.toHaveURL(/page=2/);
  expect((await routines(server)).map((r) => r.runs)).toEqual([1]);

  // Past page 1: page 2's first card is J-1012 promoted again, a "Promoted" badge beside the
  // title button in its heading. The page's HTML keeps the title an element of its own, and the
  // marked card reads exactly as the job the first run stored, so the selectors learned on
  // page 1 read page 2 too: the same 20 jobs, none lost, still no model call.
  const moreSince = Date.now();
  const more = await runGoal(ext, DEMO_PAGES.jobs, 'Extract 20 job listings');
  expect(more.run.status, JSON.stringify(more.run, null, 2)).toBe('completed');
  expect(more.run.routine).toMatchObject({ routineId: routine.id, modelCalls: 0, fellBack: null });
  await expectNoModel(ext, server, moreSince, more.run.taskId);
  expect((await routines(server)).map((r) => r.runs)).toEqual([2]);
  const keys = await collectedKeys(server, more.run.taskId);
  expect(keys.slice(0, 15)).toEqual(firstKeys);
  expect(keys.slice(15)).toEqual([
    'job:J-1016',
    'job:J-1017',
    'job:J-1018',
    'job:J-1019',
    'job:J-1020',
  ]);
});
