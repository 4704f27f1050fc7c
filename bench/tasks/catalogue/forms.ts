// Form fills: the request form's text, select, radio, checkbox and textarea in one chain, and
// the EMR's "Add new patient" form with its slow save, reached through the Patients menu or
// chained with navigation after it.
import { DEMO_API, DEMO_PAGES, type Patient } from '@tandem/demo-sites';
import { allOf, demoJson, fail, pass, pathIs, sameFields, textIn, type Check } from '../checks';
import type { BenchTask } from '../task';

interface Submission {
  sequence: number;
  values: Record<string, unknown>;
}

/** Exactly one request was submitted, with these values (as the demo API stored them). */
function submittedWith(expected: Record<string, unknown>): Check {
  return async (ctx) => {
    const { submissions } = await demoJson<{ submissions: Submission[] }>(
      ctx,
      DEMO_API.formSubmissions,
    );
    if (submissions.length !== 1) return fail(`${submissions.length} submissions`);
    return sameFields(submissions[0]?.values, expected);
  };
}

/** Exactly one patient of that name was added, with these fields. */
function patientSaved(expected: Partial<Patient> & { firstName: string; lastName: string }): Check {
  return async (ctx) => {
    const { patients } = await demoJson<{ patients: Patient[] }>(ctx, DEMO_API.patients);
    const found = patients.filter(
      (p) => p.firstName === expected.firstName && p.lastName === expected.lastName,
    );
    if (found.length !== 1) return fail(`${found.length} patients named ${expected.firstName}`);
    const result = sameFields(found[0] as unknown as Record<string, unknown>, expected);
    return result.ok ? pass(`saved as ${found[0]?.id}: ${result.detail}`) : result;
  };
}

const REQUEST_DONE = /received your request/i;

export const FORM_TASKS: BenchTask[] = [
  {
    id: 'form-request',
    category: 'form',
    start: DEMO_PAGES.form,
    goal: 'Request a follow-up appointment for Ann Lee, email ann@example.com',
    script: {
      kind: 'steps',
      intents: [
        {
          kind: 'fill',
          what: 'appointment request',
          fields: [
            { label: 'Full name', value: 'Ann Lee', role: 'inp' },
            { label: 'Email', value: 'ann@example.com', role: 'inp' },
            { label: 'Reason for visit', value: 'Follow-up', role: 'sel' },
          ],
        },
        { kind: 'click', target: 'Submit request' },
      ],
      done: REQUEST_DONE,
    },
    check: submittedWith({
      fullName: 'Ann Lee',
      email: 'ann@example.com',
      reason: 'follow-up',
      contactMethod: 'email',
      reminders: false,
    }),
  },
  {
    id: 'form-phone-reminders',
    category: 'form',
    start: DEMO_PAGES.form,
    goal: 'Book a vaccination for Bo Chen (bo@example.com): call by phone, and send reminders',
    script: {
      kind: 'steps',
      intents: [
        {
          kind: 'fill',
          what: 'appointment request',
          fields: [
            { label: 'Full name', value: 'Bo Chen', role: 'inp' },
            { label: 'Email', value: 'bo@example.com', role: 'inp' },
            { label: 'Reason for visit', value: 'Vaccination', role: 'sel' },
            { label: 'Phone', value: true, role: 'radio' },
            { label: 'Send me appointment reminders', value: true, role: 'chk' },
          ],
        },
        { kind: 'click', target: 'Submit request' },
      ],
      done: REQUEST_DONE,
    },
    check: submittedWith({
      fullName: 'Bo Chen',
      email: 'bo@example.com',
      reason: 'vaccination',
      contactMethod: 'phone',
      reminders: true,
    }),
  },
  {
    id: 'form-text-notes',
    category: 'form',
    start: DEMO_PAGES.form,
    goal: 'Ask for a check-up for Cy Diaz, cy@example.com, by text message, noting: mornings only',
    script: {
      kind: 'steps',
      intents: [
        {
          kind: 'fill',
          what: 'appointment request',
          fields: [
            { label: 'Full name', value: 'Cy Diaz', role: 'inp' },
            { label: 'Email', value: 'cy@example.com', role: 'inp' },
            { label: 'Text message', value: true, role: 'radio' },
            { label: 'Notes', value: 'Mornings only', role: 'txt' },
          ],
        },
        { kind: 'click', target: 'Submit request' },
      ],
      done: REQUEST_DONE,
    },
    check: submittedWith({
      fullName: 'Cy Diaz',
      reason: 'checkup',
      contactMethod: 'text',
      notes: 'Mornings only',
    }),
  },
  {
    id: 'emr-add-patient',
    category: 'form',
    start: DEMO_PAGES.emr,
    goal: 'Add a new patient named Jas Patel',
    script: {
      kind: 'steps',
      intents: [
        { kind: 'click', target: 'Patients' },
        { kind: 'click', target: 'New/Search' },
        {
          kind: 'fill',
          what: 'new patient',
          fields: [
            { label: 'First name', value: 'Jas' },
            { label: 'Last name', value: 'Patel' },
          ],
        },
        { kind: 'click', target: 'Save', role: 'btn' },
      ],
      done: /saved successfully/i,
    },
    check: patientSaved({ firstName: 'Jas', lastName: 'Patel' }),
  },
  {
    id: 'emr-patient-details',
    category: 'form',
    start: DEMO_PAGES.emrNewSearch,
    goal: 'Register patient Mia Wong, born 03/14/1990, female, phone 555-0199',
    script: {
      kind: 'steps',
      intents: [
        {
          kind: 'fill',
          what: 'new patient',
          fields: [
            { label: 'First name', value: 'Mia' },
            { label: 'Last name', value: 'Wong' },
            { label: 'Date of birth', value: '03/14/1990' },
            { label: 'Sex', value: 'Female', role: 'sel' },
            { label: 'Phone', value: '555-0199', role: 'inp' },
          ],
        },
        { kind: 'click', target: 'Save', role: 'btn' },
      ],
      done: /saved successfully/i,
    },
    check: patientSaved({
      firstName: 'Mia',
      lastName: 'Wong',
      dateOfBirth: '1990-03-14',
      sex: 'female',
      phone: '555-0199',
    }),
  },
  {
    id: 'emr-search',
    category: 'form',
    start: DEMO_PAGES.emrNewSearch,
    goal: 'Search the patients for Khan',
    script: {
      kind: 'steps',
      intents: [
        { kind: 'type', target: 'Search patients', text: 'Khan' },
        { kind: 'click', target: 'Search', role: 'btn' },
      ],
    },
    check: async (ctx) => {
      const rows = ctx.page.locator('#patient-results tbody tr');
      const texts = (await rows.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
      return texts.length === 1 && texts[0]?.includes('Aisha Khan')
        ? pass(`1 result: ${texts[0]}`)
        : fail(`${texts.length} results: ${texts.join(' | ')}`);
    },
  },
  {
    id: 'emr-add-then-recent',
    category: 'form',
    start: DEMO_PAGES.emrNewSearch,
    goal: 'Add patient Lee Park, then open the recent patients page',
    script: {
      kind: 'steps',
      intents: [
        {
          kind: 'fill',
          what: 'new patient',
          fields: [
            { label: 'First name', value: 'Lee' },
            { label: 'Last name', value: 'Park' },
          ],
        },
        { kind: 'click', target: 'Save', role: 'btn' },
        { kind: 'click', target: 'Patients' },
        { kind: 'click', target: 'Recent' },
      ],
    },
    check: allOf(
      patientSaved({ firstName: 'Lee', lastName: 'Park' }),
      pathIs(DEMO_PAGES.emrRecent),
      async (ctx) => {
        const first = await textIn(ctx, '#recent-patients li');
        return first.startsWith('Lee Park') ? pass(`newest: ${first}`) : fail(`newest: "${first}"`);
      },
    ),
  },
];
