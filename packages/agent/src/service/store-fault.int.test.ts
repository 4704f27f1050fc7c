// A store write failing in the middle of a step. The store is the real libSQL file; the fault is
// real too: another connection takes the database's write lock while the step waits on the
// model, so every write the step makes after that fails with SQLITE_BUSY once the busy timeout
// runs out, as when another process holds the lock. The request fails; once the lock is gone the
// client's resend (same idempotency key) is answered and the task continues, with every step
// recorded once and nothing half-written left behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'libsql';
import type { SemanticNodeV3 } from '@tandem/contracts';
import { createLibsqlStore } from '@tandem/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedStep } from '@tandem/llm/testing';
import { createTestAgent, pageContextStep, pageRequest, type TestAgent } from '../testing/harness';

const page = (n: number): SemanticNodeV3[] => [
  { i: `next-${n}`, r: 'btn', n: 'Next' },
  { i: `item-${n}`, r: 'link', n: `Item ${n}` },
];

/** The client's next request of the task: the Next click worked and page `n` loaded. */
const nextPage = (task: { taskId: string; sessionId: string }, n: number) => ({
  ...pageRequest(`https://list.example/${n}`, page(n), {
    taskId: task.taskId,
    sessionId: task.sessionId,
    lastActionStatus: 'success' as const,
    clientObservations: { didUrlChange: true },
  }),
  idempotencyKey: crypto.randomUUID(),
});

let dir = '';
let agent: TestAgent | undefined;
let locker: InstanceType<typeof Database> | undefined;
afterEach(async () => {
  locker?.close();
  await agent?.store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An action answer that clicks the page's Next and states no outcome (so one is predicted). */
const clickNext: ScriptedStep = {
  node: 'action_generation',
  output: (request) => ({
    thought: 'On to the next page.',
    action: `click("${/(next-\d+) btn/.exec(request.prompt)?.[1] ?? 'next-1'}")`,
    chain: null,
    confidence: 0.95,
  }),
};

/**
 * The scripted model of a task that pages through a list with `pages` clicks on Next: the page's
 * context, a plan of `pages` steps the model acts on, then `prediction` for each step (asked
 * mid-step, after the previous one was verified and the task advanced).
 */
function pagingSteps(pages: number, prediction: ScriptedStep) {
  return [
    pageContextStep(),
    {
      node: 'planning' as const,
      output: {
        goal: 'page through',
        steps: Array.from({ length: pages }, () => ({
          description: 'Go to the next page',
          refinable: false,
        })),
      },
    },
    ...Array.from({ length: pages }, () => [clickNext, prediction]).flat(),
  ];
}

/** A libSQL file database in a fresh folder, and a second connection to it (another process). */
async function openFaultStore() {
  dir = mkdtempSync(path.join(tmpdir(), 'tandem-store-fault-'));
  const file = path.join(dir, 'tandem.db');
  const store = await createLibsqlStore({ url: `file:${file}` });
  locker = new Database(file);
  return { store, locker };
}

describe('a store write failing mid-step', () => {
  it('fails the request, and the resent request continues the same task with nothing doubled', async () => {
    const { store, locker: other } = await openFaultStore();
    let lockOnNextPrediction = false;
    const lockHeld = { value: false };
    const prediction = {
      node: 'outcome_prediction' as const,
      output: () => {
        if (lockOnNextPrediction && !lockHeld.value) {
          lockOnNextPrediction = false;
          lockHeld.value = true;
          // Mid-step: the graph has already verified and advanced the task (and checkpointed
          // that) when the model is asked for the prediction; the lock is taken right now.
          other.exec('BEGIN IMMEDIATE');
        }
        return { description: 'The next page', urlShouldChange: true, nextGoal: null };
      },
    };
    agent = await createTestAgent({ store, steps: pagingSteps(4, prediction) });

    const r1 = await agent.act(
      pageRequest('https://list.example/1', page(1), { query: 'page through the list' }),
    );
    expect(r1.action).toBe('click("next-1")');

    // Step 2 fails mid-step: its writes meet the lock.
    lockOnNextPrediction = true;
    const step2 = nextPage(r1, 2);
    const failure = await agent.act(step2).then(
      () => null,
      (error: unknown) => error,
    );
    expect(lockHeld.value).toBe(true);
    expect(String(failure)).toMatch(/SQLITE_BUSY|database is locked/i);

    // The lock is released; the client resends the step under the same key. The failed request
    // could not release its claims either (the store was locked), so they answer "still in
    // progress" / TASK_BUSY until their 30 s lease runs out: the extension waits those out.
    other.exec('ROLLBACK');
    const resentAt = Date.now();
    let busyAnswers = 0;
    const r2 = await (async function resend(): Promise<Awaited<ReturnType<TestAgent['act']>>> {
      try {
        return await (agent as TestAgent).act(step2);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if ((code !== 'CONFLICT' && code !== 'TASK_BUSY') || Date.now() - resentAt > 45_000)
          throw error;
        busyAnswers += 1;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return resend();
      }
    })();
    console.log(
      `[faults] store locked mid-step: the request failed, the resend was answered ${((Date.now() - resentAt) / 1000).toFixed(1)} s after the lock went (${busyAnswers} busy answers)`,
    );
    expect(r2.action).toBe('click("next-2")');
    expect(r2.taskId).toBe(r1.taskId);
    // And the task goes on from there.
    const r3 = await agent.act(nextPage(r1, 3));
    expect(r3.action).toBe('click("next-3")');

    const actions = await agent.store.taskActions.listByTask(agent.caller.tenantId, r1.taskId);
    expect(actions.map((a) => a.action)).toEqual([
      'click("next-1")',
      'click("next-2")',
      'click("next-3")',
    ]);
    const task = await agent.store.tasks.get(agent.caller.tenantId, r1.taskId);
    expect(task?.currentStepIndex).toBe(2);
    expect(task?.plan?.steps.map((s) => s.status)).toEqual([
      'completed',
      'completed',
      'active',
      'pending',
    ]);
    const { items } = await agent.store.tasks.list(agent.caller.tenantId, {});
    expect(items).toHaveLength(1);
  }, 150_000);

  it('writes a step whole or not at all: a failing last write leaves the task as it was', async () => {
    const { store, locker: other } = await openFaultStore();
    const prediction = {
      node: 'outcome_prediction' as const,
      output: { description: 'The next page', urlShouldChange: true, nextGoal: null },
    };
    agent = await createTestAgent({ store, steps: pagingSteps(3, prediction) });
    const tenantId = agent.caller.tenantId;
    const r1 = await agent.act(
      pageRequest('https://list.example/1', page(1), { query: 'page through the list' }),
    );
    const before = await store.tasks.get(tenantId, r1.taskId);
    const actionsBefore = await store.taskActions.listByTask(tenantId, r1.taskId);

    // The step's last write, its assistant message, fails in the database itself (as a full
    // disk or a constraint would), after the task, the verdict and the action were written.
    other.exec(`CREATE TRIGGER fail_step_message BEFORE INSERT ON messages
      WHEN NEW.role = 'assistant' BEGIN SELECT RAISE(ABORT, 'injected write failure'); END`);
    const step2 = nextPage(r1, 2);
    const failure = await agent.act(step2).then(
      () => null,
      (error: unknown) => error,
    );
    expect(String(failure)).toMatch(/injected write failure/);
    // Nothing of the step is stored: the task is at the same version, with no verdict on the
    // previous action and no new action.
    expect(await store.tasks.get(tenantId, r1.taskId)).toEqual(before);
    expect(await store.taskActions.listByTask(tenantId, r1.taskId)).toEqual(actionsBefore);

    // The fault is gone; the client's resend is answered and records the step once.
    other.exec('DROP TRIGGER fail_step_message');
    const r2 = await agent.act(step2);
    expect(r2.action).toBe('click("next-2")');
    const actions = await store.taskActions.listByTask(tenantId, r1.taskId);
    expect(actions.map((a) => a.action)).toEqual(['click("next-1")', 'click("next-2")']);
    expect(actions[0]?.verification).not.toBeNull();
    const after = await store.tasks.get(tenantId, r1.taskId);
    expect(after?.version).toBe((before?.version ?? 0) + 1);
    const assistant = (await store.messages.list(tenantId, r1.sessionId)).filter(
      (message) => message.role === 'assistant',
    );
    expect(assistant).toHaveLength(2);
  }, 60_000);
});
