// The graph runner over the real graph, the real libSQL checkpointer and a scripted model:
// a run pauses before dispatch, a resume continues it, and a resume that threw leaves a fork
// marker so the next one replays from the last pause.
import { silentLogger } from '@tandem/observability';
import type { SemanticNodeV3 } from '@tandem/contracts';
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../deps';
import { buildInteractGraph } from '../graph';
import { ProviderError } from '@tandem/llm';
import { createScriptedLlm, type ScriptedStep } from '@tandem/llm/testing';
import { createDisabledWebSearch } from '../web-search/disabled-web-search';
import { pageContextStep, planStep } from '../testing/harness';
import { pageOf } from '../testing/state';
import { createGraphRunner, type GraphRunner } from './graph-runner';
import { idempotencyTaskLocks, type TaskLocks } from './task-locks';

const TASK = '33333333-3333-4333-8333-333333333333';
const noRag = { text: '', chunkIds: [], hasOrgKnowledge: false };

let store: Store;
let tenantId: string;
let locks: TaskLocks;

function runnerWith(steps: ScriptedStep[]): GraphRunner {
  return runnerAndModel(steps).runner;
}

function runnerAndModel(steps: ScriptedStep[]) {
  const llm = createScriptedLlm(steps, { zeroLatency: true, maxRetries: 0 });
  const deps = {
    llm,
    webSearch: createDisabledWebSearch(),
    log: silentLogger,
    limits: DEFAULT_LIMITS,
  };
  const runner = createGraphRunner(
    buildInteractGraph(deps, store.checkpointer),
    locks,
    silentLogger,
  );
  return { runner, llm };
}

const startInput = (
  query: string,
  tree: SemanticNodeV3[] = [{ i: 'a', r: 'btn', n: 'Patients', s: 'collapsed' }],
) => ({
  taskId: TASK,
  tenantId,
  userId: 'user-1',
  sessionId: 'session-1',
  query,
  page: pageOf(tree, { url: 'https://emr.example/' }),
  requestCount: 1,
});

const start = (
  runner: GraphRunner,
  query: string,
  tree: SemanticNodeV3[] = [{ i: 'a', r: 'btn', n: 'Patients' }],
) => runner.start(TASK, startInput(query, tree), null);

const outage = () =>
  new ProviderError('upstream 500', { kind: 'http', status: 500, retryable: true });

beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  tenantId = (await store.tenants.create({ name: 'runner' })).id;
  locks = idempotencyTaskLocks(store.idempotency);
});
afterEach(async () => store.close());

describe('GraphRunner', () => {
  it('pauses a new task before dispatch with its action, and a resume verifies it', async () => {
    const runner = runnerWith([]);
    const first = await start(runner, 'click Patients');
    expect(first.outcome).toEqual({ kind: 'action' });
    expect(first.pending?.action).toEqual({ name: 'click', args: { id: 'a' } });
    const next = await runner.resume(
      tenantId,
      TASK,
      {
        page: pageOf([{ i: 'a', r: 'btn', n: 'Patients', s: 'expanded' }], {
          url: 'https://emr.example/',
          lastActionStatus: 'success',
        }),
        ragContext: noRag,
      },
      null,
    );
    expect(next).toMatchObject({ status: 'completed', requestCount: 2 });
    expect(next.lastVerification?.success).toBe(true);
    expect(await locks.fork(tenantId, TASK)).toBeNull();
  });

  it('marks a resume that threw, and the next resume replays from the last pause', async () => {
    const outage = new ProviderError('upstream 500', {
      kind: 'http',
      status: 500,
      retryable: true,
    });
    const runner = runnerWith([
      pageContextStep(),
      planStep('g', ["Click 'Patients'", { description: 'Do the rest', refinable: false }]),
      { node: 'action_generation', error: outage },
      {
        node: 'action_generation',
        output: { thought: 'done', action: 'finish("all done")', chain: null, confidence: 0.9 },
      },
    ]);
    // A collapsed menu button: its outcome is a template, so no outcome_prediction call.
    const first = await start(runner, 'open the patients menu and more', [
      { i: 'a', r: 'btn', n: 'Patients', s: 'collapsed' },
    ]);
    expect(first.pending?.action).toEqual({ name: 'click', args: { id: 'a' } });
    const resume = {
      page: pageOf([{ i: 'a', r: 'btn', n: 'Patients', s: 'expanded' }], {
        url: 'https://emr.example/',
        lastActionStatus: 'success',
      }),
      ragContext: noRag,
    };
    await expect(runner.resume(tenantId, TASK, resume, null)).rejects.toMatchObject({
      name: 'LlmCallError',
    });
    expect(await locks.fork(tenantId, TASK)).not.toBeNull();

    const retried = await runner.resume(tenantId, TASK, resume, null);
    // The page was verified once, as if the failed request never happened.
    expect(retried).toMatchObject({ status: 'completed', result: 'all done', requestCount: 2 });
    expect(await locks.fork(tenantId, TASK)).toBeNull();
  });

  it('a first run that threw goes on from the node that threw when its request is sent again', async () => {
    const { runner, llm } = runnerAndModel([
      pageContextStep(),
      planStep('g', [
        { description: 'Find the menu the goal needs', refinable: false },
        { description: 'Do the rest', refinable: false },
      ]),
      { node: 'action_generation', error: outage() },
      {
        node: 'action_generation',
        output: { thought: 'Open it.', action: 'click("a")', chain: null, confidence: 0.9 },
      },
    ]);
    const request = 'request-hash-1';
    await expect(
      runner.start(TASK, startInput('open the patients menu and more'), request),
    ).rejects.toMatchObject({ name: 'LlmCallError' });
    expect(await locks.fork(tenantId, TASK)).toEqual({ requestHash: request });
    // Only the request that threw goes on from there; another one starts anew.
    expect(await runner.failedOn(tenantId, TASK, 'request-hash-2')).toBe(false);
    expect(await runner.failedOn(tenantId, TASK, null)).toBe(false);
    expect(await runner.failedOn(tenantId, TASK, request)).toBe(true);

    const again = await runner.startAgain(tenantId, TASK, request);
    expect(again.pending?.action).toEqual({ name: 'click', args: { id: 'a' } });
    // The analysis and the plan the first run got were kept: the model was asked again only
    // for the action (a second analysis would have found no scripted answer and thrown).
    expect(llm.attempts.map((a) => a.node)).toEqual([
      'context_analysis',
      'planning',
      'action_generation',
      'action_generation',
    ]);
    expect(again.plan?.steps).toHaveLength(2);
    expect(await locks.fork(tenantId, TASK)).toBeNull();
  });

  it('a marked task with no step waiting is a CONFLICT', async () => {
    const runner = runnerWith([]);
    await start(runner, 'click Patients');
    await runner.resume(
      tenantId,
      TASK,
      {
        page: pageOf([{ i: 'a', r: 'btn', n: 'Patients', s: 'expanded' }], {
          lastActionStatus: 'success',
        }),
        ragContext: noRag,
      },
      null,
    );
    await locks.markFork(tenantId, TASK);
    await expect(
      runner.resume(tenantId, TASK, { page: pageOf([]), ragContext: noRag }, null),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This task has no step waiting for a result.',
    });
  });
});
