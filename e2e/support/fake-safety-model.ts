// The fake model's everyday safety scenarios: sending a patient a message, a step
// the user approves, edits or rejects on the approval card; and signing in with a stored
// secret, which the model types by its placeholder as the prompt names it, never knowing it.
// A competent model: it reads the element list, chains the form, and respects a rejection.
import {
  act,
  chainOf,
  elementsIn,
  named as byName,
  plan,
  verdict,
  type Scenario,
} from '@tandem/agent/testing/model-double';

export const MESSAGE_GOAL = 'Send Maria Lopez the message: Your appointment is tomorrow at 9.';
export const MESSAGE_TEXT = 'Your appointment is tomorrow at 9.';
export const LOGIN_GOAL = 'Sign in to the clinic portal as maria.lopez';

const named = (prompt: string, name: string) => byName(elementsIn(prompt), name)[0];

/** Its answers chain the whole form, sure of it. */
const chained = (thought: string, chain: string[]) =>
  act(thought, chain[0] ?? '', { chain: chainOf(chain), confidence: 0.95 });

const sentMessage = (prompt: string) => /Message sent to Maria Lopez/.test(prompt);
const signedIn = (prompt: string) => /Done: login/.test(prompt);
const rejected = (prompt: string) => /The user rejected/.test(prompt);

function messageAction(prompt: string): unknown {
  if (sentMessage(prompt))
    return chained('The message was sent.', ['finish("The message was sent to Maria Lopez.")']);
  // The user said no on the approval card: respect it.
  if (rejected(prompt))
    return chained('The user does not want it sent.', [
      'finish("The message was not sent: you rejected it.")',
    ]);
  const to = named(prompt, 'To');
  const body = named(prompt, 'Message');
  const send = named(prompt, 'Send message');
  if (!to || !body || !send)
    return chained('The form is not there.', ['fail("No message form on this page.")']);
  return chained('Write the message and send it.', [
    ...(to.value === 'Maria Lopez' ? [] : [`select("${to.id}", "Maria Lopez")`]),
    ...(body.value ? [] : [`setValue("${body.id}", ${JSON.stringify(MESSAGE_TEXT)})`]),
    `click("${send.id}")`,
  ]);
}

function loginAction(prompt: string): unknown {
  if (signedIn(prompt))
    return chained('Signed in.', ['finish("You are signed in to the clinic portal.")']);
  // The secret as the prompt names it: a placeholder, the only thing the model ever sees.
  const placeholder = /(\{\{secret:[a-z0-9_]+\}\}) \(only on/.exec(prompt)?.[1];
  const user = named(prompt, 'Username');
  const password = named(prompt, 'Password');
  const signIn = named(prompt, 'Sign in');
  if (!placeholder || !user || !password || !signIn)
    return chained('I cannot sign in here.', ['fail("No stored password for this site.")']);
  return chained('Fill the sign-in form with the stored password and sign in.', [
    `setValue("${user.id}", "maria.lopez")`,
    `setValue("${password.id}", "${placeholder}")`,
    `click("${signIn.id}")`,
  ]);
}

const isMessage = (goal: string) => goal === MESSAGE_GOAL;

export const SAFETY: Scenario = {
  applies: ({ goal }) => goal === MESSAGE_GOAL || goal === LOGIN_GOAL,
  answers: {
    planning: ({ goal }) =>
      plan(goal, [
        isMessage(goal)
          ? 'Write the message to Maria Lopez and send it'
          : 'Fill the sign-in form and sign in',
      ]),
    action_generation: ({ goal, prompt }) =>
      isMessage(goal) ? messageAction(prompt) : loginAction(prompt),
    verification: ({ goal, prompt }) => {
      const done = isMessage(goal) ? sentMessage(prompt) : signedIn(prompt);
      return verdict(done, done ? 'The page confirms it.' : 'The action took effect.');
    },
    finalize: ({ goal, prompt }) => ({
      answer: !isMessage(goal)
        ? 'You are signed in to the clinic portal.'
        : sentMessage(prompt)
          ? 'The message was sent to Maria Lopez.'
          : 'The message was not sent: you rejected it.',
    }),
  },
};
