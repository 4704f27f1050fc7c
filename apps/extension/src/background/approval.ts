// Approval for high-risk steps, on the extension's side. Before a step runs,
// its risks are the server's (from the targets' names) and the extension's own: what the page
// says of each target (the form a button submits) and the user's "always ask before" phrases.
// Any risk pauses the run (needs_approval) with the step kept in storage, so the card survives a
// stopped worker and a restarted browser; approve, edit or reject resumes the same task.
import {
  actionRisk,
  actionTargetId,
  formatAction,
  isAllowedEdit,
  safeParseAction,
  type ActionRisk,
  type NextActionResponse,
  type ParsedAction,
  type SemanticNodeV3,
} from '@tandem/contracts';
import { loadAskBefore } from '../shared/ask-before';
import {
  compareAndSetRun,
  loadRun,
  type PendingApproval,
  type PlannedStep,
  type RunState,
  type StepView,
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

/**
 * The approved step's actions on the page as it is now. A card may wait across a browser
 * restart, and a reloaded page numbers its elements anew: each target is found again by the
 * name it had on the card (its own id when that still names it, else the one element of that
 * name). A target no longer there, or no longer unique, stops the step: the user approved
 * that element, not another.
 */
export function approvedOnPage(
  steps: readonly PlannedStep[],
  names: Readonly<Record<string, string>>,
  tree: readonly SemanticNodeV3[],
): { ok: true; steps: PlannedStep[] } | { ok: false; reason: string } {
  const out: PlannedStep[] = [];
  for (const step of steps) {
    const parsed = safeParseAction(step.action);
    const id = parsed.ok ? actionTargetId(parsed.action) : undefined;
    const name = id ? names[id] : undefined;
    if (!parsed.ok || !id || name === undefined) {
      out.push(step);
      continue;
    }
    const same = tree.find((n) => n.i === id && (n.n ?? '') === name);
    const matches = same ? [same] : tree.filter((n) => (n.n ?? '') === name);
    const match = matches[0];
    if (matches.length !== 1 || !match)
      return {
        ok: false,
        reason: `the page changed since you approved it: “${name}” is not on it`,
      };
    const action = {
      ...parsed.action,
      args: { ...parsed.action.args, id: match.i },
    } as ParsedAction;
    out.push({ ...step, action: formatAction(action) });
  }
  return { ok: true, steps: out };
}

/** The steps with the last one (the step on the card) marked as its approval stands. */
export function markedStep(
  steps: RunState['steps'],
  approval: StepView['approval'],
): RunState['steps'] {
  const last = steps.at(-1);
  return last ? [...steps.slice(0, -1), { ...last, approval }] : steps;
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
    steps: markedStep(run.steps, decision),
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
    steps: markedStep(run.steps, 'rejected'),
    pending: { ...run.pending, approval: { decision: 'rejected', ...(note ? { note } : {}) } },
  });
  if (!write.written) throw new Error(`The run is ${write.run.status} now.`);
  return write.run;
}
