// End to end: the admin pages of the production server, over data made by a real agent run
// (real extension, fake Gemini over HTTP, real store). Signs in with the admin key through
// the form, reads billing (chart + table), the task list with its KPIs and one task's trace,
// and checks that user keys get 403 and stale keys 401.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AdminTaskList, BillingResponse, RoutineList, WhoAmIResponse } from '@tandem/contracts';
import { createUserKey } from './support/admin-cli';
import { signIn } from './support/flow';
import {
  expect,
  finished,
  openDemo,
  startGoal,
  test,
  waitForRun,
  type Extension,
} from './support/fixtures';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../docs/images');
const GOAL = 'Add a new patient named Jas Patel';

async function api<T>(ext: Extension, pathname: string, parse: (v: unknown) => T): Promise<T> {
  const res = await fetch(`${ext.env.server}${pathname}`, {
    headers: { authorization: `Bearer ${ext.env.apiKey}` },
  });
  expect(res.status, pathname).toBe(200);
  return parse(await res.json());
}

test('admin pages: billing chart and table, task list with KPIs, a task trace; 401/403 for the wrong keys', async ({
  ext,
}) => {
  // Seed through the product itself: one real task, planned, acted and verified.
  const { tabId } = await openDemo(ext, '/emr/');
  await startGoal(ext, tabId, GOAL);
  const run = await waitForRun(ext, tabId, finished, 90_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');

  // Signed out, whatever a spec before this one left in the suite's browser.
  await ext.context.clearCookies();
  const page = await ext.context.newPage();
  await page.setViewportSize({ width: 1200, height: 900 });

  // Not signed in: the sign-in form, which comes back to the page asked for.
  await page.goto(`${ext.env.server}/admin/billing?groupBy=actionType`);
  await expect(page).toHaveURL(/\/admin\/login\?next=/);
  await signIn(page, 'tdm_not-a-real-key');
  await expect(page.locator('p.error')).toContainText('not valid');
  await signIn(page, ext.env.apiKey);
  await expect(page).toHaveURL(/\/admin\/billing\?groupBy=actionType$/);
  // The key lives in an httpOnly cookie only: never in the URL or the page.
  expect(page.url()).not.toContain(ext.env.apiKey);
  expect(await page.content()).not.toContain(ext.env.apiKey);
  const cookie = (await ext.context.cookies(`${ext.env.server}/admin/`)).find(
    (c) => c.name === 'tandem_admin_key',
  );
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin' });

  // Billing: what the page shows is what the API answers.
  const billing = await api(ext, '/api/admin/billing?groupBy=actionType', (v) =>
    BillingResponse.parse(v),
  );
  expect(billing.totals.calls).toBeGreaterThan(0);
  await expect(page.getByRole('heading', { name: 'Billing' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Daily cost by action type' })).toBeVisible();
  const chart = page.getByTestId('cost-chart');
  await expect(chart).toBeVisible();
  expect(await chart.locator('rect').count()).toBeGreaterThanOrEqual(
    billing.rows.filter((r) => r.costMicroUsd > 0).length,
  );
  const table = page.locator('table');
  for (const row of billing.rows) {
    // Exact key cell: PLANNING must not also match REPLANNING.
    const tr = table
      .locator('tbody tr')
      .filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${row.key}$`) }) });
    await expect(tr).toHaveCount(1);
    await expect(tr.locator('td').nth(1)).toHaveText(String(row.calls));
    await expect(page.getByRole('list', { name: 'Action types' })).toContainText(row.key);
  }
  await expect(table.locator('tfoot')).toContainText(String(billing.totals.calls));
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'admin-billing.png'), fullPage: true });

  // Tasks: the run is listed with its KPIs.
  await page.getByRole('link', { name: 'Tasks' }).click();
  await expect(page.getByRole('heading', { name: 'Tasks' })).toBeVisible();
  const list = await api(ext, '/api/admin/tasks', (v) => AdminTaskList.parse(v));
  const task = list.items.find((t) => t.id === run.taskId);
  expect(task, JSON.stringify(list.items.map((t) => t.query))).toBeDefined();
  const taskRow = page.getByRole('table', { name: 'Tasks' }).locator('tbody tr', { hasText: GOAL });
  await expect(taskRow.first()).toContainText('completed');
  const kpis = page.getByRole('region', { name: 'Key metrics' });
  await expect(kpis).toContainText('Task completion');
  await expect(kpis).toContainText('Verification success');
  await expect(kpis.locator('.kpi', { hasText: 'Step latency' })).toContainText(/\d+(\.\d+)? m?s/);
  // The KPIs, each with its sample count ("no data" while there is none).
  for (const name of ['Classification accuracy', 'Round-trip reduction', 'Critic catch rate']) {
    await expect(kpis.locator('.kpi', { hasText: name })).toBeVisible();
  }
  await page.screenshot({ path: path.join(SCREENSHOTS, 'admin-tasks.png'), fullPage: true });

  // One task's trace: every step with its thought, action, verification tier and cost.
  await page.getByRole('link', { name: GOAL }).first().click();
  await expect(page).toHaveURL(new RegExp(`/admin/tasks/${run.taskId}$`));
  await expect(page.getByRole('heading', { name: GOAL })).toBeVisible();
  const steps = page.getByTestId('task-step');
  expect(await steps.count()).toBeGreaterThanOrEqual(3);
  const firstThought = run.steps[0]?.thought ?? '';
  await expect(steps.first()).toContainText(firstThought.slice(0, 40));
  await expect(steps.first()).toContainText(/passed.*tier \d/);
  await expect(page.locator('dl.fields').first()).toContainText(
    task?.usage.calls ? `${task.usage.calls} calls` : 'calls',
  );
  await page.screenshot({ path: path.join(SCREENSHOTS, 'admin-task.png'), fullPage: true });

  // Routines: the task above completed with every step verified, so it left a routine; the nav
  // leads to it and the page lists what the API does, with its detail one click away.
  await page.getByRole('link', { name: 'Routines' }).click();
  await expect(page.getByRole('heading', { name: 'Routines' })).toBeVisible();
  const routines = await api(ext, '/api/routines', (v) => RoutineList.parse(v));
  const newest = routines.items[0];
  expect(newest, 'the verified task left a routine').toBeDefined();
  await expect(page.getByRole('table', { name: 'Routines' })).toContainText(newest?.name ?? '');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'admin-routines.png'), fullPage: true });
  await page
    .getByRole('link', { name: newest?.name ?? '' })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: newest?.name ?? '' })).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'admin-routine.png'), fullPage: true });

  // A revoked or unknown key in the cookie: 401 with a way back in.
  const other = await ext.context.newPage();
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
  const stale = await other.goto(`${ext.env.server}/admin/tasks`);
  expect(stale?.status()).toBe(401);
  await expect(other.getByRole('heading', { name: 'Sign in again (401)' })).toBeVisible();

  // A user key: signed in, but every admin page answers 403 "admin key required".
  const { tenantId } = await api(ext, '/api/auth/whoami', (v) => WhoAmIResponse.parse(v));
  const userKey = createUserKey(ext.env.dataDir, tenantId);
  await signIn(other, userKey);
  const forbidden = await other.goto(`${ext.env.server}/admin/billing`);
  expect(forbidden?.status()).toBe(403);
  await expect(other.getByRole('heading', { name: 'Admin key required (403)' })).toBeVisible();
  await expect(other.locator('p.error')).toContainText('user key');
  const apiForbidden = await fetch(`${ext.env.server}/api/admin/billing`, {
    headers: { authorization: `Bearer ${userKey}` },
  });
  expect(apiForbidden.status).toBe(403);

  // Sign out forgets the key.
  await signIn(other, ext.env.apiKey);
  await expect(other.getByRole('heading', { name: 'Billing' })).toBeVisible();
  await other.getByRole('button', { name: 'Sign out' }).click();
  await expect(other).toHaveURL(/\/admin\/login$/);
  expect(
    (await ext.context.cookies(`${ext.env.server}/admin/`)).find(
      (c) => c.name === 'tandem_admin_key',
    ),
  ).toBeUndefined();
});
