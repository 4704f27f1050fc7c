// Approval for high-risk steps (issue 20, item 3), on the extension's side. Before a step runs,
// its risks are the server's (from the targets' names) and the extension's own: what the page
// says of each target (the form a button submits) and the user's "always ask before" phrases.
// Any risk pauses the run (needs_approval) with the step kept in storage, so the card survives a
// stopped worker and a restarted browser; approve, edit or reject resumes the same task.
import {
  actionRisk,
  actionTargetId,
  isAllowedEdit,
  safeParseAction,
  type ActionRisk,
  type NextActionResponse,
} from '@tandem/contracts';
import { loadAskBefore } from '../shared/ask-before';
import {
  compareAndSetRun,
  loadRun,
  type PendingApproval,
  type PlannedStep,
  type RunState,
} from '../shared/run-state';
import type { KeyValueStore } from '../shared/settings';
import type { TabDriver } from './tab-driver';

/**
 * The step's risks: the server's, and what the page and the user's marks add; with the
 * targets' names as the page gives them, for the approval card.
 */
export async function stepRisks(
  deps: { tabs: Pick<TabDriver, 'inspect'>; storage: KeyValueStore; tabId: number },
  res: Pick<NextActionResponse, 'approval'>,
  steps: readonly PlannedStep[],
): Promise<{ risks: ActionRisk[]; names: Record<string, string> }> {
  const parsed = steps.flatMap((step) => {
    const result = safeParseAction(step.action);
    return result.ok ? [{ step, action: result.action }] : [];
  });
  const ids = parsed.flatMap(({ action }) => actionTargetId(action) ?? []);
  const facts = ids.length > 0 && deps.tabs.inspect ? await deps.tabs.inspect(deps.tabId, ids) : {};
  const marks = await loadAskBefore(deps.storage);
  const local = parsed.flatMap(({ step, action }) => {
    const id = actionTargetId(action);
    const fact = id ? facts[id] : undefined;
    const target = fact ? { role: fact.role, name: fact.name, form: fact.form } : undefined;
    const risk = actionRisk(action, target, marks);
    return risk ? [{ index: step.index, ...risk }] : [];
  });
  const server = res.approval?.risks ?? [];
  const known = new Set(server.map((r) => r.index));
  const risks = [...server, ...local.filter((r) => !known.has(r.index))].sort(
    (a, b) => a.index - b.index,
  );
  const names = Object.fromEntries(Object.entries(facts).map(([id, fact]) => [id, fact.name]));
  return { risks, names };
}

async function waitingRun(storage: KeyValueStore, tabId: number) {
  const run = await loadRun(storage, tabId);
  if (!run || run.status !== 'needs_approval' || !run.approval)
    throw new Error('This tab has no step waiting for your approval.');
  return { run, approval: run.approval };
}

/**
 * Approve (as sent, or with `edited` actions: the same actions on the same elements, only their
 * typed text or chosen option changed): the run goes on and executes them first.
 */
export async function approveRun(
  storage: KeyValueStore,
  tabId: number,
  edited?: readonly string[],
): Promise<RunState> {
  const { run, approval } = await waitingRun(storage, tabId);
  let actions = approval.actions;
  let decision: PendingApproval['decision'] = 'approved';
  if (edited && edited.some((text, i) => text !== approval.actions[i]?.action)) {
    if (edited.length !== approval.actions.length)
      throw new Error('An edit keeps every action of the step.');
    actions = approval.actions.map((step, i) => {
      const before = safeParseAction(step.action);
      const after = safeParseAction(edited[i] ?? '');
      if (!before.ok || !after.ok || !isAllowedEdit(before.action, after.action))
        throw new Error('Only the typed text or the chosen option of a step can be changed.');
      return { ...step, action: edited[i] ?? step.action };
    });
    decision = 'edited';
  }
  const write = await compareAndSetRun(storage, run, {
    status: 'running',
    approval: { ...approval, actions, decision },
  });
  if (!write.written) throw new Error(`The run is ${write.run.status} now.`);
  return write.run;
}

/** Reject: nothing of the step runs; the next request tells the server, which looks for another way. */
export async function rejectRun(
  storage: KeyValueStore,
  tabId: number,
  note?: string,
): Promise<RunState> {
  const { run } = await waitingRun(storage, tabId);
  const write = await compareAndSetRun(storage, run, {
    status: 'running',
    approval: undefined,
    pending: { ...run.pending, approval: { decision: 'rejected', ...(note ? { note } : {}) } },
  });
  if (!write.written) throw new Error(`The run is ${write.run.status} now.`);
  return write.run;
}
