// The live view in every state, rendered by the real built extension in
// Chromium: a run state is written for a tab from the service worker, the popup and the side
// panel page are opened for that tab, and what each shows is asserted and saved as a
// screenshot in docs/images/ to look at. This tests the rendering, so it needs neither the
// server nor a model; the flows that produce these states end to end are tested elsewhere.
import { extensionLaunchOptions } from '@tandem/chromium';
import { test as base, chromium, expect, type Page, type Worker } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EXTENSION_DIST } from './support/fixtures';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../docs/images');
const PAGE_TITLE = 'Patients · Demo EMR';

interface LiveViewExtension {
  worker: Worker;
  id: string;
  /** A tab showing a page, whose run the tests write. */
  tabId: number;
  page: Page;
  newPage(): Promise<Page>;
}

/** What a page sent to the service worker (Stop, answers). */
type Sent = { type: string; tabId?: number; answer?: string }[];
interface Stub {
  sent: Sent;
  reply: { ok: boolean; error?: string };
}

const test = base.extend<object, { live: LiveViewExtension }>({
  live: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const profile = mkdtempSync(path.join(tmpdir(), 'tandem-live-view-'));
      const context = await chromium.launchPersistentContext(
        profile,
        extensionLaunchOptions(EXTENSION_DIST),
      );
      const worker =
        context.serviceWorkers()[0] ??
        (await context.waitForEvent('serviceworker', { timeout: 20_000 }));
      const id = new URL(worker.url()).host;
      // The states are written here, not produced by the loop: the worker's own run writes
      // (it resumes a "running" run, finds no settings and records an error) are dropped.
      await worker.evaluate(() => {
        const local = chrome.storage.local;
        const original = local.set.bind(local);
        (globalThis as unknown as { seedRun: typeof original }).seedRun = original;
        local.set = (async (items: Record<string, unknown>) => {
          const kept = Object.entries(items).filter(([key]) => !key.startsWith('run_'));
          if (kept.length > 0) await original(Object.fromEntries(kept));
        }) as typeof local.set;
      });
      const page = await context.newPage();
      const html = `<meta charset="utf-8"><title>${PAGE_TITLE}</title><h1>Patients</h1>`;
      await page.goto(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
      const tabId = await worker.evaluate(async () => {
        const tabs = await chrome.tabs.query({});
        return tabs.find((t) => t.url?.startsWith('data:'))?.id ?? -1;
      });
      expect(tabId).toBeGreaterThan(0);
      await use({ worker, id, tabId, page, newPage: () => context.newPage() });
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
});

// ---- run states --------------------------------------------------------------------------

const GOAL = 'Add a new patient named Jas Patel, born 12 March 1990';

const verdict = (success: boolean, reason: string) => ({
  success,
  confidence: success ? 0.92 : 0.81,
  reason,
});

function plan(current: number, done: number) {
  const steps = [
    'Open the Patients page',
    'Open the new patient form',
    'Fill in the name and date of birth',
    'Save the patient and check the list',
  ];
  return {
    goal: GOAL,
    currentStepIndex: current,
    steps: steps.map((description, index) => ({
      index,
      description,
      status: index < done ? 'completed' : index === current ? 'active' : 'pending',
    })),
  };
}

function patientSteps(at: number) {
  return [
    {
      index: 0,
      read: true,
      summary: 'Read the page outline',
      thought: 'I need the structure of the page before acting.',
      status: 'executing',
      planStep: 0,
      at: at - 70_000,
    },
    {
      index: 1,
      action: 'click("12")',
      summary: 'Clicked “Patients”',
      thought: 'The Patients link in the sidebar opens the list with the New patient button.',
      verification: verdict(true, 'The patient list is shown.'),
      status: 'executing',
      planStep: 0,
      at: at - 55_000,
    },
    {
      index: 2,
      action: 'click("31")',
      summary: 'Clicked “New patient”',
      thought: 'New patient opens the form.',
      verification: verdict(false, 'The form did not open: the button was still loading.'),
      status: 'executing',
      planStep: 1,
      at: at - 40_000,
    },
    {
      index: 3,
      action: 'click("31")',
      summary: 'Clicked “New patient” again',
      thought: 'The button is ready now; trying once more.',
      verification: verdict(true, 'The New patient form is open.'),
      status: 'executing',
      planStep: 1,
      at: at - 25_000,
    },
    {
      index: 4,
      action: 'setValue("40", "Jas")',
      chain: ['setValue("40", "Jas")', 'setValue("41", "Patel")', 'setValue("42", "1990-03-12")'],
      summary:
        'Typed “Jas” into First name, then typed “Patel” into Last name, then typed “1990-03-12” into Date of birth',
      thought: 'All three fields are visible; filling them in one chain.',
      status: 'executing',
      planStep: 2,
      at: at - 5_000,
    },
  ];
}

type Run = Record<string, unknown>;

function running(now: number): Run {
  return {
    tabId: 0,
    goal: GOAL,
    status: 'running',
    taskId: 'task_live_view',
    steps: patientSteps(now),
    plan: plan(2, 2),
    currentStep: 2,
    startedAt: now - 83_000,
    requests: 6,
    usage: { inputTokens: 11_900, outputTokens: 445, totalTokens: 12_345, costMicroUsd: 4_249 },
    updatedAt: now - 5_000,
  };
}

const RESULT =
  'Jas Patel (born 12 March 1990) was added as a new patient. The patient list now shows 13 patients, with Jas Patel at the top.';

function states(now: number) {
  const base = running(now);
  const ended = { ...base, updatedAt: now - 2_000 };
  return {
    running: base,
    waiting: {
      ...base,
      wait: { reason: 'rate_limit', until: now + 37_000, attempt: 1 },
    },
    question: {
      ...ended,
      status: 'needs_input',
      steps: patientSteps(now).slice(0, 4),
      question:
        'The form asks for a phone number, which the goal does not give. Which number should I enter for Jas Patel?',
    },
    stopped: { ...ended, status: 'stopped', steps: patientSteps(now).slice(0, 3), currentStep: 1 },
    done: {
      ...ended,
      status: 'completed',
      plan: { ...plan(3, 4) },
      currentStep: 3,
      requests: 9,
      usage: { inputTokens: 20_100, outputTokens: 700, totalTokens: 20_800, costMicroUsd: 7_310 },
      steps: [
        ...patientSteps(now),
        {
          index: 5,
          action: 'click("55")',
          summary: 'Clicked “Save”',
          thought: 'Saving the new patient.',
          verification: verdict(true, 'The list shows “Jas Patel” and “Patient saved”.'),
          status: 'executing',
          planStep: 3,
          at: now - 3_000,
        },
        {
          index: 6,
          action: `finish(${JSON.stringify(RESULT)})`,
          summary: RESULT,
          thought: 'The patient is saved and listed: the goal is achieved.',
          status: 'completed',
          planStep: 3,
          at: now - 2_000,
        },
      ],
      result: RESULT,
    },
    collecting: collecting(now),
    failed: {
      ...ended,
      status: 'failed',
      steps: patientSteps(now).slice(0, 3),
      result:
        'The New patient form never opened: the button stayed disabled after three tries, so no patient was added.',
    },
    error: {
      ...ended,
      status: 'error',
      steps: patientSteps(now).slice(0, 2),
      error:
        'The server answered 500 (Internal Server Error) twice in a row. Check that the Tandem server is running, then start the task again.',
    },
  };
}

function collecting(now: number): Run {
  const skipped = ['J-1001', 'J-1004', 'J-1012']
    .map((id) => `Duplicate job skipped (already collected: job:${id})`)
    .join('\n');
  return {
    tabId: 0,
    goal: 'Extract 25 job listings',
    status: 'running',
    taskId: 'task_collect',
    steps: [
      {
        index: 0,
        read: true,
        summary: 'Read the page content',
        thought: 'The job cards are in the content.',
        status: 'executing',
        at: now - 40_000,
      },
      {
        index: 1,
        summary: 'Collected 12 jobs from page 1',
        thought: 'Page 1 holds 12 job cards.',
        status: 'executing',
        at: now - 30_000,
      },
      {
        index: 2,
        action: 'click("88")',
        summary: 'Clicked “Next page”',
        thought: 'Page 2 has more listings.',
        verification: verdict(true, 'Page 2 of the job board is shown.'),
        status: 'executing',
        at: now - 20_000,
      },
      {
        index: 3,
        read: true,
        summary: 'Read the page content',
        thought: `Page 2: 12 cards, 3 of them already collected.\n${skipped}`,
        status: 'executing',
        at: now - 4_000,
      },
    ],
    collected: { job: 12 },
    duplicatesSkipped: 3,
    startedAt: now - 47_000,
    requests: 5,
    usage: { inputTokens: 30_000, outputTokens: 1_200, totalTokens: 31_200, costMicroUsd: 11_870 },
    updatedAt: now - 4_000,
  };
}

// ---- helpers -----------------------------------------------------------------------------

async function seed(live: LiveViewExtension, run: Run): Promise<void> {
  await live.worker.evaluate(
    async ([key, value]) => {
      const scope = globalThis as unknown as {
        seedRun: (items: Record<string, unknown>) => Promise<void>;
      };
      await scope.seedRun({ [key as string]: value });
    },
    [`run_${live.tabId}`, { ...run, tabId: live.tabId }] as const,
  );
}

/**
 * Our pages' messages to the worker are recorded and answered here: this spec tests what the
 * pages show and send, whatever the worker (tested on its own) would make of them.
 */
async function stubWorker(view: Page): Promise<void> {
  await view.addInitScript(() => {
    const stub: Stub = { sent: [], reply: { ok: true } };
    (globalThis as unknown as { stub: Stub }).stub = stub;
    chrome.runtime.sendMessage = (async (message: Sent[number]) => {
      stub.sent.push(message);
      return stub.reply;
    }) as typeof chrome.runtime.sendMessage;
  });
}

async function sent(view: Page): Promise<Sent> {
  return view.evaluate(() => (globalThis as unknown as { stub: Stub }).stub.sent);
}

type Surface = 'popup' | 'panel';
const SURFACES: Record<Surface, { path: string; width: number; height: number }> = {
  popup: { path: 'src/popup/index.html', width: 380, height: 600 },
  panel: { path: 'src/sidepanel/index.html', width: 400, height: 800 },
};

async function open(live: LiveViewExtension, surface: Surface): Promise<Page> {
  const { path: page, width, height } = SURFACES[surface];
  const view = await live.newPage();
  await view.setViewportSize({ width, height });
  await stubWorker(view);
  await view.goto(`chrome-extension://${live.id}/${page}?tab=${live.tabId}`);
  await expect(view.locator('#status')).not.toBeEmpty();
  return view;
}

async function shoot(view: Page, state: string, surface: Surface): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await view.screenshot({
    path: path.join(SCREENSHOTS, `live-view-${state}-${surface}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

/** Opens the popup and the panel for the tab, runs `check` on each and saves screenshots. */
async function eachSurface(
  live: LiveViewExtension,
  state: string,
  check: (view: Page, surface: Surface) => Promise<void>,
): Promise<void> {
  for (const surface of ['popup', 'panel'] as const) {
    const view = await open(live, surface);
    await check(view, surface);
    await shoot(view, state, surface);
    await view.close();
  }
}

const steps = (view: Page) => view.locator('#steps > li');

// ---- tests -------------------------------------------------------------------------------

test('running: plain-language steps, a read, verdicts on their own step, the plan and the numbers', async ({
  live,
}) => {
  await seed(live, states(Date.now()).running);
  await eachSurface(live, 'running', async (view, surface) => {
    await expect(view.locator('#status')).toHaveText('Working…');
    await expect(view.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect(steps(view)).toHaveCount(5);
    await expect(steps(view).nth(0)).toHaveClass(/step-read/);
    await expect(steps(view).nth(0)).toContainText('Read the page outline');
    await expect(steps(view).nth(1).locator('.lv-verdict')).toHaveText(
      /✓.*The patient list is shown\./,
    );
    await expect(steps(view).nth(2).locator('.lv-verdict.bad')).toContainText(
      'The form did not open',
    );
    await expect(steps(view).nth(4).locator('.lv-verdict')).toHaveCount(0);
    // The grammar and the thought are one click away.
    await expect(view.getByText('click("31")').first()).toBeHidden();
    await steps(view).nth(2).getByText('Clicked “New patient”').click();
    await expect(steps(view).nth(2).locator('.lv-raw')).toHaveText('click("31")');
    await expect(steps(view).nth(2).locator('.lv-thought')).toHaveText(
      'New patient opens the form.',
    );
    const plan = view.locator('#plan > li');
    await expect(plan).toHaveCount(4);
    await expect(plan.nth(0)).toHaveClass(/mark-done/);
    await expect(plan.nth(2)).toHaveAttribute('aria-current', 'step');
    await expect(plan.nth(2)).toContainText('Fill in the name and date of birth');
    await expect(plan.nth(3)).toHaveClass(/mark-todo/);
    const meta = view.locator('#meta');
    await expect(meta).toContainText('5 steps · 6 requests · 12,345 tokens · $0.0042');
    // Elapsed time ticks while the task runs.
    const before = await meta.textContent();
    await expect(meta).not.toHaveText(before ?? '', { timeout: 3_000 });
    if (surface === 'panel') {
      await expect(view.locator('#goal-text')).toHaveText(GOAL);
      await expect(view.locator('#tab-title')).toHaveText(PAGE_TITLE);
    } else {
      await expect(view.locator('#goal-text')).toBeHidden();
      await expect(view.locator('#goal')).toHaveValue(GOAL);
    }
  });
});

test('Stop: "Stopping…" from the click until the run says stopped', async ({ live }) => {
  const now = Date.now();
  await seed(live, states(now).running);
  const view = await open(live, 'panel');
  await view.getByRole('button', { name: 'Stop' }).click();
  await expect(view.locator('#status')).toHaveText('Stopping…');
  await expect(view.getByRole('button', { name: 'Stop' })).toBeDisabled();
  expect(await sent(view)).toEqual([{ type: 'task:stop', tabId: live.tabId }]);
  await shoot(view, 'stopping', 'panel');
  // Steps written meanwhile do not undo "Stopping…"; the stopped run ends it.
  await seed(live, { ...states(now).running, requests: 7 });
  await expect(view.locator('#meta')).toContainText('7 requests');
  await expect(view.locator('#status')).toHaveText('Stopping…');
  await seed(live, states(now).stopped);
  await expect(view.locator('#status')).toHaveText('Stopped.');
  await expect(view.getByRole('button', { name: 'Stop' })).toBeHidden();
  await view.close();
});

test('Stop refused by the worker: the reason is shown and Stop can be pressed again', async ({
  live,
}) => {
  await seed(live, states(Date.now()).running);
  const view = await open(live, 'popup');
  await view.evaluate(() => {
    (globalThis as unknown as { stub: Stub }).stub.reply = { ok: false, error: 'No run here.' };
  });
  await view.getByRole('button', { name: 'Stop' }).click();
  await expect(view.locator('#notice')).toHaveText('No run here.');
  await expect(view.locator('#status')).toHaveText('Working…');
  await expect(view.getByRole('button', { name: 'Stop' })).toBeEnabled();
  await view.close();
});

test('waiting on a rate limit: a live countdown', async ({ live }) => {
  await seed(live, states(Date.now()).waiting);
  await eachSurface(live, 'waiting', async (view) => {
    const status = view.locator('#status');
    await expect(status).toHaveText(/^Waiting \d+s \(rate limit\)$/);
    const first = Number(/\d+/.exec((await status.textContent()) ?? '')?.[0]);
    expect(first).toBeGreaterThan(25);
    expect(first).toBeLessThanOrEqual(37);
    await expect(status).toHaveText(`Waiting ${first - 1}s (rate limit)`, { timeout: 3_000 });
    await expect(view.getByRole('button', { name: 'Stop' })).toBeVisible();
  });
  const unavailable = {
    ...states(Date.now()).waiting,
    wait: { reason: 'server_unavailable', until: Date.now() + 9_000, attempt: 2 },
  };
  await seed(live, unavailable);
  const view = await open(live, 'popup');
  await expect(view.locator('#status')).toHaveText(
    /^Server unreachable, retrying in \ds \(attempt 2\)$/,
  );
  await view.close();
});

test('question: the question with an answer field; Enter sends task:answer', async ({ live }) => {
  await seed(live, states(Date.now()).question);
  await eachSurface(live, 'question', async (view) => {
    await expect(view.locator('#status')).toHaveText('Waiting for your answer');
    await expect(view.locator('#question-text')).toContainText('Which number should I enter');
    const field = view.getByRole('textbox', { name: 'Your answer' });
    await expect(field).toBeFocused();
    await field.fill('+44 20 7946 0958');
    await expect(view.getByRole('button', { name: 'Send' })).toBeEnabled();
  });
  const view = await open(live, 'panel');
  await view.getByRole('textbox', { name: 'Your answer' }).fill('+44 20 7946 0958');
  await view.getByRole('textbox', { name: 'Your answer' }).press('Enter');
  await expect
    .poll(() => sent(view))
    .toEqual([{ type: 'task:answer', tabId: live.tabId, answer: '+44 20 7946 0958' }]);
  await view.close();
});

test('stopped: the steps so far, no Stop button, no answer', async ({ live }) => {
  await seed(live, states(Date.now()).stopped);
  await eachSurface(live, 'stopped', async (view) => {
    await expect(view.locator('#status')).toHaveText('Stopped.');
    await expect(view.getByRole('button', { name: 'Stop' })).toBeHidden();
    await expect(view.locator('#answer')).toBeHidden();
    await expect(steps(view)).toHaveCount(3);
    // No step is "current" once the run cannot act.
    await expect(view.locator('#plan [aria-current]')).toHaveCount(0);
  });
});

test('done: the final answer once, prominently; the plan all ticked', async ({ live }) => {
  await seed(live, states(Date.now()).done);
  await eachSurface(live, 'done', async (view) => {
    await expect(view.locator('#status')).toHaveText('Done.');
    await expect(view.locator('#answer')).toBeVisible();
    await expect(view.locator('#answer')).toContainText(RESULT);
    await expect(view.getByText(RESULT, { exact: true })).toHaveCount(1);
    await expect(steps(view).last().locator('.lv-step-text')).toHaveText('Finished');
    await expect(view.locator('#plan > li.mark-done')).toHaveCount(4);
    await expect(view.locator('#meta')).toContainText(
      '1m 21s · 7 steps · 9 requests · 20,800 tokens · $0.0073',
    );
    await expect(view.getByRole('button', { name: 'Stop' })).toBeHidden();
  });
});

test('sub-tasks: a hierarchical plan is headed by its parts, outside the step count', async ({
  live,
}) => {
  const base = running(Date.now());
  const parts = ['Add the patient', 'Add the patient', 'Book the visit', 'Book the visit'];
  const steps = plan(2, 2).steps.map((step, index) => ({
    ...step,
    subTask: { index: index < 2 ? 0 : 1, name: parts[index] },
  }));
  await seed(live, { ...base, plan: { ...plan(2, 2), steps } });
  await eachSurface(live, 'subtasks', async (view) => {
    const plan = view.locator('#plan > li');
    await expect(plan).toHaveCount(6);
    await expect(plan.nth(0)).toHaveText('Part 1 of 2 · Add the patient');
    await expect(plan.nth(3)).toHaveText('Part 2 of 2 · Book the visit');
    // The steps keep their own numbering and marks.
    await expect(view.locator('#plan > li.lv-plan-item')).toHaveCount(4);
    await expect(plan.nth(4)).toHaveAttribute('aria-current', 'step');
    await expect(plan.nth(5)).toContainText('4Save the patient');
  });
});

test('collecting: a running count with skipped duplicates, not a line each', async ({ live }) => {
  await seed(live, states(Date.now()).collecting);
  await eachSurface(live, 'collecting', async (view) => {
    await expect(view.locator('#collected-count')).toHaveText(
      'Collected 12 items · 3 duplicates skipped',
    );
    await expect(view.getByRole('button', { name: 'Download CSV' })).toBeVisible();
    await expect(steps(view)).toHaveCount(4);
    await expect(view.getByText(/Duplicate job skipped/)).toBeHidden();
  });
  await seed(live, { ...states(Date.now()).collecting, collected: { job: 12, company: 3 } });
  const view = await open(live, 'popup');
  await expect(view.locator('#collected-count')).toHaveText(
    'Collected 15 items (job: 12, company: 3) · 3 duplicates skipped',
  );
  await view.close();
});

test('failed and error: what went wrong, in words', async ({ live }) => {
  const now = Date.now();
  await seed(live, states(now).failed);
  await eachSurface(live, 'failed', async (view) => {
    await expect(view.locator('#status')).toHaveText('The task failed.');
    await expect(view.locator('#answer')).toContainText('never opened');
  });
  await seed(live, states(now).error);
  await eachSurface(live, 'error', async (view) => {
    await expect(view.locator('#status')).toHaveText('Something went wrong.');
    await expect(view.locator('#answer')).toContainText('The server answered 500');
    await expect(view.getByRole('button', { name: 'Stop' })).toBeHidden();
  });
});

test('the side panel follows the active tab', async ({ live }) => {
  await seed(live, states(Date.now()).done);
  const panel = await live.newPage();
  await panel.goto(`chrome-extension://${live.id}/src/sidepanel/index.html`);
  // Opened as a tab, the panel's active tab is first its own page, which has no run.
  await expect(panel.locator('#status')).toHaveText(/No task in this tab/);
  await live.page.bringToFront();
  await expect(panel.locator('#status')).toHaveText('Done.');
  await expect(panel.locator('#tab-title')).toHaveText(PAGE_TITLE);
  await panel.close();
});

test('the popup’s "Open side panel" opens the real side panel', async ({ live }) => {
  const panels = () =>
    live.worker.evaluate(
      async () =>
        (
          await chrome.runtime.getContexts({
            contextTypes: ['SIDE_PANEL' as chrome.runtime.ContextType],
          })
        )
          // A panel still loading has no document URL yet.
          .flatMap((c) => (c.documentUrl ? [new URL(c.documentUrl).pathname] : []))
          .filter((p) => p === '/src/sidepanel/index.html').length,
    );
  // Other tests in this browser may have left a panel open: count the new one.
  const before = await panels();
  const view = await open(live, 'popup');
  await view.getByRole('button', { name: 'Open side panel' }).click();
  await expect.poll(panels).toBeGreaterThan(before);
  await expect(view.locator('#popup-error')).toBeHidden();
  await view.close();
});
