// When the server says "not now" or is not there: a tight rate limit (429 with
// Retry-After), the server killed for 20 s in the middle of a task, and a key it refuses.
// The first two start their OWN server (support/tandem-server.ts) with what they need, point
// the extension's settings at it and put the suite's server back afterwards.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  demoPatients,
  isJasPatel,
  openPanel,
  recordRuns,
  runWrites,
  serverTask,
  shoot,
  useServer,
  waitForWrite,
  type ServerCoordinates,
} from './support/flow';
import {
  expect,
  finished,
  openDemo,
  startGoal,
  test,
  waitForRun,
  type Extension,
} from './support/fixtures';
import { fakeGemini } from './support/fake-gemini-control';
import { startTandemServer, type TandemServer } from './support/tandem-server';

const GOAL = 'Add a new patient named Jas Patel';

/** Runs `body` with the extension pointed at a server of its own, started with `env`. */
async function withOwnServer(
  ext: Extension,
  env: Record<string, string>,
  body: (server: TandemServer) => Promise<void>,
): Promise<void> {
  const server = await startTandemServer({ gemini: ext.env.gemini, env });
  try {
    await useServer(ext, server);
    await body(server);
  } finally {
    await useServer(ext, { url: ext.env.server, apiKey: ext.env.apiKey });
    await server.close();
  }
}

/** The task ended well on both sides, with the same steps, each executed once. */
async function expectCompletedOnce(ext: Extension, server: ServerCoordinates, tabId: number) {
  const run = await waitForRun(ext, tabId, finished, 120_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  const task = await serverTask(server, run.taskId ?? '');
  expect(task.task.status).toBe('completed');
  // The server's last step is the finish, which the run shows as its answer, not as a step.
  expect(task.steps.at(-1)?.action).toMatch(/^finish\(/);
  expect(task.steps.slice(0, -1).map((s) => s.action)).toEqual(run.steps.map((s) => s.action));
  expect(new Set(task.steps.map((s) => s.id)).size).toBe(task.steps.length);
  expect((await demoPatients(ext)).filter(isJasPatel)).toHaveLength(1);
  return run;
}

test('a tight rate limit: the run waits out the 429, then the same task completes', async ({
  ext,
}) => {
  // The add-patient task sends 7 requests; with 4 a minute the 5th is refused once.
  test.setTimeout(150_000);
  await withOwnServer(ext, { RATE_LIMIT_INTERACT_PER_MIN: '4' }, async (server) => {
    const { tabId } = await openDemo(ext, '/emr/');
    await recordRuns(ext);
    const popup = await startGoal(ext, tabId, GOAL);
    const waiting = await waitForWrite(ext, tabId, (run) => run.wait?.reason === 'rate_limit');
    await expect(popup.locator('#status')).toHaveText(/^Waiting \d+s \(rate limit\)$/);
    await shoot(popup, 'waiting', 'popup');
    const panel = await openPanel(ext, tabId);
    await expect(panel.locator('#status')).toHaveText(/^Waiting \d+s \(rate limit\)$/);
    await shoot(panel, 'waiting', 'panel');
    await panel.close();

    const run = await expectCompletedOnce(ext, server, tabId);
    expect(run.taskId).toBe(waiting.taskId);
    // Every wait the 429s caused: announced (Retry-After) and as long as the run paused.
    const writes = await runWrites(ext, tabId);
    const waits = writes.flatMap((w, i) => {
      if (w.wait?.reason !== 'rate_limit' || writes[i - 1]?.wait) return [];
      const resumed = writes.slice(i).find((later) => !later.wait);
      return [
        {
          announcedMs: w.wait.until - w.updatedAt,
          pausedMs: (resumed?.updatedAt ?? 0) - w.updatedAt,
        },
      ];
    });
    expect(waits.length).toBeGreaterThanOrEqual(1);
    const longest = waits.reduce((a, b) => (b.pausedMs > a.pausedMs ? b : a));
    expect(longest.pausedMs).toBeGreaterThanOrEqual(longest.announcedMs - 50);
    expect(server.output()).toMatch(/429|rate limit/i);
    console.log(
      `[figures] rate limit 4/min: ${waits.length} wait(s); longest wait a 429 caused: ` +
        `${(longest.pausedMs / 1000).toFixed(1)} s (Retry-After announced ` +
        `${(longest.announcedMs / 1000).toFixed(1)} s); ${run.requests ?? '?'} requests, ` +
        `${(((run.updatedAt ?? 0) - (run.startedAt ?? 0)) / 1000).toFixed(1)} s in all`,
    );
  });
});

test('the server down for 20 s mid-task: the run retries, the same task completes, nothing runs twice', async ({
  ext,
}) => {
  test.setTimeout(150_000);
  await withOwnServer(ext, {}, async (server) => {
    const { tabId } = await openDemo(ext, '/emr/');
    await recordRuns(ext);
    const popup = await startGoal(ext, tabId, GOAL);
    // Between requests: an action is being executed in the tab when the server dies.
    const acting = await waitForWrite(ext, tabId, (run) => (run.inFlight?.length ?? 0) > 0);
    await server.stop('SIGKILL');
    const downAt = Date.now();

    const unavailable = await waitForWrite(
      ext,
      tabId,
      (run) => run.wait?.reason === 'server_unavailable',
    );
    await expect(popup.locator('#status')).toHaveText(/^Server unreachable, retrying in \d+s/);
    await shoot(popup, 'unavailable', 'popup');
    await sleep(Math.max(0, downAt + 20_000 - Date.now()));
    await server.start();
    const upAt = Date.now();

    const run = await expectCompletedOnce(ext, server, tabId);
    expect(run.taskId).toBe(acting.taskId);
    expect(unavailable.taskId).toBe(acting.taskId);
    const attempts = Math.max(
      ...(await runWrites(ext, tabId)).map((w) =>
        w.wait?.reason === 'server_unavailable' ? w.wait.attempt : 0,
      ),
    );
    console.log(
      `[figures] server down ${((upAt - downAt) / 1000).toFixed(1)} s (until healthy again): ` +
        `${attempts} retry wait(s); the task completed ` +
        `${(((run.updatedAt ?? 0) - upAt) / 1000).toFixed(1)} s later with ${run.requests ?? '?'} requests`,
    );
  });
});

test('the server killed while it answers a request: after a restart the same task completes', async ({
  ext,
}) => {
  test.setTimeout(150_000);
  const fake = fakeGemini(ext.env.gemini);
  try {
    await withOwnServer(ext, {}, async (server) => {
      const { tabId } = await openDemo(ext, '/emr/');
      await recordRuns(ext);
      // The server is in the middle of a request (waiting on the model) when it dies: the
      // request's task lock and idempotency key stay behind in the store, as leases.
      const held = await fake.hold('action_generation', GOAL);
      await startGoal(ext, tabId, GOAL);
      await held.reached();
      await server.stop('SIGKILL');
      const downAt = Date.now();
      await held.release();
      await sleep(20_000);
      await server.start();
      const upAt = Date.now();

      const run = await expectCompletedOnce(ext, server, tabId);
      // The retries kept their idempotency key; it was answered once its lease ran out.
      const busy = (await runWrites(ext, tabId)).filter((w) => w.wait?.reason === 'busy');
      console.log(
        `[figures] server killed mid-request, down ${((upAt - downAt) / 1000).toFixed(1)} s: ` +
          `${busy.length} busy wait(s) until the dead request's lease ran out; the task ` +
          `completed ${(((run.updatedAt ?? 0) - upAt) / 1000).toFixed(1)} s after the restart`,
      );
      expect((run.updatedAt ?? 0) - upAt).toBeLessThan(60_000);
    });
  } finally {
    await fake.releaseAll();
  }
});

test('a key the server refuses: the run ends at once with an error that says so', async ({
  ext,
}) => {
  const { tabId } = await openDemo(ext, '/emr/');
  try {
    await useServer(ext, { url: ext.env.server, apiKey: 'tdm_revoked_key_for_the_error_state' });
    const popup = await startGoal(ext, tabId, GOAL);
    const run = await waitForRun(ext, tabId, finished);
    expect(run.status).toBe('error');
    expect(run.error).toMatch(/key/i);
    await expect(popup.locator('#status')).toHaveText('Something went wrong.');
    await expect(popup.locator('#result-text')).toHaveText(run.error ?? '');
    await shoot(popup, 'error', 'popup');
    const panel = await openPanel(ext, tabId);
    await expect(panel.locator('#status')).toHaveText('Something went wrong.');
    await shoot(panel, 'error', 'panel');
  } finally {
    await useServer(ext, { url: ext.env.server, apiKey: ext.env.apiKey });
  }
  expect(await demoPatients(ext).then((p) => p.filter(isJasPatel))).toEqual([]);
});
