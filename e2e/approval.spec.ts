// Approval for risky steps, with the real extension, server and Chromium: a
// goal that sends a patient a message pauses before anything of the step runs, with an
// approval card in the popup and the side panel. Approve, edit or reject resumes the SAME task.
// The pause survives the service worker being stopped and the browser being restarted (a new
// Chromium on the same profile, where the card moves to the tab that shows the page again).
import { extensionLaunchOptions } from '@tandem/chromium';
import { DEMO_API, DEMO_PAGES, type SentMessage } from '@tandem/demo-sites';
import { chromium, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MESSAGE_GOAL, MESSAGE_TEXT } from './support/fake-everyday-model';
import { openPanel, serverTask, shoot } from './support/flow';
import {
  EXTENSION_DIST,
  expect,
  forgetRoutines,
  openDemo,
  openPopup,
  runState,
  startGoal,
  test,
  waitForRun,
  type Extension,
} from './support/fixtures';

const sent = async (demo: string): Promise<SentMessage[]> =>
  ((await (await fetch(`${demo}${DEMO_API.messages}`)).json()) as { messages: SentMessage[] })
    .messages;

const awaitingApproval = (run: { status: string }) => run.status === 'needs_approval';
/**
 * The run after the user's decision has ended. Not `finished` (anything but running): the
 * worker may still say `needs_approval` for a moment after the click, and that is no end.
 */
const decided = (run: { status: string }) =>
  run.status !== 'running' && run.status !== 'needs_approval';

async function pausedOnSend(ext: Extension): Promise<{ page: Page; tabId: number; popup: Page }> {
  const { page, tabId } = await openDemo(ext, DEMO_PAGES.messages);
  const popup = await startGoal(ext, tabId, MESSAGE_GOAL);
  await waitForRun(ext, tabId, awaitingApproval);
  const card = popup.getByRole('region', { name: 'Approve this step?' });
  await expect(card).toBeVisible();
  await expect(popup.locator('#status')).toHaveText('Waiting for your approval');
  await expect(card.locator('#approval-reasons')).toHaveText('Sends: “Send message”');
  return { page, tabId, popup };
}

// Every test sends the same message: each starts with no routine, or the second would rerun
// the first one's instead of pausing on the model's step.
test.beforeEach(async ({ ext }) => {
  await forgetRoutines(ext.env);
});

test('approve: the step waits for the user, then the same task sends the message', async ({
  ext,
}) => {
  const { page, tabId, popup } = await pausedOnSend(ext);
  const card = popup.getByRole('region', { name: 'Approve this step?' });
  await expect(
    card.getByRole('list', { name: 'What the step does' }).getByRole('listitem'),
  ).toHaveText([
    'Choose “Maria Lopez” in To',
    `Type “${MESSAGE_TEXT}” into Message`,
    'Click “Send message”',
  ]);
  // Nothing of the step ran: the form is untouched and nothing was sent.
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');
  expect(await sent(ext.env.demo)).toEqual([]);
  await shoot(popup, 'approval', 'popup');
  const panel = await openPanel(ext, tabId);
  await expect(panel.getByRole('region', { name: 'Approve this step?' })).toBeVisible();
  await shoot(panel, 'approval', 'panel');
  const paused = await runState(ext, tabId);

  await panel.getByRole('button', { name: 'Approve' }).click();
  const run = await waitForRun(ext, tabId, decided, 90_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  expect(run.taskId).toBe(paused?.taskId);
  expect(await sent(ext.env.demo)).toEqual([
    { to: 'Maria Lopez', body: MESSAGE_TEXT, sequence: 1 },
  ]);
  await expect(popup.getByRole('region', { name: 'Approve this step?' })).toBeHidden();
  await expect(popup.locator('#result-text')).toHaveText('The message was sent to Maria Lopez.');
  const task = await serverTask({ url: ext.env.server, apiKey: ext.env.apiKey }, run.taskId ?? '');
  expect(task.task.status).toBe('completed');
});

test('edit: the message is sent as the user rewrote it', async ({ ext }) => {
  const { tabId, popup } = await pausedOnSend(ext);
  await popup.getByRole('button', { name: 'Edit' }).click();
  const text = popup.getByRole('textbox', { name: 'Text for Message' });
  await expect(text).toBeVisible();
  await text.fill('Your appointment moved to 10:30 tomorrow.');
  await shoot(popup, 'approval-edit', 'popup');
  await popup.getByRole('button', { name: 'Approve with my edits' }).click();
  const run = await waitForRun(ext, tabId, decided, 90_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  expect(await sent(ext.env.demo)).toEqual([
    { to: 'Maria Lopez', body: 'Your appointment moved to 10:30 tomorrow.', sequence: 1 },
  ]);
});

test('reject: nothing is sent, the same task hears why and ends', async ({ ext }) => {
  const { tabId, popup } = await pausedOnSend(ext);
  const paused = await runState(ext, tabId);
  await popup
    .getByRole('textbox', { name: 'Why not? (optional, for the agent)' })
    .fill('Not before I call her');
  await popup.getByRole('button', { name: 'Reject' }).click();
  const run = await waitForRun(ext, tabId, decided, 90_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  expect(run.taskId).toBe(paused?.taskId);
  expect(run.result).toBe('The message was not sent: you rejected it.');
  expect(await sent(ext.env.demo)).toEqual([]);
  // The verdict on the step (which already says what it would have done) is the user's no.
  expect(run.steps.at(-1)?.verification?.reason).toBe('You rejected it: “Not before I call her”');
  await shoot(popup, 'rejected', 'popup');
});

test('the pause survives the service worker being stopped', async ({ ext }) => {
  const { page, tabId, popup } = await pausedOnSend(ext);
  const paused = await runState(ext, tabId);
  await popup.close();
  const cdp = await ext.context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  // A new popup starts the worker again: the card is still there, from storage.
  const again = await openPopup(ext, tabId);
  await expect(again.getByRole('region', { name: 'Approve this step?' })).toBeVisible();
  expect(await sent(ext.env.demo)).toEqual([]);
  await again.getByRole('button', { name: 'Approve' }).click();
  const run = await waitForRun(ext, tabId, decided, 90_000);
  expect(run.status).toBe('completed');
  expect(run.taskId).toBe(paused?.taskId);
  expect(await sent(ext.env.demo)).toHaveLength(1);
});

/** A Chromium with the extension on `profile`, pointed at the suite's server. */
async function launch(
  profile: string,
  ext: Extension,
): Promise<{ context: BrowserContext; worker: Worker }> {
  const context = await chromium.launchPersistentContext(
    profile,
    extensionLaunchOptions(EXTENSION_DIST),
  );
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  await worker.evaluate((settings) => chrome.storage.local.set({ settings }), {
    serverUrl: ext.env.server,
    apiKey: ext.env.apiKey,
  });
  return { context, worker };
}

const tabOf = (worker: Worker, url: string) =>
  worker.evaluate(
    async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id ?? -1,
    url,
  );

test('the pause survives a browser restart: the card comes back with the page', async ({ ext }) => {
  const profile = mkdtempSync(path.join(tmpdir(), 'tandem-e2e-restart-'));
  const url = `${ext.env.demo}${DEMO_PAGES.messages}`;
  try {
    const first = await launch(profile, ext);
    const page = await first.context.newPage();
    await page.goto(url);
    const tabId = await tabOf(first.worker, url);
    const popup = await first.context.newPage();
    await popup.goto(
      `chrome-extension://${new URL(first.worker.url()).host}/src/popup/index.html?tab=${tabId}`,
    );
    await popup.getByLabel('What should I do on this page?').fill(MESSAGE_GOAL);
    await popup.getByRole('button', { name: 'Start' }).click();
    await expect(popup.getByRole('region', { name: 'Approve this step?' })).toBeVisible({
      timeout: 60_000,
    });
    const taskId = await first.worker.evaluate(
      async (key) => ((await chrome.storage.local.get(key))[key] as { taskId?: string }).taskId,
      `run_${tabId}`,
    );
    await first.context.close();

    // Chrome again, on the same profile: the user opens the page again.
    const second = await launch(profile, ext);
    const again = await second.context.newPage();
    await again.goto(url);
    const newTab = await tabOf(second.worker, url);
    const id = new URL(second.worker.url()).host;
    const popup2 = await second.context.newPage();
    await popup2.goto(`chrome-extension://${id}/src/popup/index.html?tab=${newTab}`);
    const card = popup2.getByRole('region', { name: 'Approve this step?' });
    await expect(card).toBeVisible();
    await shoot(popup2, 'approval-after-restart', 'popup');
    expect(await sent(ext.env.demo)).toEqual([]);
    await card.getByRole('button', { name: 'Approve' }).click();
    await expect(popup2.locator('#result-text')).toHaveText(
      'The message was sent to Maria Lopez.',
      {
        timeout: 60_000,
      },
    );
    const run = await second.worker.evaluate(
      async (key) =>
        (await chrome.storage.local.get(key))[key] as { taskId?: string; status: string },
      `run_${newTab}`,
    );
    expect(run).toMatchObject({ status: 'completed', taskId });
    expect(await sent(ext.env.demo)).toEqual([
      { to: 'Maria Lopez', body: MESSAGE_TEXT, sequence: 1 },
    ]);
    await second.context.close();
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});
