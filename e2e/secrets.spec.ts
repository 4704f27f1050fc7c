// Secrets the server never sees, end to end: the user stores a password in
// the options page, the agent signs in with it on the clinic's login page, and the value is
// typed there, yet it appears in no model prompt, no server log line, no LangFuse trace, no
// byte of the store (tasks, steps, usage log) and no API answer. The model only ever sees and
// writes `{{secret:clinic_password}}`; the password field's value is masked in every tree the
// extension sends after it was filled.
import { DEMO_PAGES } from '@tandem/demo-sites';
import { startLangfuseCaptureServer } from '@tandem/observability/testing';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fakeGemini } from './support/fake-gemini-control';
import { LOGIN_GOAL } from './support/fake-everyday-model';
import { SCREENSHOTS, serverTask, useServer } from './support/flow';
import { expect, finished, openDemo, startGoal, test, waitForRun } from './support/fixtures';
import { startTandemServer } from './support/tandem-server';

const PLACEHOLDER = '{{secret:clinic_password}}';

/** Every file under `dir` (the server's data dir: the libSQL database, its WAL, anything else). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** The files among `files` whose bytes contain `text` (as UTF-8, how libSQL stores text). */
const filesContaining = (files: string[], text: string) =>
  files.filter((f) => readFileSync(f).includes(Buffer.from(text, 'utf8')));

test('a stored secret is typed on its site and reaches no prompt, log, trace, store or usage log', async ({
  ext,
}) => {
  test.setTimeout(120_000);
  // A value no fixture contains, so finding it anywhere can only mean it leaked.
  const secret = `Clinic-${randomBytes(9).toString('base64url')}`;
  const langfuse = await startLangfuseCaptureServer();
  // Its own server, tracing to the capture server, logging at its most verbose: the strictest
  // place to look for a leak.
  const server = await startTandemServer({
    gemini: ext.env.gemini,
    env: {
      LANGFUSE_PUBLIC_KEY: 'pk-e2e',
      LANGFUSE_SECRET_KEY: 'sk-e2e',
      LANGFUSE_BASE_URL: langfuse.baseUrl,
      LOG_LEVEL: 'debug',
    },
  });
  const since = Date.now();
  try {
    await useServer(ext, server);

    // The user stores the secret in the options page, for the clinic's site.
    const options = await ext.context.newPage();
    await options.goto(`chrome-extension://${ext.id}/src/options/index.html`);
    await options.getByLabel('Name', { exact: true }).fill('clinic_password');
    await options.getByLabel('Value', { exact: true }).fill(secret);
    await options.getByLabel('Sites it may be typed on').fill(new URL(ext.env.demo).host);
    await options.getByRole('button', { name: 'Save secret' }).click();
    await expect(options.locator('#secret-message')).toHaveText(
      `Saved: the agent can type ${PLACEHOLDER} on ${new URL(ext.env.demo).host}.`,
    );
    await expect(options.getByRole('list', { name: 'Stored secrets' })).not.toContainText(secret);
    await options.setViewportSize({ width: 800, height: 1000 });
    await options.screenshot({
      path: path.join(SCREENSHOTS, 'secrets-options.png'),
      fullPage: true,
    });

    const { page, tabId } = await openDemo(ext, DEMO_PAGES.injectLogin);
    await startGoal(ext, tabId, LOGIN_GOAL);
    const run = await waitForRun(ext, tabId, finished, 90_000);
    expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
    expect(run.result).toBe('You are signed in to the clinic portal.');

    // The page got the real value: the extension filled it in at execution time.
    await expect(page.locator('#status')).toHaveText('Done: login.');
    const events = (await (await fetch(`${ext.env.demo}/api/inject/events`)).json()) as {
      events: { kind: string; detail: string }[];
    };
    expect(events.events.map((e) => [e.kind, JSON.parse(e.detail) as unknown])).toEqual([
      ['login', { user: 'maria.lopez', password: secret }],
    ]);

    // The model saw the placeholder (so the test looked where a leak would be), never the value.
    const calls = (await fakeGemini(ext.env.gemini).calls()).filter(
      (c) => c.at >= since && c.goal === LOGIN_GOAL,
    );
    expect(calls.map((c) => c.node)).toContain('action_generation');
    // After the form was filled, the page's password field is sent masked, never by value.
    expect(calls.some((c) => c.prompt.includes('inp "Password" ="********"'))).toBe(true);
    expect(calls.some((c) => c.prompt.includes(PLACEHOLDER))).toBe(true);
    expect(calls.filter((c) => c.prompt.includes(secret) || c.answer?.includes(secret))).toEqual(
      [],
    );

    // The server's record of the task: the step typed the placeholder; no answer has the value.
    const task = await serverTask(server, run.taskId ?? '');
    expect(task.task.status).toBe('completed');
    const taskJson = JSON.stringify(task);
    expect(taskJson).toContain(PLACEHOLDER);
    expect(taskJson).not.toContain(secret);
    const usage = await fetch(`${server.url}/api/admin/billing`, {
      headers: { authorization: `Bearer ${server.apiKey}` },
    });
    expect(usage.status).toBe(200);
    expect(await usage.text()).not.toContain(secret);

    // The traces: every LLM call of the run reached LangFuse, none with the value.
    await langfuse.waitFor((l) => l.spans.some((s) => JSON.stringify(s).includes(LOGIN_GOAL)));
    expect(JSON.stringify(langfuse.spans)).not.toContain(secret);

    // The log, and every byte the server wrote to disk (database, WAL, usage log).
    expect(server.output()).toContain(run.taskId ?? '(no task id)');
    expect(server.output()).not.toContain(secret);
    const files = filesUnder(server.dataDir);
    expect(filesContaining(files, LOGIN_GOAL).length).toBeGreaterThan(0);
    expect(filesContaining(files, secret)).toEqual([]);

    // And the extension's own run record, which the live view shows, names only the placeholder.
    const record = JSON.stringify(run);
    expect(record).toContain(PLACEHOLDER);
    expect(record).not.toContain(secret);
  } finally {
    await useServer(ext, { url: ext.env.server, apiKey: ext.env.apiKey });
    await ext.worker.evaluate(() => chrome.storage.local.remove('secrets'));
    await server.close();
    await langfuse.close();
  }
});
