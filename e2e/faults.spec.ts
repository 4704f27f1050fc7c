// Faults with the real extension and server: the service worker killed in the middle
// of a chain, between two of its actions. The run must resume the same task from
// chrome.storage, execute none of the chain's actions again (each field is typed into once) and
// submit the form once. The server restarted mid-task is in server-trouble.spec.ts.
import { demoSubmissions, type RunWrite } from './support/flow';
import {
  expect,
  finished,
  openDemo,
  runState,
  startGoal,
  test,
  waitForRun,
} from './support/fixtures';

const GOAL =
  'Fill in the request form for Ann Lee (ann@example.com), follow-up visit, contact by phone, notes "Please call after 5pm", and submit it';

test('the service worker killed mid-chain: the same task resumes, nothing is typed twice, one submission', async ({
  ext,
}) => {
  test.setTimeout(150_000);
  const { page, tabId } = await openDemo(ext, '/form/');
  // The page counts the input events of each field, and holds the Email field's input for 3 s
  // (a slow page script): the chain's second action is under way, and the first done, when the
  // worker is stopped.
  let chainStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (chainStarted = resolve));
  await page.exposeFunction('e2eChainStarted', () => chainStarted());
  await page.evaluate(() => {
    const counts: Record<string, number> = {};
    (globalThis as unknown as { e2eInputs: typeof counts }).e2eInputs = counts;
    document.addEventListener(
      'input',
      (event) => {
        const target = event.target as HTMLInputElement;
        const name = target.name || target.id;
        counts[name] = (counts[name] ?? 0) + 1;
        if (name === 'email' && counts[name] === 1) {
          (globalThis as unknown as { e2eChainStarted: () => void }).e2eChainStarted();
          const until = Date.now() + 3_000;
          while (Date.now() < until) {
            // A page script hogging the main thread.
          }
        }
      },
      true,
    );
  });

  await startGoal(ext, tabId, GOAL);
  await started;
  const before = (await runState(ext, tabId)) as RunWrite | null;
  expect(before?.inFlight?.length, JSON.stringify(before)).toBe(5);
  const cdp = await ext.context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  const stoppedAt = Date.now();
  // Chrome starts the worker again on the next event it listens to: its 30 s alarm, or, sooner,
  // a page loading in any tab (a user opening one).
  const other = await ext.context.newPage();
  await other.goto(`${ext.env.demo}/`);

  const run = await waitForRun(ext, tabId, finished, 120_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  expect(run.taskId).toBe(before?.taskId);
  await expect(page.getByRole('heading', { name: 'Request submitted' })).toBeVisible();
  const submissions = await demoSubmissions(ext);
  expect(submissions).toHaveLength(1);
  expect(JSON.stringify(submissions[0])).toMatch(
    /Ann Lee[\s\S]*ann@example.com[\s\S]*Please call after 5pm/,
  );
  // Nothing executed twice: each field got its value once.
  const inputs = await page.evaluate(
    () => (globalThis as unknown as { e2eInputs: Record<string, number> }).e2eInputs,
  );
  expect(inputs.fullName).toBe(1);
  expect(inputs.email).toBe(1);
  expect(inputs.notes).toBe(1);
  console.log(
    `[figures] worker stopped mid-chain: the run completed ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s later in ${run.requests ?? '?'} requests; inputs per field ${JSON.stringify(inputs)}`,
  );
});
