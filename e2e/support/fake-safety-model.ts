// The fake model's everyday safety scenarios: sending a patient a message, a step
// the user approves, edits or rejects on the approval card; and signing in with a stored
// secret, which the model types by its placeholder as the prompt names it, never knowing it.
// A competent model: it reads the element list, chains the form, and respects a rejection.
import { elementsIn, named as byName } from '@tandem/agent/testing/model-double';

export const MESSAGE_GOAL = 'Send Maria Lopez the message: Your appointment is tomorrow at 9.';
export const MESSAGE_TEXT = 'Your appointment is tomorrow at 9.';
export const LOGIN_GOAL = 'Sign in to the clinic portal as maria.lopez';

export const isSafetyGoal = (goal: string): boolean => goal === MESSAGE_GOAL || goal === LOGIN_GOAL;

const named = (prompt: string, name: string) => byName(elementsIn(prompt), name)[0];

const act = (thought: string, action: string, chain: string[] = []) => ({
  thought,
  action,
  chain:
    chain.length > 1 ? chain.map((a, i) => ({ action: a, description: `step ${i + 1}` })) : null,
  confidence: 0.95,
});

const sentMessage = (prompt: string) => /Message sent to Maria Lopez/.test(prompt);
const signedIn = (prompt: string) => /Done: login/.test(prompt);
const rejected = (prompt: string) => /The user rejected/.test(prompt);

function messageAction(prompt: string): unknown {
  if (sentMessage(prompt))
    return act('The message was sent.', 'finish("The message was sent to Maria Lopez.")');
  // The user said no on the approval card: respect it.
  if (rejected(prompt))
    return act(
      'The user does not want it sent.',
      'finish("The message was not sent: you rejected it.")',
    );
  const to = named(prompt, 'To');
  const body = named(prompt, 'Message');
  const send = named(prompt, 'Send message');
  if (!to || !body || !send)
    return act('The form is not there.', 'fail("No message form on this page.")');
  const chain = [
    ...(to.value === 'Maria Lopez' ? [] : [`select("${to.id}", "Maria Lopez")`]),
    ...(body.value ? [] : [`setValue("${body.id}", ${JSON.stringify(MESSAGE_TEXT)})`]),
    `click("${send.id}")`,
  ];
  return act('Write the message and send it.', chain[0] ?? '', chain);
}

function loginAction(prompt: string): unknown {
  if (signedIn(prompt))
    return act('Signed in.', 'finish("You are signed in to the clinic portal.")');
  // The secret as the prompt names it: a placeholder, the only thing the model ever sees.
  const placeholder = /(\{\{secret:[a-z0-9_]+\}\}) \(only on/.exec(prompt)?.[1];
  const user = named(prompt, 'Username');
  const password = named(prompt, 'Password');
  const signIn = named(prompt, 'Sign in');
  if (!placeholder || !user || !password || !signIn)
    return act('I cannot sign in here.', 'fail("No stored password for this site.")');
  const chain = [
    `setValue("${user.id}", "maria.lopez")`,
    `setValue("${password.id}", "${placeholder}")`,
    `click("${signIn.id}")`,
  ];
  return act('Fill the sign-in form with the stored password and sign in.', chain[0] ?? '', chain);
}

export function answerSafety(node: string, prompt: string, goal: string): unknown {
  const message = goal === MESSAGE_GOAL;
  switch (node) {
    case 'planning':
    case 'replanning':
      return {
        goal,
        steps: message
          ? [{ description: 'Write the message to Maria Lopez and send it', refinable: false }]
          : [{ description: 'Fill the sign-in form and sign in', refinable: false }],
      };
    case 'action_generation':
      return message ? messageAction(prompt) : loginAction(prompt);
    case 'verification': {
      const done = message ? sentMessage(prompt) : signedIn(prompt);
      return {
        action_succeeded: true,
        task_completed: done,
        confidence: done ? 0.95 : 0.8,
        reason: done ? 'The page confirms it.' : 'The action took effect.',
      };
    }
    case 'finalize':
      return {
        answer: !message
          ? 'You are signed in to the clinic portal.'
          : sentMessage(prompt)
            ? 'The message was sent to Maria Lopez.'
            : 'The message was not sent: you rejected it.',
      };
    default:
      return null;
  }
}
