// Executing the server's action or chain in a tab, and the report on it that the next request
// carries (docs/specs.md, "clientObservations": lastActionStatus, clientObservations, chain partial
// state).
import type { ClientObservations, NextActionResponse } from '@tandem/contracts';
import type { ExecuteReply } from '../shared/messages';
import { loadRun, type PendingReport, type RunState } from '../shared/run-state';
import type { KeyValueStore } from '../shared/settings';
import { RunControl } from './run-control';
import type { TabDriver } from './tab-driver';

export interface PlannedAction {
  action: string;
  /** The chain goes on past this action when it fails. */
  canFail: boolean;
  index: number;
}

export type ExecuteFailure = Extract<ExecuteReply, { ok: false }>;

/** The chain when the server sent one, else its single action as a chain of one (or nothing). */
export function plannedActions(res: NextActionResponse): PlannedAction[] {
  return (
    res.actions?.map((a) => ({ action: a.action, canFail: a.canFail === true, index: a.index })) ??
    (res.action ? [{ action: res.action, canFail: false, index: 0 }] : [])
  );
}

export type ExecutionOutcome =
  /** The run stopped being `running` (Stop, tab closed) before an action: `run` is as stored. */
  | { interrupted: true; run: RunState | null }
  /** `lastOk`: index of the last action that succeeded, -1 for none. */
  | { interrupted: false; lastOk: number; failure: ExecuteFailure | null };

/**
 * Executes the actions in order and stops at the first failure of one that may not fail.
 * A Stop pressed mid-chain executes nothing more: `control` throws RunStopped right before the
 * next action is handed to the tab, and the stored run is re-read before each action too (a
 * run stopped or replaced where this worker's control cannot see it).
 */
export async function executeActions(
  tabs: Pick<TabDriver, 'execute'>,
  storage: KeyValueStore,
  tabId: number,
  actions: PlannedAction[],
  control: RunControl = new RunControl(),
): Promise<ExecutionOutcome> {
  let lastOk = -1;
  for (const item of actions) {
    const current = await loadRun(storage, tabId);
    if (!current || current.status !== 'running') return { interrupted: true, run: current };
    // Observing starts with the first action, so the observations cover the whole chain.
    const result = await control.execute(() => tabs.execute(tabId, item.action, item.index === 0));
    if (result.ok) lastOk = item.index;
    else if (!item.canFail) return { interrupted: false, lastOk, failure: result };
  }
  return { interrupted: false, lastOk, failure: null };
}

export interface ExecutedActions {
  actions: PlannedAction[];
  /** The server sent `actions` (a chain), which it expects reported as one. */
  isChain: boolean;
  lastOk: number;
  failure: ExecuteFailure | null;
}

/** The report the next request carries about what was executed and what the page did. */
export function executedReport(
  executed: ExecutedActions,
  observations: ClientObservations,
  previousUrl: string,
): PendingReport {
  const { failure } = executed;
  return {
    lastActionStatus: failure ? 'failure' : 'success',
    ...(failure ? { lastActionError: `${failure.code}: ${failure.error}` } : {}),
    clientObservations: observations,
    previousUrl,
    ...(executed.isChain ? chainReport(executed) : {}),
  };
}

/** How far a chain got, so the server can resume it from the action that failed. */
function chainReport({ actions, lastOk, failure }: ExecutedActions): PendingReport {
  return {
    // With no action succeeded there is no executed index: 0 would say the first one ran.
    ...(lastOk >= 0 ? { lastExecutedActionIndex: lastOk } : {}),
    chainPartialState: {
      executedActions: actions.filter((a) => a.index <= lastOk).map((a) => a.action),
      totalActionsInChain: actions.length,
    },
    ...(failure
      ? {
          chainActionError: {
            action: failure.action,
            message: failure.error,
            index: lastOk + 1,
            code: failure.code,
          },
        }
      : {}),
  };
}
