// The fake model's default scenarios, as intent scripts: the EMR's new patient ("… patient …":
// Jas Patel, saved at the plan's last step, which names no element so that action generation
// decides it; the call the Stop and server-trouble tests hold) and the request form (every
// field in one chain, then Submit as a step of its own). Like a model, it reads the element
// ids from the prompt.
import {
  directAction,
  scriptAnswers,
  USUAL_ANSWERS,
  type Answers,
  type FieldValue,
  type StepsScript,
} from '@tandem/agent/testing/model-double';

/** The request form's five fields as the chain fills them. */
export const FORM_FIELDS: FieldValue[] = [
  { label: 'Full name', role: 'inp', value: 'Ann Lee' },
  { label: 'Email', role: 'inp', value: 'ann@example.com' },
  { label: 'Reason for visit', role: 'sel', value: 'Follow-up' },
  { label: 'Phone', role: 'radio', value: true },
  { label: 'Notes', role: 'txt', value: 'Please call after 5pm' },
];

/** Saved or submitted, or still saving (a spinner is no result). */
const PAGE = {
  done: /saved successfully|received your request|Request submitted/i,
  busy: /Saving…|spinner/i,
};

const isPatient = (goal: string) => /patient/i.test(goal);

export const PATIENT: StepsScript = {
  kind: 'steps',
  intents: [
    { kind: 'click', target: 'Patients' },
    { kind: 'click', target: 'New/Search' },
    { kind: 'type', target: 'First name', text: 'Jas' },
    { kind: 'type', target: 'Last name', text: 'Patel' },
    { kind: 'click', target: 'Save', step: 'Save the new patient' },
  ],
  ...PAGE,
};

const REQUEST: StepsScript = {
  kind: 'steps',
  intents: [
    {
      kind: 'fill',
      what: 'request',
      step: 'Fill in the request form fields',
      fields: FORM_FIELDS,
      press: false,
    },
    { kind: 'click', target: 'Submit request' },
  ],
  ...PAGE,
};

/** Like a model would: the goal as done, with what the page confirmed. */
function finalAnswer(prompt: string, goal: string): string {
  if (!isPatient(goal)) return `Done: ${goal}.`;
  const confirmed = /saved successfully|received your request/i.exec(prompt)?.[0];
  return `Jas Patel was added as a new patient${confirmed ? ` (the EMR says “${confirmed}”)` : ''}.`;
}

export const FORM: Answers = {
  ...USUAL_ANSWERS,
  ...scriptAnswers((goal) => (isPatient(goal) ? PATIENT : REQUEST), {
    // As these scenarios always answered: re-planning gives the whole plan again, and the
    // prediction expects no new page (every other scenario falls back on it).
    replanning: undefined,
    outcome_prediction: {
      description: 'The page responds to the action',
      urlShouldChange: false,
      nextGoal: null,
    },
    finalize: ({ prompt, goal }) => ({ answer: finalAnswer(prompt, goal) }),
    // A SIMPLE command ("click Save") names its target itself, whatever the goal.
    direct_action: ({ goal, prompt }) => {
      const target = /^(?:click|press|open) (.*)/i.exec(goal)?.[1] ?? '';
      return directAction([{ kind: 'click', target }], prompt);
    },
  }),
};
