// Stop, pressed in the popup as a user would, at the three moments the loop can be in (issue
// 15): waiting for the server's answer, executing a chain, waiting for the page to settle. In
// each, nothing touches the page once the run is `stopped` (watched on the page itself: DOM
// mutations, including the ids a page read writes, and field edits), the demo app's API shows
// nothing saved or submitted by the agent, and the server task is `cancelled`.
import type { Page } from '@playwright/test';
import { ErrorResponse } from '@tandem/contracts';
import { fakeGemini } from './support/fake-gemini-control';
import {
  demoPatients,
  isJasPatel,
  pageChangesSince,
  recordRuns,
  serverTask,
  shoot,
  stopReceived,
  waitForWrite,
  watchPage,
  type RunWrite,
} from './support/flow';
import {
  expect,
  openDemo,
  openPopup,
  runState,
  startGoal,
  test,
  typeGoal,
  type Extension,
} from './support/fixtures';

const PATIENT_GOAL = 'Add a new patient named Jas Patel';
const FORM_GOAL =
  'Fill in the request form for Ann Lee (ann@example.com), follow-up visit, contact by phone, notes "Please call after 5pm", and submit it';

test.afterEach(async ({ ext }) => {
  // A test that failed while holding a model answer must not leave the server waiting on it.
  await fakeGemini(ext.env.gemini).releaseAll();
});

/** Presses Stop in the popup and waits until it says "Stopped."; returns the stopped write. */
async function pressStop(ext: Extension, popup: Page, tabId: number): Promise<RunWrite> {
  await popup.getByRole('button', { name: 'Stop' }).click();
  await expect(popup.locator('#status')).toHaveText('Stopped.');
  const stopped = await waitForWrite(ext, tabId, (run) => run.status === 'stopped');
  await expect(popup.getByRole('button', { name: 'Stop' })).toBeHidden();
  return stopped;
}

/** The server's record of the task says cancelled (Stop cancels it right after `stopped`). */
async function expectCancelled(ext: Extension, taskId: string): Promise<void> {
  const server = { url: ext.env.server, apiKey: ext.env.apiKey };
  await expect.poll(async () => (await serverTask(server, taskId)).task.status).toBe('cancelled');
}

const formValues = (page: Page) =>
  page.evaluate(() => {
    const form = document.querySelector<HTMLFormElement>('#appointment-form');
    return form ? Object.fromEntries(new FormData(form).entries()) : {};
  });

test('Stop while the server is deciding: the answer it was about to give is never acted on', async ({
  ext,
}) => {
  const fake = fakeGemini(ext.env.gemini);
  const { page, tabId } = await openDemo(ext, '/emr/');
  await recordRuns(ext);
  // The model's answer that follows typing the name (click Save) waits for the test.
  const held = await fake.hold('action_generation', PATIENT_GOAL);
  const popup = await startGoal(ext, tabId, PATIENT_GOAL);
  await held.reached();
  await expect(page.getByLabel('Last name')).toHaveValue('Patel');
  await watchPage(page);

  const stopped = await pressStop(ext, popup, tabId);
  await shoot(popup, 'stopped', 'popup');
  expect(stopped.taskId).toBeTruthy();
  await expectCancelled(ext, stopped.taskId ?? '');

  // The server now finishes the request Stop walked away from; the task's next request (here
  // the test's own, which waits for the task's lock, i.e. for that request) is refused.
  await held.release();
  const probe = await fetch(`${ext.env.server}/api/agent/interact`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ext.env.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      taskId: stopped.taskId,
      sessionId: stopped.sessionId,
      url: page.url(),
      domMode: 'skeleton',
      skeletonDom: '<main></main>',
    }),
  });
  expect(probe.status).toBe(409);
  expect(ErrorResponse.parse(await probe.json()).error.code).toBe('TASK_CANCELLED');
  await expectCancelled(ext, stopped.taskId ?? '');

  expect(await pageChangesSince(page, stopped.updatedAt)).toEqual([]);
  expect((await demoPatients(ext)).filter(isJasPatel)).toEqual([]);
  await expect(page.getByLabel('First name')).toHaveValue('Jas');
  await expect(page.getByRole('status')).toHaveText('');
  expect((await runState(ext, tabId))?.status).toBe('stopped');
});

test('Stop in the middle of a chain: the fields after the one being filled stay empty', async ({
  ext,
}) => {
  const { page, tabId } = await openDemo(ext, '/form/');
  await recordRuns(ext);
  const popup = await openPopup(ext, tabId);
  // The first field's change blocks the page (a synchronous request the test answers), so the
  // chain is certainly mid-way when Stop arrives: the test answers once the worker has it.
  await page.route('**/__e2e/first-field-changed', async (route) => {
    await popup.getByRole('button', { name: 'Stop' }).click();
    await stopReceived(ext);
    await route.fulfill({ status: 204 });
  });
  await page.evaluate(() => {
    const field = document.querySelector<HTMLInputElement>('#full-name');
    let armed = true;
    field?.addEventListener('input', () => {
      if (!armed) return;
      armed = false;
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/__e2e/first-field-changed', false);
      xhr.send();
    });
  });
  await watchPage(page);
  await typeGoal(popup, FORM_GOAL);
  await expect(popup.locator('#status')).toHaveText('Stopped.');
  const stopped = await waitForWrite(ext, tabId, (run) => run.status === 'stopped');
  expect(stopped.steps.at(-1)?.chain).toHaveLength(5);
  await expectCancelled(ext, stopped.taskId ?? '');

  // The field being filled when Stop came was finished; no other was touched, nothing sent.
  expect(await formValues(page)).toEqual({
    fullName: 'Ann Lee',
    email: '',
    reason: 'checkup',
    contactMethod: 'email',
    notes: '',
  });
  expect(await pageChangesSince(page, stopped.updatedAt)).toEqual([]);
  const submissions = (await (await fetch(`${ext.env.demo}/api/form/submissions`)).json()) as {
    submissions: unknown[];
  };
  expect(submissions.submissions).toEqual([]);
  await expect(page.getByRole('heading', { name: 'Request submitted' })).toBeHidden();
});

test('Stop while the page settles after Save: the save under way ends, the agent does nothing more', async ({
  ext,
}) => {
  const fake = fakeGemini(ext.env.gemini);
  const { page, tabId } = await openDemo(ext, '/emr/');
  await recordRuns(ext);
  // The EMR's save (its own POST) is held, so the page shows "Saving…" and the agent's
  // stability wait goes on until the test lets the save through.
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
  const popup = await startGoal(ext, tabId, PATIENT_GOAL);
  await saving;
  await expect(page.getByText('Saving…')).toBeVisible();
  await watchPage(page);
  const callsBefore = (await fake.calls()).length;

  const stopped = await pressStop(ext, popup, tabId);
  await expectCancelled(ext, stopped.taskId ?? '');
  // Until the save is let through, the page is as Stop found it.
  await expect(page.getByText('Saving…')).toBeVisible();
  const releasedAt = Date.now();
  expect(await pageChangesSince(page, stopped.updatedAt)).toEqual([]);
  letSaveThrough();

  // The page finishes the save the agent's click started (one patient, not two), and the
  // agent neither verified it nor acted again: no model call, no step after Stop.
  await expect(page.getByRole('status')).toContainText('saved successfully');
  expect((await demoPatients(ext)).filter(isJasPatel)).toHaveLength(1);
  expect(stopped.steps.at(-1)?.summary).toBe('Clicked “Save”');
  expect(stopped.steps.at(-1)?.verification).toBeUndefined();
  expect((await fake.calls()).slice(callsBefore)).toEqual([]);
  const task = await serverTask(
    { url: ext.env.server, apiKey: ext.env.apiKey },
    stopped.taskId ?? '',
  );
  expect(task.steps).toHaveLength(stopped.steps.length);
  expect(task.steps.at(-1)?.verification).toBeNull();
  expect(releasedAt).toBeGreaterThanOrEqual(stopped.updatedAt);
});
