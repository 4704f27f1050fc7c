// The fake model's everyday scenarios: an intent or data script per goal (SCRIPTS), answered by
// the engine's scripted model, which reads the element ids from the prompt as a model does.
// - A message to Maria Lopez, the rest of the goal its text: one step (the form chained with its
//   button) that the user approves, edits or rejects on the approval card (a rejection is
//   respected). A routine rerun with another text hands over to the same script, so what the
//   agent does after a hand-over is what a model did the first time.
// - Signing in with a stored secret, which the model types by its placeholder as the prompt
//   names it, never knowing it; one step too.
// - Following the "Verify your identity" link, which leads to the other demo host (the task's
//   allowed sites decide whether it may).
// - The catalogue and the job board (docs/specs.md, "extraction overhaul", "streaming
//   extraction"): the server extracts, replays, stores, deduplicates and stops at the limit.
// - Any other goal: the EMR's new patient ("… patient …": Jas Patel, saved at the plan's last
//   step, which names no element so that action generation decides it; the call the Stop and
//   server-trouble tests hold), else the request form (every field in one chain, then Submit as
//   a step of its own).
import { jobCardsIn, PRODUCT_LIST_SCHEMA } from '@tandem/demo-sites';
import {
  answerOf,
  directAction,
  plan,
  scriptAnswers,
  USUAL_ANSWERS,
  verdict,
  type Answers,
  type ModelCall,
  type Scenario,
  type Script,
  type StepsScript,
} from '@tandem/agent/testing/model-double';

/** Every goal that starts so sends Maria Lopez the rest of the goal as the message. */
export const MESSAGE_PREFIX = 'Send Maria Lopez the message: ';
export const MESSAGE_TEXT = 'Your appointment is tomorrow at 9.';
export const MESSAGE_GOAL = `${MESSAGE_PREFIX}${MESSAGE_TEXT}`;
/** What the model answers once the user rejected the send. */
export const MESSAGE_REJECTED = 'The message was not sent: you rejected it.';
export const LOGIN_GOAL = 'Sign in to the clinic portal as maria.lopez';
// Not a one-click command ("open the … link"): those run without the model or a routine anyway,
// so no routine would ever be asked for it.
export const OPEN_LINK_GOAL = 'Verify my identity through the link on this page';

const message = (goal: string): StepsScript => ({
  kind: 'steps',
  intents: [
    {
      kind: 'fill',
      what: 'message',
      step: 'Write the message to Maria Lopez and send it',
      fields: [
        { label: 'To', value: 'Maria Lopez' },
        { label: 'Message', value: goal.slice(MESSAGE_PREFIX.length) },
      ],
      press: 'Send message',
    },
  ],
  done: /Message sent to Maria Lopez/,
  says: { done: 'The message was sent to Maria Lopez.', rejected: MESSAGE_REJECTED },
});

const LOGIN: StepsScript = {
  kind: 'steps',
  intents: [
    {
      kind: 'fill',
      what: 'sign-in',
      step: 'Fill the sign-in form and sign in',
      fields: [
        { label: 'Username', value: 'maria.lopez' },
        // The secret as the prompt names it: a placeholder, the only thing the model ever sees.
        {
          label: 'Password',
          value: (prompt) => /(\{\{secret:[a-z0-9_]+\}\}) \(only on/.exec(prompt)?.[1] ?? null,
        },
      ],
      press: 'Sign in',
    },
  ],
  done: /Done: login/,
  says: { done: 'You are signed in to the clinic portal.' },
};

const OPEN_LINK: StepsScript = {
  kind: 'steps',
  // The plan step names no element, so the model proposes the click (as it does after a
  // routine hands over) rather than step refinement: both runs end by the same path.
  intents: [
    { kind: 'click', target: 'Verify your identity', step: 'Follow the identity check link' },
  ],
  done: /Thanks/,
  says: { done: 'The link was opened.' },
};

/** Saved or submitted, or still saving (a spinner is no result). */
const PAGE = {
  done: /saved successfully|received your request|Request submitted/i,
  busy: /Saving…|spinner/i,
};

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
      fields: [
        { label: 'Full name', role: 'inp', value: 'Ann Lee' },
        { label: 'Email', role: 'inp', value: 'ann@example.com' },
        { label: 'Reason for visit', role: 'sel', value: 'Follow-up' },
        { label: 'Phone', role: 'radio', value: true },
        { label: 'Notes', role: 'txt', value: 'Please call after 5pm' },
      ],
      press: false,
    },
    { kind: 'click', target: 'Submit request' },
  ],
  ...PAGE,
};

/** The catalogue's products read from the grid alone: the pager sits outside what it reads. */
export const GRID_GOAL = 'Extract every product in the grid as JSON with name, price and rating';

/**
 * The goals with a script of their own, the first that fits. fake-gemini.ts tries them before
 * its other scenarios: signing in happens on a page of the injection suite's site, and the
 * link is followed on an attack page, because the user asked to.
 */
const SCRIPTS: [fits: (goal: string) => boolean, script: (goal: string) => Script][] = [
  [(goal) => goal.startsWith(MESSAGE_PREFIX), message],
  [(goal) => goal === LOGIN_GOAL, () => LOGIN],
  [(goal) => goal === OPEN_LINK_GOAL, () => OPEN_LINK],
  [
    (goal) => goal === GRID_GOAL,
    () => ({
      kind: 'extract',
      query: 'every product with name, price and rating',
      schema: PRODUCT_LIST_SCHEMA,
      allPages: true,
      cssSelector: '#product-grid',
    }),
  ],
  [
    (goal) => /every product/i.test(goal),
    () => ({
      kind: 'extract',
      query: 'every product with name, price and rating',
      schema: PRODUCT_LIST_SCHEMA,
      allPages: true,
    }),
  ],
  [
    (goal) => /job listings/i.test(goal),
    () => ({ kind: 'collect', selector: '#job-list', type: 'job' }),
  ],
];

const ownScript = (goal: string) => SCRIPTS.find(([fits]) => fits(goal))?.[1](goal);
const isPatient = (goal: string) => /patient/i.test(goal);
const scriptFor = (goal: string) => ownScript(goal) ?? (isPatient(goal) ? PATIENT : REQUEST);

const SCRIPTED = scriptAnswers(
  scriptFor,
  {
    // As these scenarios always answered: re-planning gives the whole plan again, and the
    // prediction expects no new page (every other scenario falls back on it).
    replanning: undefined,
    outcome_prediction: {
      description: 'The page responds to the action',
      urlShouldChange: false,
      nextGoal: null,
    },
    // A SIMPLE command ("click Save") names its target itself, whatever the goal.
    direct_action: ({ goal, prompt }) => {
      const target = /^(?:click|press|open) (.*)/i.exec(goal)?.[1] ?? '';
      return directAction([{ kind: 'click', target }], prompt);
    },
  },
  jobCardsIn,
);

/** The catalogue's and the job board's plans, one step each. */
const DATA_PLANS: Partial<Record<Script['kind'], object>> = {
  extract: plan('Extract every product', ['Extract the products of each page, page by page']),
  collect: plan('Extract job listings', ['Collect every job card, page by page']),
};

/** Like a model would: the goal as done, with what the page confirmed. */
function finalAnswer(script: Script, { goal, prompt }: ModelCall): string {
  // The catalogue's is the count its finish() gave.
  if (script.kind === 'extract')
    return /finish\("([^"]*)"\)/.exec(prompt)?.[1] ?? 'Extracted every product.';
  if (!isPatient(goal)) return `Done: ${goal}.`;
  const confirmed = /saved successfully|received your request/i.exec(prompt)?.[0];
  return `Jas Patel was added as a new patient${confirmed ? ` (the EMR says “${confirmed}”)` : ''}.`;
}

/** As scripted, but where the scenarios these scripts replaced always answered otherwise. */
const ANSWERS: Answers = {
  ...SCRIPTED,
  planning: (call) => DATA_PLANS[scriptFor(call.goal).kind] ?? answerOf(SCRIPTED, call),
  // The job board's goal is met by the server's limit, never by a page.
  verification: (call) =>
    scriptFor(call.goal).kind === 'collect'
      ? verdict(false, 'The next page of jobs is shown.', 0.9)
      : answerOf(SCRIPTED, call),
  // Only the scripts that say what they did have their own final answer.
  finalize: (call) => {
    const script = scriptFor(call.goal);
    return script.kind === 'steps' && script.says
      ? answerOf(SCRIPTED, call)
      : { answer: finalAnswer(script, call) };
  },
};

/**
 * The goals of SCRIPTS, before the other scenarios. Context analysis, the critic and correction
 * are left to them (the injection suite's obeying model corrects on its pages).
 */
export const EVERYDAY: Scenario = {
  applies: ({ goal }) => ownScript(goal) !== undefined,
  answers: ANSWERS,
};

/** Every other goal's answers, and the nodes the other scenarios leave (the default). */
export const FORM: Answers = { ...USUAL_ANSWERS, ...ANSWERS };
