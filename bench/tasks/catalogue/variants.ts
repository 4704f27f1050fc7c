// The site variants `--routines` runs after the first run of their base task, each with values
// of its own: one change to the page the routine was recorded on (it should rerun, healing the
// changed step with at most one model call), and one page that looks the same on another path
// but does something else (the routine must be declined and the full agent do the goal).
import { DEMO_API, DEMO_PAGES, DEMO_VARIANTS, type DemoVariant } from '@tandem/demo-sites';
import { allOf, demoJson, fail, pass } from '../checks';
import type { TaskGoal } from '../task';
import { addPatient, requestFollowUp } from './forms';

export interface VariantRun extends TaskGoal {
  /** `<base task>/<variant>`: the table's first column. */
  id: string;
  /** The task whose first run recorded the routine. */
  base: 'emr-add-patient' | 'form-request';
  variant: DemoVariant;
  /** What changed, as the report says it. */
  change: string;
  /** The start page when it is not the base task's (the staff form). */
  start?: string;
  /**
   * `heal`: the routine should run, with one model call at most per changed step, and store a
   * new version. `decline`: the routine must not run at all; the full agent does the goal.
   */
  expect: 'heal' | 'decline';
  /** Routine steps the change touches (the submit click, or the form's fill). */
  changedSteps: number;
}

/** The staff form saved no one: the patient went where the goal said. */
const noStaffAdded = async (ctx: Parameters<TaskGoal['check']>[0]) => {
  const { staff } = await demoJson<{ staff: unknown[] }>(ctx, DEMO_API.staff);
  return staff.length === 0 ? pass('no staff member added') : fail(`${staff.length} staff added`);
};

const heal = (base: VariantRun['base'], variant: DemoVariant, goal: TaskGoal): VariantRun => ({
  id: `${base}/${variant}`,
  base,
  variant,
  change: DEMO_VARIANTS[variant],
  expect: 'heal',
  changedSteps: 1,
  ...goal,
});

const staffPage = addPatient('Kim', 'Ode');

export const VARIANT_RUNS: readonly VariantRun[] = [
  heal('emr-add-patient', 'rename-submit', addPatient('Ola', 'Berg', { button: 'Save patient' })),
  heal('emr-add-patient', 'extra-field', addPatient('Uma', 'Rao')),
  heal('emr-add-patient', 'move-submit', addPatient('Ivo', 'Marx')),
  heal('emr-add-patient', 'confirm-dialog', addPatient('Zoe', 'Hart', { confirm: true })),
  {
    id: 'emr-add-patient/staff-form',
    base: 'emr-add-patient',
    variant: 'staff-form',
    change: DEMO_VARIANTS['staff-form'],
    // The goal reads as the routine's template; only the page (its path) differs. The full
    // agent leaves the staff form alone and adds the patient where patients are added.
    start: DEMO_PAGES.emrStaffNew,
    expect: 'decline',
    changedSteps: 0,
    ...staffPage,
    check: allOf(staffPage.check, noStaffAdded),
  },
  heal(
    'form-request',
    'rename-submit',
    requestFollowUp('Ben Ruiz', 'ben@example.com', { button: 'Request appointment' }),
  ),
  heal('form-request', 'extra-field', requestFollowUp('Ada Moss', 'ada@example.com')),
  heal('form-request', 'move-submit', requestFollowUp('Eli Park', 'eli@example.com')),
  heal(
    'form-request',
    'confirm-dialog',
    requestFollowUp('Gus Lamb', 'gus@example.com', { confirm: true }),
  ),
];
