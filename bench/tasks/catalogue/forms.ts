// Form fills: the request form's text, select, radio, checkbox and textarea in one chain, and
// the EMR's "Add new patient" form with its slow save, reached through the Patients menu or
// chained with navigation after it.
import { DEMO_API, DEMO_PAGES, type Patient } from '@tandem/demo-sites';
import { allOf, demoJson, fail, pass, pathIs, sameFields, textIn, type Check } from '../checks';
import type { Intent } from '@tandem/agent/testing/model-double';
import type { BenchTask, TaskGoal } from '../task';

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

/**
 * How a form's submit goes on a site variant (catalogue/variants.ts): the button's name, and
 * whether a confirmation dialog asks first. The plain sites: the defaults.
 */
export interface SubmitWay {
  button?: string;
  confirm?: boolean;
}

const submitIntents = (way: SubmitWay, plain: string, role?: string): Intent[] => [
  { kind: 'click', target: way.button ?? plain, ...(role ? { role } : {}) },
  ...(way.confirm ? [{ kind: 'click' as const, target: 'Confirm' }] : []),
];

/** form-request's goal for a name and email; its other values never change. */
export function requestFollowUp(name: string, email: string, way: SubmitWay = {}): TaskGoal {
  return {
    goal: `Request a follow-up appointment for ${name}, email ${email}`,
    script: {
      kind: 'steps',
      intents: [
        {
          kind: 'fill',
          what: 'appointment request',
          fields: [
            { label: 'Full name', value: name, role: 'inp' },
            { label: 'Email', value: email, role: 'inp' },
            { label: 'Reason for visit', value: 'Follow-up', role: 'sel' },
          ],
        },
        ...submitIntents(way, 'Submit request'),
      ],
      done: REQUEST_DONE,
    },
    check: submittedWith({
      fullName: name,
      email,
      reason: 'follow-up',
      contactMethod: 'email',
      reminders: false,
    }),
  };
}

function bookVaccination(name: string, email: string): TaskGoal {
  return {
    goal: `Book a vaccination for ${name} (${email}): call by phone, and send reminders`,
    script: {
      kind: 'steps',
      intents: [
        {
          kind: 'fill',
          what: 'appointment request',
          fields: [
            { label: 'Full name', value: name, role: 'inp' },
            { label: 'Email', value: email, role: 'inp' },
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
      fullName: name,
      email,
      reason: 'vaccination',
      contactMethod: 'phone',
      reminders: true,
    }),
  };
}

// The note keeps its words on the rerun: the script types it capitalised, the goal does not,
// so it is not a value the goal and the page share.
function checkUpByText(name: string, email: string): TaskGoal {
  return {
    goal: `Ask for a check-up for ${name}, ${email}, by text message, noting: mornings only`,
    script: {
      kind: 'steps',
      intents: [
        {
          kind: 'fill',
          what: 'appointment request',
          fields: [
            { label: 'Full name', value: name, role: 'inp' },
            { label: 'Email', value: email, role: 'inp' },
            { label: 'Text message', value: true, role: 'radio' },
            { label: 'Notes', value: 'Mornings only', role: 'txt' },
          ],
        },
        { kind: 'click', target: 'Submit request' },
      ],
      done: REQUEST_DONE,
    },
    check: submittedWith({
      fullName: name,
      reason: 'checkup',
      contactMethod: 'text',
      notes: 'Mornings only',
    }),
  };
}

/** emr-add-patient's goal for a name: Patients, New/Search, the two names, Save. */
export function addPatient(firstName: string, lastName: string, way: SubmitWay = {}): TaskGoal {
  return {
    goal: `Add a new patient named ${firstName} ${lastName}`,
    script: {
      kind: 'steps',
      intents: [
        { kind: 'click', target: 'Patients' },
        { kind: 'click', target: 'New/Search' },
        {
          kind: 'fill',
          what: 'new patient',
          fields: [
            { label: 'First name', value: firstName },
            { label: 'Last name', value: lastName },
          ],
        },
        ...submitIntents(way, 'Save', 'btn'),
      ],
      done: /saved successfully/i,
    },
    check: patientSaved({ firstName, lastName }),
  };
}

// Sex keeps its value on the rerun: the goal says "female", the option reads "Female".
function registerPatient(
  firstName: string,
  lastName: string,
  born: { us: string; iso: string },
  phone: string,
): TaskGoal {
  return {
    goal: `Register patient ${firstName} ${lastName}, born ${born.us}, female, phone ${phone}`,
    script: {
      kind: 'steps',
      intents: [
        {
          kind: 'fill',
          what: 'new patient',
          fields: [
            { label: 'First name', value: firstName },
            { label: 'Last name', value: lastName },
            { label: 'Date of birth', value: born.us },
            { label: 'Sex', value: 'Female', role: 'sel' },
            { label: 'Phone', value: phone, role: 'inp' },
          ],
        },
        { kind: 'click', target: 'Save', role: 'btn' },
      ],
      done: /saved successfully/i,
    },
    check: patientSaved({
      firstName,
      lastName,
      dateOfBirth: born.iso,
      sex: 'female',
      phone,
    }),
  };
}

/** Search for a seed patient's last name: exactly that patient is listed. */
function searchPatients(lastName: string, fullName: string): TaskGoal {
  return {
    goal: `Search the patients for ${lastName}`,
    script: {
      kind: 'steps',
      intents: [
        { kind: 'type', target: 'Search patients', text: lastName },
        { kind: 'click', target: 'Search', role: 'btn' },
      ],
    },
    check: async (ctx) => {
      const rows = ctx.page.locator('#patient-results tbody tr');
      const texts = (await rows.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
      return texts.length === 1 && texts[0]?.includes(fullName)
        ? pass(`1 result: ${texts[0]}`)
        : fail(`${texts.length} results: ${texts.join(' | ')}`);
    },
  };
}

function addThenRecent(firstName: string, lastName: string): TaskGoal {
  const name = `${firstName} ${lastName}`;
  return {
    goal: `Add patient ${name}, then open the recent patients page`,
    script: {
      kind: 'steps',
      intents: [
        {
          kind: 'fill',
          what: 'new patient',
          fields: [
            { label: 'First name', value: firstName },
            { label: 'Last name', value: lastName },
          ],
        },
        { kind: 'click', target: 'Save', role: 'btn' },
        { kind: 'click', target: 'Patients' },
        { kind: 'click', target: 'Recent' },
      ],
    },
    check: allOf(
      patientSaved({ firstName, lastName }),
      pathIs(DEMO_PAGES.emrRecent),
      async (ctx) => {
        const first = await textIn(ctx, '#recent-patients li');
        return first.startsWith(name) ? pass(`newest: ${first}`) : fail(`newest: "${first}"`);
      },
    ),
  };
}

export const FORM_TASKS: BenchTask[] = [
  {
    id: 'form-request',
    category: 'form',
    start: DEMO_PAGES.form,
    ...requestFollowUp('Ann Lee', 'ann@example.com'),
    rerun: requestFollowUp('Raj Iyer', 'raj@example.com'),
  },
  {
    id: 'form-phone-reminders',
    category: 'form',
    start: DEMO_PAGES.form,
    ...bookVaccination('Bo Chen', 'bo@example.com'),
    rerun: bookVaccination('Di Fox', 'di@example.com'),
  },
  {
    id: 'form-text-notes',
    category: 'form',
    start: DEMO_PAGES.form,
    ...checkUpByText('Cy Diaz', 'cy@example.com'),
    rerun: checkUpByText('Eve Ng', 'eve@example.com'),
  },
  {
    id: 'emr-add-patient',
    category: 'form',
    start: DEMO_PAGES.emr,
    ...addPatient('Jas', 'Patel'),
    rerun: addPatient('Ana', 'Silva'),
  },
  {
    id: 'emr-patient-details',
    category: 'form',
    start: DEMO_PAGES.emrNewSearch,
    ...registerPatient('Mia', 'Wong', { us: '03/14/1990', iso: '1990-03-14' }, '555-0199'),
    rerun: registerPatient('Ida', 'Berg', { us: '07/02/1985', iso: '1985-07-02' }, '555-0123'),
  },
  {
    id: 'emr-search',
    category: 'form',
    start: DEMO_PAGES.emrNewSearch,
    ...searchPatients('Khan', 'Aisha Khan'),
    rerun: searchPatients('Smith', 'John Smith'),
  },
  {
    id: 'emr-add-then-recent',
    category: 'form',
    start: DEMO_PAGES.emrNewSearch,
    ...addThenRecent('Lee', 'Park'),
    rerun: addThenRecent('Noa', 'Kim'),
  },
];
