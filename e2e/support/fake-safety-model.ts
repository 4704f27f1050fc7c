// The fake model's everyday safety scenarios, as intent scripts: sending a patient a message, a
// step the user approves, edits or rejects on the approval card (a rejection is respected); and
// signing in with a stored secret, which the model types by its placeholder as the prompt names
// it, never knowing it. Each is one plan step: the form chained with its button.
import { scriptAnswers, type Scenario, type StepsScript } from '@tandem/agent/testing/model-double';

export const MESSAGE_GOAL = 'Send Maria Lopez the message: Your appointment is tomorrow at 9.';
export const MESSAGE_TEXT = 'Your appointment is tomorrow at 9.';
export const LOGIN_GOAL = 'Sign in to the clinic portal as maria.lopez';

const MESSAGE: StepsScript = {
  kind: 'steps',
  intents: [
    {
      kind: 'fill',
      what: 'message',
      step: 'Write the message to Maria Lopez and send it',
      fields: [
        { label: 'To', value: 'Maria Lopez' },
        { label: 'Message', value: MESSAGE_TEXT },
      ],
      press: 'Send message',
    },
  ],
  done: /Message sent to Maria Lopez/,
  says: {
    done: 'The message was sent to Maria Lopez.',
    rejected: 'The message was not sent: you rejected it.',
  },
};

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

export const SAFETY: Scenario = {
  applies: ({ goal }) => goal === MESSAGE_GOAL || goal === LOGIN_GOAL,
  // The other nodes are answered as for every goal (fake-form-model.ts).
  answers: scriptAnswers((goal) => (goal === MESSAGE_GOAL ? MESSAGE : LOGIN), {
    outcome_prediction: undefined,
    direct_action: undefined,
    replanning: undefined,
  }),
};
