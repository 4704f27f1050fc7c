import type { Plan, PlanStep, SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import {
  dashboardInteractive,
  dashboardRich,
  emrPatientsMenu,
  newSearchInteractive,
} from './emr-fixtures';
import { stepIntent, validatePlan } from './plan-validator';

const NEW_URL = 'https://emr.test/emr/patients/new';

/** "Add patient Jas Smith", as the planner writes it; `done` steps are completed. */
function addPatientPlan(done: number, descriptions?: string[]): Plan {
  const steps = descriptions ?? [
    "Click 'Patients'",
    "Click 'New/Search'",
    'Type Jas into First name',
    'Type Smith into Last name',
    'Select Female from Sex',
    "Click 'Save'",
  ];
  return {
    goal: 'Add patient Jas Smith',
    currentStepIndex: done,
    steps: steps.map((description, index): PlanStep => ({
      index,
      description,
      status: index < done ? 'completed' : index === done ? 'active' : 'pending',
      refinable: true,
    })),
  };
}

const validate = (
  plan: Plan,
  tree: readonly SemanticNodeV3[],
  trigger: 'url_path_changed' | 'dom_changed' = 'url_path_changed',
) => validatePlan({ plan, currentStepIndex: plan.currentStepIndex, tree, url: NEW_URL, trigger });

describe('stepIntent', () => {
  it('reads the target a step names, with the command parser', () => {
    expect(stepIntent("Click 'Patients'")).toEqual({ kind: 'click', target: 'Patients' });
    expect(stepIntent('Type Jas into First name')).toMatchObject({
      kind: 'type',
      target: 'First name',
    });
    expect(stepIntent("Type 'Jas' into the 'First name' field")).toMatchObject({
      target: 'First name',
    });
    expect(stepIntent('Select Female from Sex')).toMatchObject({ kind: 'select', target: 'Sex' });
  });

  it('takes the first clause of a step that packs two actions', () => {
    expect(stepIntent("Click 'Save' and then wait for the confirmation")).toEqual({
      kind: 'click',
      target: 'Save',
    });
  });

  it('finds no target in steps that name no element', () => {
    expect(stepIntent('Press Enter')).toBeNull();
    expect(stepIntent('Go back')).toBeNull();
    expect(stepIntent("Fill the form with the patient's details")).toBeNull();
    expect(stepIntent('Make sure the patient appears in the list')).toBeNull();
  });
});

describe('validatePlan', () => {
  it('continues when the next step target is on the new page', () => {
    const r = validate(addPatientPlan(2), newSearchInteractive);
    expect(r).toMatchObject({ verdict: 'continue', missingTargets: [] });
    expect(r.reason).toMatch(/"First name" is here/);
    expect(r.reason).toMatch(/url path changed/);
  });

  it('continues with the menu open: later targets are not expected yet', () => {
    // After "Click 'Patients'" the dashboard shows the menu; the form comes after New/Search.
    const r = validate(addPatientPlan(1), [...dashboardRich, ...emrPatientsMenu], 'dom_changed');
    expect(r.verdict).toBe('continue');
    expect(r.missingTargets).toEqual(['First name', 'Last name', 'Sex', 'Save']);
  });

  it('continues when the next step names no element', () => {
    const plan = addPatientPlan(0, ['Press Enter', "Click 'Save'"]);
    expect(validate(plan, dashboardInteractive).verdict).toBe('continue');
  });

  it('continues when no steps remain', () => {
    const plan = addPatientPlan(6);
    expect(
      validatePlan({ plan, currentStepIndex: 6, tree: [], url: NEW_URL, trigger: 'dom_changed' }),
    ).toMatchObject({ verdict: 'continue', missingTargets: [] });
  });

  it('modifies when the next target is gone but later ones are here (the app skipped ahead)', () => {
    // The plan expects to click New/Search in the menu, but the add-patient form is already
    // open (the menu closed on navigation): drop the step and go on with the form.
    const r = validate(addPatientPlan(1), newSearchInteractive);
    expect(r.verdict).toBe('modify');
    expect(r.missingTargets).toEqual(['New/Search']);
    expect(r.reason).toMatch(/"New\/Search".*not on the page.*"First name"/);
  });

  it('modifies when the page renamed the field the next step types into', () => {
    const renamed = newSearchInteractive.map((n) =>
      n.n === 'First name' ? { ...n, n: 'Given name' } : n,
    );
    const r = validate(addPatientPlan(2), renamed, 'dom_changed');
    expect(r).toMatchObject({ verdict: 'modify', missingTargets: ['First name'] });
  });

  it('regenerates when none of the remaining targets exists (another page)', () => {
    const r = validate(addPatientPlan(2), dashboardRich);
    expect(r.verdict).toBe('regenerate');
    expect(r.missingTargets).toEqual(['First name', 'Last name', 'Sex', 'Save']);
    expect(r.reason).toMatch(/none of the remaining targets/);
  });

  it('regenerates when the next target is missing and later steps name none', () => {
    const plan = addPatientPlan(0, ["Click 'Save'", 'Press Enter']);
    expect(validate(plan, dashboardInteractive)).toMatchObject({
      verdict: 'regenerate',
      missingTargets: ['Save'],
    });
  });

  it('matches names case-insensitively and counts disabled or covered targets as present', () => {
    const plan = addPatientPlan(0, ["click 'save'"]);
    const tree: SemanticNodeV3[] = [
      { i: '1', r: 'btn', n: 'SAVE', s: 'disabled' },
      { i: '2', r: 'btn', n: 'Cancel', occ: true },
    ];
    expect(validate(plan, tree).verdict).toBe('continue');
    expect(validate(addPatientPlan(0, ["Click 'Cancel'"]), tree).verdict).toBe('continue');
  });

  it('requires a compatible role: a heading or a button named First name is no text field', () => {
    const tree: SemanticNodeV3[] = [
      { i: '1', r: 'heading', n: 'First name' },
      { i: '2', r: 'btn', n: 'First name' },
      { i: '3', r: 'heading', n: 'Patients' },
    ];
    expect(validate(addPatientPlan(2), tree).verdict).toBe('regenerate');
    expect(validate(addPatientPlan(0, ["Click 'Patients'"]), tree).verdict).toBe('regenerate');
  });

  it('skips steps already completed past the index and lists each missing target once', () => {
    const plan = addPatientPlan(0, ["Click 'Save'", "Click 'Close'", "Click 'Save'"]);
    const [, second] = plan.steps;
    if (second) second.status = 'completed';
    const r = validate(plan, dashboardInteractive);
    expect(r.missingTargets).toEqual(['Save']);
  });

  it('rejects a negative step index', () => {
    expect(() =>
      validatePlan({
        plan: addPatientPlan(0),
        currentStepIndex: -1,
        tree: [],
        url: NEW_URL,
        trigger: 'dom_changed',
      }),
    ).toThrow(RangeError);
  });
});
