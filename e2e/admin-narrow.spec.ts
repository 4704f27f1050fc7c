// End to end: every admin page and /extractions at a phone's width (420 px) and a laptop's
// (1280 px), on a fresh server (nothing recorded yet) and after a real agent run. Each view is
// screenshotted (attached to the test) and fails on horizontal overflow: the page scrolling
// sideways, or an element reaching past the viewport outside a box that scrolls on its own (a
// wide table may scroll inside its box; the page may not). Also checks what a new user saw
// wrong: the admin menu while signed out, KPIs judged from two tasks, an empty cost chart with
// a $0–$0.000001 axis, and trace cards that all read "Step 1".
import { chromium, type Page } from '@playwright/test';
import { WhoAmIResponse } from '@tandem/contracts';
import { CHROMIUM_ARGS, chromiumPath } from '@tandem/chromium';
import { createUserKey } from './support/admin-cli';
import { e2eEnv } from './support/env';
import { expect, finished, openDemo, startGoal, test, waitForRun } from './support/fixtures';
import { checkView, overflow } from './support/narrow';
import { startTandemServer } from './support/tandem-server';

const GOAL = 'Add a new patient named Jas Patel';
async function signInAdmin(page: Page, server: string, key: string): Promise<void> {
  await page.goto(`${server}/admin/login`);
  await page.getByLabel('Admin API key').fill(key);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await expect(page.getByRole('heading', { name: 'Billing' })).toBeVisible();
}

async function signInExtractions(page: Page, server: string, key: string): Promise<void> {
  await page.goto(`${server}/extractions`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('form', { name: 'New extraction' })).toBeVisible();
}

test('admin pages and /extractions on a fresh server: no overflow at 420 px, nothing alarming', async () => {
  test.setTimeout(120_000);
  const info = test.info();
  // A server of its own: the suite's one may already hold other tests' tasks.
  const server = await startTandemServer({ gemini: e2eEnv().gemini });
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 420, height: 900 } });

    // The home page: where a new user lands, with the way to each page.
    await page.goto(server.url);
    await expect(page.getByRole('link', { name: 'Admin', exact: true })).toBeVisible();
    await checkView(page, info, 'empty-home');

    // Signed out: the sign-in form without the admin menu (it would lead back here).
    await page.goto(`${server.url}/admin/tasks`);
    await expect(page).toHaveURL(/\/admin\/login\?next=/);
    await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    // The check itself: a block wider than the viewport is found.
    await page.setViewportSize({ width: 420, height: 900 });
    await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.id = 'overflow-probe';
      probe.style.width = '600px';
      probe.textContent = 'probe';
      document.body.append(probe);
    });
    expect((await overflow(page)).join('\n')).toContain('overflow-probe');
    await page.evaluate(() => document.getElementById('overflow-probe')?.remove());
    await checkView(page, info, 'empty-admin-login');

    await signInAdmin(page, server.url, server.apiKey);
    await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
    // No usage: a sentence, not a plot with a made-up scale.
    await expect(page.getByTestId('cost-chart')).toHaveCount(0);
    await expect(page.getByTestId('cost-chart-empty')).toContainText('No LLM usage');
    await expect(page.getByText('$0.000001')).toHaveCount(0);
    await expect(page.getByLabel('To (UTC day, included)')).toBeVisible();
    await checkView(page, info, 'empty-admin-billing');

    await page.goto(`${server.url}/admin/billing?groupBy=day`);
    await expect(page.getByRole('heading', { name: 'By day (UTC)' })).toBeVisible();

    await page.goto(`${server.url}/admin/tasks`);
    await expect(page.getByText('No tasks in this window.')).toBeVisible();
    const kpis = page.getByRole('region', { name: 'Key metrics' });
    await expect(kpis.locator('.kpi')).not.toHaveCount(0);
    await expect(kpis.locator('.kpi.alert')).toHaveCount(0);
    await checkView(page, info, 'empty-admin-tasks');

    await page.goto(`${server.url}/admin/knowledge`);
    await expect(page.getByRole('heading', { name: 'Knowledge', level: 1 })).toBeVisible();
    await checkView(page, info, 'empty-admin-knowledge');

    await page.goto(`${server.url}/extractions`);
    await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
    await checkView(page, info, 'empty-extractions-signin');
    await signInExtractions(page, server.url, server.apiKey);
    await checkView(page, info, 'empty-extractions');
  } finally {
    await browser.close();
    await server.close();
  }
});

test('admin pages after a real run: no overflow at 420 px, honest counts and KPIs', async ({
  ext,
}) => {
  test.setTimeout(180_000);
  const info = test.info();
  const { tabId } = await openDemo(ext, '/emr/');
  await startGoal(ext, tabId, GOAL);
  const run = await waitForRun(ext, tabId, finished, 90_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  expect(run.taskId).toBeDefined();

  await ext.context.clearCookies();
  const page = await ext.context.newPage();
  await page.setViewportSize({ width: 420, height: 900 });
  await signInAdmin(page, ext.env.server, ext.env.apiKey);
  // At 420 px the narrow drawing of the chart is the one shown.
  await expect(page.getByTestId('cost-chart-narrow')).toBeVisible();
  await expect(page.getByTestId('cost-chart')).toBeHidden();
  expect(await page.getByTestId('cost-chart-narrow').locator('rect').count()).toBeGreaterThan(0);
  await checkView(page, info, 'data-admin-billing');

  await page.goto(`${ext.env.server}/admin/tasks`);
  const row = page.getByRole('table', { name: 'Tasks' }).locator('tbody tr', { hasText: GOAL });
  await expect(row.first()).toContainText('completed');
  // A handful of tasks: the cards with a target say they have too few samples, none is red.
  const kpis = page.getByRole('region', { name: 'Key metrics' });
  await expect(kpis.locator('.kpi.alert')).toHaveCount(0);
  await expect(kpis.locator('.kpi', { hasText: 'Task completion' })).toContainText(
    /not enough tasks yet to judge \(\d+ of 10\)/,
  );
  await expect(page.getByRole('columnheader', { name: 'Round trips' })).toBeVisible();
  await checkView(page, info, 'data-admin-tasks');

  // The trace: cards numbered by position (never two "Round trip 1"), as many as the list says.
  await page.goto(`${ext.env.server}/admin/tasks/${run.taskId ?? ''}`);
  await expect(page.getByRole('heading', { name: GOAL })).toBeVisible();
  const cards = page.getByTestId('task-step');
  const count = await cards.count();
  expect(count).toBeGreaterThanOrEqual(2);
  const labels = await cards.locator('.step-head strong').allTextContents();
  expect(labels).toEqual(Array.from({ length: count }, (_, i) => `Round trip ${i + 1}`));
  await expect(page.locator('dl.fields').first()).toContainText(`${count} round trips`);
  await checkView(page, info, 'data-admin-task');

  await page.goto(`${ext.env.server}/admin/knowledge`);
  await expect(page.getByRole('heading', { name: 'Knowledge', level: 1 })).toBeVisible();
  await checkView(page, info, 'data-admin-knowledge');

  await signInExtractions(page, ext.env.server, ext.env.apiKey);
  await checkView(page, info, 'data-extractions');

  // Signed in with a user key: the 403 page, with the command that makes an admin key.
  const whoami = await fetch(`${ext.env.server}/api/auth/whoami`, {
    headers: { authorization: `Bearer ${ext.env.apiKey}` },
  });
  const { tenantId } = WhoAmIResponse.parse(await whoami.json());
  await page.goto(`${ext.env.server}/admin/login`);
  await page.getByLabel('Admin API key').fill(createUserKey(ext.env.dataDir, tenantId));
  await page.getByRole('button', { name: /Sign in/ }).click();
  await expect(page.getByRole('heading', { name: 'Admin key required (403)' })).toBeVisible();
  await checkView(page, info, 'admin-forbidden');
  // A key that no longer works in the cookie: the 401 page.
  await ext.context.clearCookies();
  await ext.context.addCookies([
    {
      name: 'tandem_admin_key',
      value: 'tdm_revoked',
      domain: new URL(ext.env.server).hostname,
      path: '/admin',
      httpOnly: true,
      sameSite: 'Strict',
    },
  ]);
  await page.goto(`${ext.env.server}/admin/tasks`);
  await expect(page.getByRole('heading', { name: 'Sign in again (401)' })).toBeVisible();
  await checkView(page, info, 'admin-unauthorized');
  // The browser is the suite's: later specs start signed out, as a new user would.
  await page.close();
  await ext.context.clearCookies();
});
