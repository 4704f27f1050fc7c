import { NextActionResponse } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type { ExecuteReply } from '../shared/messages';
import { memoryStore } from '../shared/memory-store';
import { loadRun, writeRun } from '../shared/run-state';
import type { KeyValueStore } from '../shared/settings';
import {
  executeActions,
  executedReport,
  plannedActions,
  type ExecuteFailure,
  type PlannedAction,
} from './action-execution';
import { RunControl, RunStopped } from './run-control';
import type { TabDriver } from './tab-driver';

const TASK = '11111111-1111-4111-8111-111111111111';
const SESSION = '22222222-2222-4222-8222-222222222222';
const TAB = 6;
const chain = ['setValue("1", "a")', 'setValue("2", "b")', 'setValue("3", "c")'];
const planned = (canFail: boolean[] = [false, false, false]): PlannedAction[] =>
  chain.map((action, index) => ({ action, canFail: canFail[index] === true, index }));
const disabled = (action: string): ExecuteFailure => ({
  ok: false,
  action,
  error: 'element is disabled',
  code: 'disabled',
});

/** A tab that fails the listed actions and records each call with its observe flag. */
function scriptedTab(
  failing: string[] = [],
  onExecute: (action: string) => Promise<void> = async () => undefined,
): Pick<TabDriver, 'execute'> & { calls: [string, boolean][] } {
  const calls: [string, boolean][] = [];
  return {
    calls,
    async execute(_tabId, action, observe): Promise<ExecuteReply> {
      calls.push([action, observe]);
      await onExecute(action);
      return failing.includes(action) ? disabled(action) : { ok: true, action };
    },
  };
}

async function runningStore(): Promise<KeyValueStore> {
  const storage = memoryStore();
  await writeRun(storage, { tabId: TAB, goal: 'fill', status: 'running', steps: [] });
  return storage;
}

describe('plannedActions', () => {
  const base = {
    thought: 't',
    taskId: TASK,
    sessionId: SESSION,
    stepIndex: 0,
    status: 'executing',
  };

  it("takes a chain in order with each action's canFail", () => {
    const res = NextActionResponse.parse({
      ...base,
      action: chain[0],
      actionDetails: { name: 'setValue', args: { id: '1', text: 'a' } },
      actions: chain.map((action, index) => ({
        action,
        description: 'f',
        index,
        canFail: index === 1,
      })),
    });
    expect(plannedActions(res)).toEqual(planned([false, true, false]));
  });

  it('makes a single action a chain of one that may not fail', () => {
    const res = NextActionResponse.parse({
      ...base,
      action: 'click("1")',
      actionDetails: { name: 'click', args: { id: '1' } },
    });
    expect(plannedActions(res)).toEqual([{ action: 'click("1")', canFail: false, index: 0 }]);
  });

  it('has nothing to execute for a request for page state', () => {
    expect(plannedActions(NextActionResponse.parse({ ...base, needs_full_dom: true }))).toEqual([]);
  });
});

describe('executeActions', () => {
  it('runs every action in order and observes from the first one only', async () => {
    const tab = scriptedTab();
    const outcome = await executeActions(tab, await runningStore(), TAB, planned());
    expect(tab.calls).toEqual([
      [chain[0], true],
      [chain[1], false],
      [chain[2], false],
    ]);
    expect(outcome).toEqual({ interrupted: false, lastOk: 2, failure: null });
  });

  it('stops at the first failure of an action that may not fail', async () => {
    const tab = scriptedTab([chain[1] ?? '']);
    const outcome = await executeActions(tab, await runningStore(), TAB, planned());
    expect(tab.calls.map(([action]) => action)).toEqual(chain.slice(0, 2));
    expect(outcome).toEqual({ interrupted: false, lastOk: 0, failure: disabled(chain[1] ?? '') });
  });

  it('goes on past a failed action that may fail', async () => {
    const tab = scriptedTab([chain[1] ?? '']);
    const outcome = await executeActions(tab, await runningStore(), TAB, planned([false, true]));
    expect(tab.calls).toHaveLength(3);
    expect(outcome).toEqual({ interrupted: false, lastOk: 2, failure: null });
  });

  it('executes nothing more once the run was stopped mid-chain, and returns the stopped run', async () => {
    const storage = await runningStore();
    const stop = async (action: string) => {
      const run = await loadRun(storage, TAB);
      if (action === chain[0] && run) await writeRun(storage, run, { status: 'stopped' });
    };
    const tab = scriptedTab([], stop);
    const outcome = await executeActions(tab, storage, TAB, planned());
    expect(tab.calls.map(([action]) => action)).toEqual([chain[0]]);
    expect(outcome).toMatchObject({ interrupted: true, run: { status: 'stopped' } });
  });

  it('hands nothing more to the tab once Stop aborted the control mid-chain', async () => {
    const control = new RunControl();
    const tab = scriptedTab([], async (action) => {
      if (action === chain[0]) void control.stop();
    });
    const outcome = executeActions(tab, await runningStore(), TAB, planned(), control);
    await expect(outcome).rejects.toBeInstanceOf(RunStopped);
    expect(tab.calls.map(([action]) => action)).toEqual([chain[0]]);
  });

  it('executes nothing when the run is gone', async () => {
    const tab = scriptedTab();
    expect(await executeActions(tab, memoryStore(), TAB, planned())).toEqual({
      interrupted: true,
      run: null,
    });
    expect(tab.calls).toEqual([]);
  });
});

describe('executedReport', () => {
  const observations = { didDomMutate: true, didNetworkOccur: false, didUrlChange: false };
  const url = 'https://a.example/';

  it('reports a single action that succeeded with what the page did', () => {
    const single = { actions: planned().slice(0, 1), isChain: false, lastOk: 0, failure: null };
    expect(executedReport(single, observations, url)).toEqual({
      lastActionStatus: 'success',
      clientObservations: observations,
      previousUrl: url,
    });
  });

  it('reports why a single action failed as code: error, with no chain fields', () => {
    const failure = disabled('click("1")');
    const single = { actions: planned().slice(0, 1), isChain: false, lastOk: -1, failure };
    const report = executedReport(single, observations, url);
    expect(report).toMatchObject({
      lastActionStatus: 'failure',
      lastActionError: 'disabled: element is disabled',
    });
    expect(report).not.toHaveProperty('lastExecutedActionIndex');
    expect(report).not.toHaveProperty('chainPartialState');
  });

  it('reports how far a chain got and which action failed', () => {
    const failure = disabled(chain[1] ?? '');
    const report = executedReport(
      { actions: planned(), isChain: true, lastOk: 0, failure },
      observations,
      url,
    );
    expect(report).toMatchObject({
      lastActionStatus: 'failure',
      lastExecutedActionIndex: 0,
      chainPartialState: { executedActions: [chain[0]], totalActionsInChain: 3 },
      chainActionError: {
        action: chain[1],
        message: 'element is disabled',
        index: 1,
        code: 'disabled',
      },
    });
  });

  it('gives no executed index for a chain whose first action failed', () => {
    const report = executedReport(
      { actions: planned(), isChain: true, lastOk: -1, failure: disabled(chain[0] ?? '') },
      observations,
      url,
    );
    expect(report).not.toHaveProperty('lastExecutedActionIndex');
    expect(report.chainPartialState).toEqual({ executedActions: [], totalActionsInChain: 3 });
    expect(report.chainActionError?.index).toBe(0);
  });

  it('reports a whole chain as executed and no chain error when it succeeded', () => {
    const report = executedReport(
      { actions: planned(), isChain: true, lastOk: 2, failure: null },
      observations,
      url,
    );
    expect(report).toMatchObject({
      lastActionStatus: 'success',
      lastExecutedActionIndex: 2,
      chainPartialState: { executedActions: chain, totalActionsInChain: 3 },
    });
    expect(report).not.toHaveProperty('chainActionError');
  });
});
