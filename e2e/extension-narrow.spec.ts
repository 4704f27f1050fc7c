// End to end: the extension's own pages at the widths Chrome gives them, with and without data,
// from the real built extension: the Options page at a phone's width (420 px) and a laptop's
// (1280 px), the popup (380 px, Chrome sizes it to its content) and the side panel at its
// narrowest (320 px) and at 420 px. Each view is screenshotted (attached to the test) and fails
// on horizontal overflow (support/narrow.ts), the same check as the admin pages'.
import {
  expect,
  finished,
  openDemo,
  openPopup,
  test,
  typeGoal,
  waitForRun,
} from './support/fixtures';
import { openPanel } from './support/flow';
import { checkView } from './support/narrow';

test('Options at 420 and 1280 px: empty, filled in and with an error, nothing overflows', async ({
  ext,
}) => {
  test.setTimeout(60_000);
  const info = test.info();
  const keep = await ext.worker.evaluate(() => chrome.storage.local.get(null));
  try {
    await ext.worker.evaluate(() =>
      chrome.storage.local.remove(['learnSites', 'secrets', 'askBefore']),
    );
    const options = await ext.context.newPage();
    await options.goto(`chrome-extension://${ext.id}/src/options/index.html`);
    await expect(options.locator('#learn-empty')).toBeVisible();
    await expect(options.locator('#secrets-empty')).toBeVisible();
    await checkView(options, info, 'options-empty');

    // Every list filled in, with long entries where a user may type them.
    const learn = options.getByRole('region', { name: 'Learn from pages' });
    await learn.getByLabel('Add a site').fill(`${ext.env.demo}/emr/patients`);
    await learn.getByRole('button', { name: 'Add site' }).click();
    await expect(options.getByRole('list', { name: 'Sites Tandem may learn from' })).toBeVisible();
    await options.getByLabel('Name', { exact: true }).fill('clinic_password_for_the_front_desk');
    await options.getByLabel('Value', { exact: true }).fill('correct horse battery staple');
    await options
      .getByLabel('Sites it may be typed on')
      .fill('clinic.example.com, records.very-long-subdomain-of-the-clinic.example.org');
    await options.getByRole('button', { name: 'Save secret' }).click();
    await expect(options.getByRole('list', { name: 'Stored secrets' })).toBeVisible();
    await options.getByLabel('Add a word or phrase').fill('transfer to another account');
    await options.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(
      options.getByRole('list', { name: 'Words that make Tandem ask first' }),
    ).toBeVisible();
    await checkView(options, info, 'options-filled');

    // A server URL without a scheme: the message shows and is not saved.
    await options.getByLabel('Server URL').fill('127.0.0.1:3000');
    await options.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(options.locator('#message')).not.toBeEmpty();
    await checkView(options, info, 'options-error');
    await options.close();
  } finally {
    // Later tests in this browser start from the settings the suite gave it.
    await ext.worker.evaluate(async (items) => {
      await chrome.storage.local.clear();
      await chrome.storage.local.set(items);
    }, keep);
  }
});

test('popup and side panel at their widths: idle, a bad site, and after a run', async ({ ext }) => {
  test.setTimeout(120_000);
  const info = test.info();
  const { tabId } = await openDemo(ext, '/emr/');
  const popup = await openPopup(ext, tabId);
  await expect(popup.getByLabel('What should I do on this page?')).toBeVisible();
  await checkView(popup, info, 'popup-idle', [380, 420]);

  // A site the field refuses: the hint says why, in the popup's width.
  await popup.getByLabel(/Also allow these sites/).fill('not a site!!, records.example.org');
  await popup.getByLabel('What should I do on this page?').fill('click Patients');
  await popup.getByRole('button', { name: 'Start' }).click();
  await expect(
    popup.locator('#sites-hint, #popup-error').filter({ hasText: /\S/ }).first(),
  ).toBeVisible();
  await checkView(popup, info, 'popup-bad-site', [380, 420]);
  await popup.close();

  const again = await openPopup(ext, tabId);
  await typeGoal(again, 'click Patients');
  const run = await waitForRun(ext, tabId, finished, 60_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  await expect(again.getByText(/Clicked/).first()).toBeVisible();
  await checkView(again, info, 'popup-done', [380, 420]);
  await again.close();

  const panel = await openPanel(ext, tabId);
  await expect(panel.getByText(/Clicked/).first()).toBeVisible();
  await checkView(panel, info, 'panel-done', [320, 420]);
  await panel.close();
});
