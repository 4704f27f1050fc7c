// The routine step (docs/architecture.md, "Rerunning one"): the next unit of a saved routine (one step, or
// the steps the first run sent as one chain) made into actions without the model. Each target
// is found again on the live tree (resolve.ts), each value comes from the run's parameters
// (replay.ts), and every action passes the same checks as a model's: the grammar and the tree,
// the task's sites, secrets and site data (action-check, action-policy) and the chain rules.
// What cannot be replayed is handed on: a target that is not there to the model for that step
// alone (a heal), and a page that is not the routine's, a second heal in a row or a step the
// task's rules refuse to the full agent.
import {
  escapeTemplate,
  ExtractRequest,
  fillTemplate,
  type ChainAction,
  type ExpectedOutcome,
  type ParsedAction,
  type RoutineStep,
  type RoutineLocator,
  type RoutineTarget,
} from '@tandem/contracts';
import type { AgentDeps } from '../deps';
import { checkChainSafety } from '../engines/chain-safety';
import { validateAction } from '../nodes/action-check';
import { afterAction, policyOf } from '../nodes/action-policy';
import { extractionSnapshot } from '../nodes/extraction/model-extract';
import { readPage } from '../nodes/outcomes';
import { makePending } from '../nodes/pending-action';
import type { PageState } from '../page/page-state';
import type { InteractStateType, InteractStateUpdate } from '../state';
import { instantiateStep, offPage } from './replay';
import { resolveTarget, stillDescribes } from './resolve';
import { collectedTotal } from '../collect/summary';
import { collectRead, collectUnit, isCollect } from './collect-step';
import { fallBackUpdate, healUpdate, routineAnswer } from './handover';
import { isRead, lastReadPager, pagerStep, readsItems } from './leads-on';
import { replaying, stepLabel, unitFrom, type RoutineRun } from './run';

type Unit = { from: number; to: number };

/** The outcome the step's verification looks for, said as a model's prediction would be. */
function expectedOf(run: RoutineRun, unit: Unit): ExpectedOutcome {
  const last = run.routine.steps[unit.to] as RoutineStep;
  const finishes = unit.to === run.routine.steps.length - 1;
  const expect = last.expect;
  return {
    description: expect
      ? `As when the routine was saved: ${expect.reason}`
      : 'The fields hold the values typed',
    source: 'template',
    ...(expect?.urlChanged ? { urlShouldChange: true } : {}),
    completesGoal: finishes,
    ...(finishes ? { answer: routineAnswer(run) } : {}),
  };
}

/**
 * The step's target with the element's name this run's values give (a link or option the goal
 * names), written as the page writes it (the goal's "cardiology" is the page's "Cardiology").
 * Locators by position or by a neighbour described the first run's element, not this one.
 */
export function targetFor(target: RoutineTarget, run: RoutineRun, page: PageState): RoutineTarget {
  if (!target.name) return target;
  const examples = Object.fromEntries(run.routine.parameters.map((p) => [p.name, p.example]));
  let recorded: string;
  let wanted: string;
  try {
    recorded = fillTemplate(target.name, examples);
    wanted = fillTemplate(target.name, run.values);
  } catch {
    return target;
  }
  const live = page.tree.find((n) => (n.n ?? '').trim().toLowerCase() === wanted.toLowerCase());
  const name = live?.n?.trim() ?? wanted;
  const same = (text: string) => text.toLowerCase() === recorded.toLowerCase();
  const [role, printed, frame, rank] = target.fingerprint.split('|');
  const locators = target.locators.flatMap((l): RoutineLocator[] => {
    if (l.by === 'role-name') return same(l.name) ? [{ ...l, name }] : [l];
    if (l.by === 'label') return same(l.text) ? [{ ...l, text: name }] : [l];
    return [];
  });
  return {
    fingerprint:
      printed !== undefined && same(printed)
        ? [role, name, frame, rank].join('|')
        : target.fingerprint,
    locators: locators.length > 0 ? locators : [{ by: 'label' as const, text: name }],
    // Filled: resolveTarget takes only an element of this name, whatever else was recorded.
    name: escapeTemplate(name),
  };
}

type Built =
  | { kind: 'send'; actions: ParsedAction[]; strings: string[]; unit: Unit; stale: number[] }
  | { kind: 'heal'; step: number; reason: string }
  | { kind: 'skip' }
  | { kind: 'stop'; reason: string };

/** The unit's actions on this page, or what to do instead. */
function buildUnit(state: InteractStateType, run: RoutineRun, page: PageState, unit: Unit): Built {
  const steps = run.routine.steps;
  const first = steps[unit.from] as RoutineStep;
  const off = offPage(first, page.url, unit.from, 'runs');
  if (off) return { kind: 'stop', reason: off };
  const actions: ParsedAction[] = [];
  const strings: string[] = [];
  const stale: number[] = [];
  let policy = policyOf(state);
  for (let k = unit.from; k <= unit.to; k++) {
    const step = steps[k] as RoutineStep;
    let id: string | null = null;
    if (step.target) {
      const target = targetFor(step.target, run, page);
      let found = resolveTarget(target, page.tree);
      // A rank alone may point at another field (one was added before it): typing there would
      // be silently wrong data, so the model looks instead.
      if (
        'by' in found &&
        found.by === 'ordinal' &&
        (step.action === 'setValue' || step.action === 'select')
      )
        found = {
          unresolved: 'only its position on the page matches, which is not enough to type into it',
        };
      if ('unresolved' in found) {
        if (unit.from === unit.to && step.optional) return { kind: 'skip' };
        // The chain's steps before it go first, as their own unit; the model then does this one.
        if (k > unit.from)
          return sendable(actions, strings, { from: unit.from, to: k - 1 }, page, stale);
        return { kind: 'heal', step: k, reason: found.unresolved };
      }
      id = found.id;
      if (!stillDescribes(target, page.tree, id)) stale.push(k);
    }
    const made = instantiateStep(step, run.routine.parameters, run.values, id);
    if (!made.ok)
      return { kind: 'stop', reason: `step ${k + 1} cannot be replayed: ${made.reason}` };
    const checked = validateAction(made.action, page, policy);
    if (!checked.ok)
      return {
        kind: 'stop',
        reason: `step ${k + 1} (${made.action}) is refused${checked.safety ? ' by the task’s rules' : ''}: ${checked.reason}`,
      };
    policy = afterAction(policy, checked.action);
    actions.push(checked.action);
    strings.push(checked.actionString);
  }
  return sendable(actions, strings, unit, page, stale);
}

/** The unit as one chain, or its first step alone when the chain rules refuse it here. */
function sendable(
  actions: ParsedAction[],
  strings: string[],
  unit: Unit,
  page: PageState,
  stale: readonly number[],
): Built {
  const sent =
    strings.length > 1 && !checkChainSafety(strings, page.tree).safe
      ? { from: unit.from, to: unit.from }
      : unit;
  const count = sent.to - sent.from + 1;
  return {
    kind: 'send',
    actions: actions.slice(0, count),
    strings: strings.slice(0, count),
    unit: sent,
    stale: stale.filter((k) => k >= sent.from && k <= sent.to),
  };
}

/** Asks the client for the content the step's saved extraction reads (extraction node). */
async function readUnit(
  deps: AgentDeps,
  state: InteractStateType,
  run: RoutineRun,
  page: PageState,
  k: number,
): Promise<InteractStateUpdate> {
  const step = run.routine.steps[k] as RoutineStep;
  const off = offPage(step, page.url, k, 'reads');
  if (off) return fallBackUpdate(deps, state, run, off);
  const request = ExtractRequest.safeParse({ extractionId: fillTemplate(step.value ?? '', {}) });
  if (!deps.extraction || !request.success)
    return fallBackUpdate(deps, state, run, `step ${k + 1}'s saved extraction cannot run here`);
  const unit = { from: k, to: k };
  const reading = { ...run, unit, readAt: state.routineTrace.length };
  // The routine's last read of a paged list: the page's links tell whether the list goes on.
  const lastRead = lastReadPager({ routineRun: reading }) >= 0;
  return {
    routineRun: reading,
    pending: null,
    pageRequest: await extractionSnapshot(deps, state, request.data, lastRead),
    pendingExtraction: request.data,
    ...readPage(`${stepLabel(run, unit)}: read the page with the saved extraction`),
  };
}

/**
 * The read of `unit` came back from the extraction node: on to the next step when it read
 * items with the saved strategy; otherwise the agent extracts its own way.
 */
function readVerdict(
  deps: AgentDeps,
  state: InteractStateType,
  run: RoutineRun,
  unit: Unit,
): RoutineRun | InteractStateUpdate {
  // Only the entry this read added counts (a trace past its cap adds none: not read).
  const last =
    state.routineTrace.length > (run.readAt ?? Infinity) ? state.routineTrace.at(-1) : undefined;
  if (last?.read && last.verified) return { ...run, next: unit.to + 1, unit: null, healsInRow: 0 };
  return fallBackUpdate(
    deps,
    state,
    run,
    `the saved extraction of step ${unit.from + 1} read nothing here (${last?.expect.reason ?? 'no result'})`,
  );
}

/**
 * A routine that read a list page by page (extracted or collected its items) ends where the
 * first run's list ended. When the link it paged with is still there, the list is longer now:
 * the agent reads the rest, since a routine that stopped early would hand back part of the data
 * as if it were all of it. Found under another name ("More products"), the link is told by the
 * links of the last read's page: one to a later page of the list (leads-on.ts). Neither there: the
 * list ended, as it did then. (A collect that reached the goal's count ended before this.)
 */
function listGoesOn(run: RoutineRun, page: PageState): string | null {
  const steps = run.routine.steps;
  if (!readsItems(steps.at(-1))) return null;
  const pager = pagerStep(steps);
  const target = steps[pager]?.target;
  if (!target) return null;
  const goesOn = 'the list goes on past the pages the routine read when it was saved';
  const found = resolveTarget(targetFor(target, run, page), page.tree);
  if ('id' in found && found.by !== 'ordinal' && found.by !== 'near')
    return `${goesOn} (step ${pager + 1}'s element is still there)`;
  return run.onward ? `${goesOn} (${run.onward})` : null;
}

export const routineStep =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const page = state.page;
    let run = state.routineRun;
    if (!replaying(run) || !page)
      throw new Error('routine_step needs a running routine and the page');
    if (run.unit && isRead(run.routine.steps[run.unit.from])) {
      const judged = readVerdict(deps, state, run, run.unit);
      if (!('routine' in judged)) return judged;
      run = judged;
    }
    if (run.unit && isCollect(run.routine.steps[run.unit.from])) {
      const read = await collectRead(deps, state, run, run.unit.from);
      if (!('run' in read)) return read;
      const now = { ...state, ...read.update, routineRun: read.run } as InteractStateType;
      // The task has its count: the rest of the list is not wanted.
      const next = read.limitReached
        ? finished(now, read.run)
        : await nextUnit(deps, now, read.run, now.page as PageState);
      return { ...read.update, ...next };
    }
    return nextUnit(deps, state, run, page);
  };

/** The routine ran to its end (or to the count it collects): the task is done. */
function finished(state: InteractStateType, run: RoutineRun): InteractStateUpdate {
  return {
    routineRun: { ...run, unit: null },
    status: 'completed',
    result: routineAnswer(run, state),
  };
}

/** Why a routine that collects must not end here: fewer items than the goal asks for. */
function countShort(state: InteractStateType, run: RoutineRun): string | null {
  if (!run.routine.steps.some(isCollect) || state.collectLimit === null) return null;
  const total = collectedTotal(state.collectedCounts);
  return total < state.collectLimit
    ? `the saved pages gave ${total} of the ${state.collectLimit} items the goal asks for`
    : null;
}

/** The routine's next unit from `run.next`: sent, read, healed, handed over, or the end. */
async function nextUnit(
  deps: AgentDeps,
  state: InteractStateType,
  start: RoutineRun,
  page: PageState,
): Promise<InteractStateUpdate> {
  let run = start;
  for (;;) {
    const steps = run.routine.steps;
    if (run.next >= steps.length) {
      const more = listGoesOn(run, page) ?? countShort(state, run);
      if (more) return fallBackUpdate(deps, state, run, more);
      // Every step done (optional ones left were not needed): the routine is done.
      return finished(state, run);
    }
    if (isRead(steps[run.next])) return readUnit(deps, state, run, page, run.next);
    if (isCollect(steps[run.next])) return collectUnit(deps, state, run, page, run.next);
    const built = buildUnit(state, run, page, unitFrom(steps, run.next));
    if (built.kind === 'skip') {
      run = { ...run, next: run.next + 1, skipped: [...run.skipped, run.next] };
      continue;
    }
    if (built.kind === 'stop') return fallBackUpdate(deps, state, run, built.reason);
    if (built.kind === 'heal')
      return healUpdate(deps, state, run, {
        step: built.step,
        sent: false,
        reason: built.reason,
      });
    return sendUnit(state, run, page, built);
  }
}

/** The unit's actions, sent as the model's would be (one action, or a chain). */
function sendUnit(
  state: InteractStateType,
  run: RoutineRun,
  page: PageState,
  built: Extract<Built, { kind: 'send' }>,
): InteractStateUpdate {
  const { unit, strings, actions } = built;
  const chain: ChainAction[] | null =
    strings.length > 1
      ? strings.map((action, index) => ({
          action,
          description: `Routine step ${unit.from + index + 1}`,
          index,
        }))
      : null;
  const pending = makePending({
    state,
    page,
    thought: `${stepLabel(run, unit)}: ${strings.join('; ')}`,
    action: actions[0] as ParsedAction,
    chain: chain ? { actions: chain } : null,
    source: 'routine_step',
    expectedOutcome: expectedOf(run, unit),
  });
  // A step that only cleared the way stays optional in the versions this run may save.
  const optional = (run.routine.steps[unit.from] as RoutineStep).optional;
  return {
    pending: optional ? { ...pending, contingency: 'optional routine step' } : pending,
    routineRun: { ...run, unit, stale: [...run.stale, ...built.stale] },
    nextActionReady: false,
  };
}
