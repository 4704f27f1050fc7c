// Two-phase SPA ingestion from the real built extension (docs/specs.md, "two-phase SPA ingestion"):
// the user allows the demo site on the options page, the popup shows the consent for the tab's
// site, and a task on it sends the page's content as it first sees each page (hidden content kept)
// and again after the click that opened a menu; once the popup's toggle is off, a task sends
// nothing. What the extension sends is recorded by a loopback capture server (knowledge-capture.ts)
// that passes every other request through to the real server. Screenshots go to docs/images/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  expect,
  finished,
  openDemo,
  openPopup,
  test,
  typeGoal,
  waitForRun,
  type Extension,
} from './support/fixtures';
import { startKnowledgeCapture, type KnowledgeCapture } from './support/knowledge-capture';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../docs/images');

async function shoot(view: Page, name: string, size: { width: number; height: number }) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await view.setViewportSize(size);
  await view.screenshot({
    path: path.join(SCREENSHOTS, `knowledge-consent-${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

/** Points the extension at `serverUrl`; `clearSites` forgets every allowed site. */
async function configure(ext: Extension, serverUrl: string, clearSites: boolean): Promise<void> {
  await ext.worker.evaluate(
    async ({ serverUrl, apiKey, clearSites }) => {
      await chrome.storage.local.set({ settings: { serverUrl, apiKey } });
      if (clearSites) await chrome.storage.local.remove('learnSites');
    },
    { serverUrl, apiKey: ext.env.apiKey, clearSites },
  );
}

let capture: KnowledgeCapture;

test.beforeEach(async ({ ext }) => {
  capture = await startKnowledgeCapture(ext.env.server);
  await configure(ext, capture.url, true);
});

test.afterEach(async ({ ext }) => {
  // The other specs share this browser: the real server again, and no site allowed.
  await configure(ext, ext.env.server, true);
  await capture.close();
});

test('a site allowed on the options page: a task there sends its pages, initial then post-interaction; off in the popup, nothing', async ({
  ext,
}) => {
  const site = new URL(ext.env.demo).host;
  const options = await ext.context.newPage();
  await options.goto(`chrome-extension://${ext.id}/src/options/index.html`);
  const section = options.getByRole('region', { name: 'Learn from pages' });
  await expect(section.getByText('No sites yet: Tandem sends no page content.')).toBeVisible();
  await section.getByLabel('Add a site').fill(`${ext.env.demo}/emr/patients?from=options`);
  await section.getByRole('button', { name: 'Add site' }).click();
  const list = section.getByRole('list', { name: 'Sites Tandem may learn from' });
  await expect(list.getByRole('listitem')).toHaveText([`${site}Remove`]);
  await expect(section.getByRole('status')).toHaveText(`Tandem may learn from ${site}.`);
  await shoot(options, 'options', { width: 760, height: 700 });

  const { tabId } = await openDemo(ext, '/emr/');
  const popup = await openPopup(ext, tabId);
  const toggle = popup.getByRole('checkbox', { name: 'Let Tandem learn from this site' });
  await expect(toggle).toBeChecked();
  await expect(popup.locator('#learn-state')).toContainText(
    `On: during tasks, the text of ${site}`,
  );
  await shoot(popup, 'popup-on', { width: 380, height: 600 });

  await typeGoal(popup, 'Add a new patient named Jas Patel');
  const run = await waitForRun(ext, tabId, finished, 90_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');

  const home = `${ext.env.demo}/emr/`;
  const menuClick = run.steps[0]?.action ?? '';
  expect(menuClick).toMatch(/^click\(/);
  await expect
    .poll(() => capture.posts.map((p) => `${p.body.phase} ${p.body.url}`), { timeout: 15_000 })
    .toEqual(expect.arrayContaining([`initial ${home}`, `post-interaction ${home}`]));
  const sent = capture.posts.map((p) => p.body);
  console.log(
    `[knowledge] ${sent.length} page contents sent: ` +
      sent.map((b) => `${b.phase} ${b.url} ${b.triggerAction ?? ''} ${b.html.length}ch`).join('; '),
  );
  expect(capture.posts.every((p) => p.authorization === `Bearer ${ext.env.apiKey}`)).toBe(true);
  expect(sent.every((b) => b.url.startsWith(ext.env.demo))).toBe(true);
  // Initial: the page as the task first saw it, the closed Patients menu included (hidden).
  const initial = sent.find((b) => b.phase === 'initial' && b.url === home);
  expect(initial).toMatchObject({ taskId: run.taskId, title: 'Dashboard · Tandem Health EMR' });
  expect(initial?.html).toContain('New/Search');
  // Hidden elements keep their markup (the hidden attribute) for the server to tell them apart.
  expect(initial?.html).toMatch(/<ul[^>]*id="patients-menu"[^>]*hidden/);
  // Post-interaction: after the click that opened the menu, tagged with that action.
  const opened = sent.find((b) => b.phase === 'post-interaction' && b.url === home);
  expect(opened).toMatchObject({ triggerAction: menuClick, taskId: run.taskId });
  expect(opened?.html).toContain('New/Search');
  expect(opened?.html).not.toMatch(/<ul[^>]*id="patients-menu"[^>]*hidden/);
  // Once per URL per task, and never the same content twice for a URL.
  expect(sent.filter((b) => b.phase === 'initial' && b.url === home)).toHaveLength(1);
  const seen = sent.map((b) => `${b.url}\n${b.html}`);
  expect(new Set(seen).size).toBe(seen.length);
  // And the server stored it as that site's knowledge: the page as a document, resolvable.
  const auth = { authorization: `Bearer ${ext.env.apiKey}` };
  const documents = (await (
    await fetch(`${ext.env.server}/api/knowledge/documents`, { headers: auth })
  ).json()) as { documents: { source: string; sourceUrl: string; chunks: number }[] };
  expect(documents.documents).toContainEqual(
    expect.objectContaining({ source: 'page', sourceUrl: home, chunks: expect.any(Number) }),
  );
  const resolved = (await (
    await fetch(
      `${ext.env.server}/api/knowledge/resolve?${new URLSearchParams({ url: home, query: 'patients search' }).toString()}`,
      { headers: auth },
    )
  ).json()) as { hasOrgKnowledge: boolean; chunks: { phase: string | null }[] };
  expect(resolved.hasOrgKnowledge).toBe(true);
  expect(resolved.chunks.length).toBeGreaterThan(0);

  // Off in the popup: the next task on the same site sends nothing.
  await popup.reload();
  await toggle.uncheck();
  await expect(popup.locator('#learn-state')).toHaveText(`Off: nothing from ${site} is sent.`);
  await shoot(popup, 'popup-off', { width: 380, height: 600 });
  await options.reload();
  await expect(section.getByText('No sites yet: Tandem sends no page content.')).toBeVisible();
  const before = capture.posts.length;
  const form = await openDemo(ext, '/form/');
  const formPopup = await openPopup(ext, form.tabId);
  await expect(
    formPopup.getByRole('checkbox', { name: 'Let Tandem learn from this site' }),
  ).not.toBeChecked();
  await typeGoal(
    formPopup,
    'Fill in the request form for Ann Lee (ann@example.com), follow-up visit, contact by phone, notes "Please call after 5pm", and submit it',
  );
  const second = await waitForRun(ext, form.tabId, finished, 90_000);
  expect(second.status, JSON.stringify(second, null, 2)).toBe('completed');
  await new Promise((r) => setTimeout(r, 1_000));
  expect(capture.posts.length).toBe(before);
});
