import { type Routine, type RoutineTarget, type SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { approvalUpdate } from '../nodes/dispatch/approval';
import { applyUpdate, nodeDeps, pageOf, stateWith } from '../testing/state';
import { FILLED, form, formRun, GOAL, savedRoutine } from '../testing/routine-runs';
import type { InteractStateType } from '../state';
import { startRun, type RoutineRun } from './run';
import { resolveTarget } from './resolve';
import { routineStep, targetFor } from './step-node';
import { routineVerdict } from './verdict';

/** The add-patient routine as the store would hold it (version 1). */
const addPatient = () => savedRoutine(GOAL, formRun());

const VALUES = { firstName: 'Kim', lastName: 'Lee', gender: 'Male' };
const deps = nodeDeps();

function running(page = form(), run?: Partial<RoutineRun>): InteractStateType {
  const tokens = { input: 0, output: 0, saved: 0, calls: 0, costMicroUsd: 0 };
  return stateWith({
    query: 'Add a new patient Kim Lee, male',
    complexity: 'COMPLEX',
    sites: ['emr.test'],
    page,
    routineRun: { ...startRun(addPatient(), VALUES, tokens), ...run },
  });
}

describe('routine_step', () => {
  it('sends the first unit as the chain the first run sent, with this run’s values', async () => {
    const state = running();
    expect(addPatient().goalTemplate).toBe('Add a new patient {firstName} {lastName}, {gender}');
    const update = await routineStep(deps)(state);
    const after = applyUpdate(state, update);
    expect(after.pending?.chain?.actions.map((a) => a.action)).toEqual([
      'setValue("first", "Kim")',
      'setValue("last", "Lee")',
      'select("gender", "Male")',
    ]);
    expect(after.pending?.source).toBe('routine_step');
    expect(after.routineRun?.unit).toEqual({ from: 0, to: 2 });
    // Found as recorded: nothing for the next version to record anew.
    expect(after.routineRun?.stale).toEqual([]);
  });

  it('finds a moved field by its name and a renamed button by its neighbour', async () => {
    const moved: SemanticNodeV3[] = [
      { i: 'nav', r: 'link', n: 'Patients' },
      { i: 'g', r: 'sel', n: 'Gender' },
      { i: 'l', r: 'inp', n: 'Last name' },
      { i: 'f', r: 'inp', n: 'First name' },
      { i: 's', r: 'btn', n: 'Save' },
    ];
    const state = running(pageOf(moved, { url: form().url }));
    const update = applyUpdate(state, await routineStep(deps)(state));
    expect(update.pending?.chain?.actions.map((a) => a.action)).toEqual([
      'setValue("f", "Kim")',
      'setValue("l", "Lee")',
      'select("g", "Male")',
    ]);
  });

  it('asks the model for a field it could only find by position, and says why', async () => {
    const renamed = form().tree.map((n) => (n.i === 'first' ? { ...n, n: 'Given name' } : n));
    // Its neighbour "Last name" still names it: found without the model.
    const nearState = running(pageOf(renamed, { url: form().url }));
    const near = applyUpdate(nearState, await routineStep(deps)(nearState));
    expect(near.pending?.chain?.actions[0]?.action).toBe('setValue("first", "Kim")');
    // Found by its neighbour, not as recorded (and Last name's "after First name" is gone too):
    // the run is saved as the next version.
    expect(near.routineRun?.stale).toEqual([0, 1]);
    const reworded: Record<string, string> = { last: 'Surname', nav: 'Home' };
    const bare = renamed.map((n) => (reworded[n.i] ? { ...n, n: reworded[n.i] } : n));
    const update = await routineStep(deps)(running(pageOf(bare, { url: form().url })));
    expect(update.pending).toBeNull();
    expect((update.routineRun as RoutineRun).healing).toMatchObject({ step: 0, sent: false });
    expect((update.routineRun as RoutineRun).healing?.reason).toMatch(/position/);
  });

  it('hands over to the agent on a page that is not the routine’s', async () => {
    const update = await routineStep(deps)(
      running(pageOf(form().tree, { url: 'https://emr.test/staff/new' })),
    );
    expect((update.routineRun as RoutineRun).fellBack).toMatch(
      /page like https:\/\/emr.test\/patients\/new/,
    );
    expect(update.pending).toBeNull();
  });

  it('hands over when the task’s rules refuse a step, as they refuse the model', async () => {
    // The user rejected this very action earlier in the task.
    const state = running(form(), {});
    const refused = { ...state, rejectedActions: ['setValue("first", "Kim")'] };
    const update = await routineStep(deps)(refused);
    expect((update.routineRun as RoutineRun).fellBack).toMatch(/refused/);
  });

  it('skips an optional step whose target is gone', async () => {
    const routine = addPatient();
    const withBanner: Routine = {
      ...routine,
      steps: [
        {
          action: 'click',
          target: {
            fingerprint: 'btn|Accept cookies|f0|#0',
            locators: [{ by: 'role-name', role: 'btn', name: 'Accept cookies' }],
          },
          value: null,
          chained: false,
          expect: null,
          safety: 'safe',
          optional: true,
        },
        ...routine.steps,
      ],
    };
    const state = running();
    const update = await routineStep(deps)({
      ...state,
      routineRun: { ...(state.routineRun as RoutineRun), routine: withBanner },
    });
    expect(update.routineRun).toMatchObject({ skipped: [0], unit: { from: 1, to: 3 } });
  });
});

function pendingIn(state: InteractStateType) {
  if (!state.pending) throw new Error('no pending action');
  return state.pending;
}

describe('routine verdicts', () => {
  async function sentUnit(state: InteractStateType) {
    return applyUpdate(state, await routineStep(deps)(state));
  }

  it('moves on when the unit shows its recorded outcome, and completes at the end', async () => {
    let state = await sentUnit(running());
    const filled = form({ first: 'Kim', last: 'Lee', gender: 'Male' });
    const first = routineVerdict(deps, state, pendingIn(state), filled);
    expect(first && 'settled' in first).toBe(true);
    state = applyUpdate({ ...state, page: filled }, (first as { settled: object }).settled);
    expect(state.lastVerification).toMatchObject({ success: true, verificationTier: 1 });
    expect(state.routineRun).toMatchObject({ next: 3, unit: null });

    state = await sentUnit(state);
    expect(state.pending?.action).toEqual({ name: 'click', args: { id: 'save' } });
    const saved = pageOf([{ i: 'p', r: 'link', n: 'Patients' }], {
      url: 'https://emr.test/patients/18',
      successMessages: ['Patient saved'],
    });
    const last = routineVerdict(deps, state, pendingIn(state), saved);
    state = applyUpdate(state, (last as { settled: object }).settled);
    expect(state.status).toBe('completed');
    expect(state.lastVerification?.goalAchieved).toBe(true);
    expect(state.result).toContain('firstName “Kim”, lastName “Lee”, gender “Male”');
    expect(state.routineTrace).toHaveLength(2);
  });

  it('heals a unit whose outcome did not show, and hands over when the page left the route', async () => {
    const state = await sentUnit(running(form(FILLED), { next: 3 }));
    const dialog = pageOf([{ i: 'ok', r: 'btn', n: 'Confirm' }], { url: form().url });
    const heal = routineVerdict(deps, state, pendingIn(state), dialog);
    const healed = applyUpdate(state, (heal as { settled: object }).settled);
    expect(healed.routineRun?.healing).toMatchObject({ step: 3, sent: true });
    expect(healed.lastVerification?.success).toBe(false);

    const away = pageOf([], { url: 'https://emr.test/billing/1' });
    const off = routineVerdict(deps, state, pendingIn(state), away);
    expect(applyUpdate(state, (off as { settled: object }).settled).routineRun?.fellBack).toMatch(
      /not the one the routine expects/,
    );
  });

  it('stops the routine when the user rejects its step', async () => {
    const state = await sentUnit(running());
    const update = approvalUpdate(state, state.pending, { decision: 'rejected' });
    expect((update.routineRun as RoutineRun).fellBack).toMatch(/you rejected/);
  });
});

describe('targetFor', () => {
  it('looks for the element this run’s value names, written as the page writes it', () => {
    const state = running();
    const run = {
      ...(state.routineRun as RoutineRun),
      routine: {
        ...addPatient(),
        parameters: [
          { name: 'department', example: 'Neurology', source: 'goal' as const, steps: [0] },
        ],
      },
      values: { department: 'cardiology' },
    };
    const page = pageOf([
      { i: 'o1', r: 'opt', n: 'Cardiology' },
      { i: 'o2', r: 'opt', n: 'Neurology' },
    ]);
    const target = targetFor(
      {
        fingerprint: 'opt|Neurology|f0|#0',
        locators: [
          { by: 'role-name', role: 'opt', name: 'Neurology' },
          { by: 'ordinal', role: 'opt', index: 1 },
        ],
        name: '{department}',
      },
      run,
      page,
    );
    expect(target).toEqual({
      fingerprint: 'opt|Cardiology|f0|#0',
      locators: [{ by: 'role-name', role: 'opt', name: 'Cardiology' }],
      name: 'Cardiology',
    });
  });
  it('fills a name template around the value, and the resolver takes that name exactly', () => {
    const state = running();
    const run = {
      ...(state.routineRun as RoutineRun),
      routine: {
        ...addPatient(),
        parameters: [{ name: 'item', example: 'INV-1003', source: 'goal' as const, steps: [0] }],
      },
      values: { item: 'INV-1004' },
    };
    const page = pageOf(
      ['INV-1003', 'INV-10045', 'INV-1004'].map((id, k) => ({
        i: `a${k}`,
        r: 'btn',
        n: `Approve ${id}`,
      })),
    );
    const saved: RoutineTarget = {
      fingerprint: 'btn|Approve INV-1003|f0|#0',
      locators: [
        { by: 'role-name', role: 'btn', name: 'Approve INV-1003' },
        { by: 'near', role: 'btn', text: 'INV-1003', side: 'after' },
        { by: 'ordinal', role: 'btn', index: 0 },
      ],
      name: 'Approve {item}',
    };
    const target = targetFor(saved, run, page);
    expect(target.fingerprint).toBe('btn|Approve INV-1004|f0|#0');
    expect(resolveTarget(target, page.tree)).toEqual({ id: 'a2', by: 'fingerprint' });
    // Not on the page: the step heals rather than clicking a look-alike.
    const without = page.tree.filter((n) => n.i !== 'a2');
    expect(resolveTarget(targetFor(saved, run, pageOf(without)), without)).toHaveProperty(
      'unresolved',
    );
  });
});
