// The fake model's scenarios for the routine tests (routines.spec.ts), for the goals a routine
// rerun hands to the full agent: a message to Maria Lopez with any text (the user rejects the
// routine's send, and the agent then hears it as it would in a full run), and following the
// "Verify your identity" link, which leads to the other demo host (the task's allowed sites
// decide whether it may). Their first runs are answered by the same scripts, so what the agent
// does after a hand-over is what a model did the first time.
import { scriptAnswers, type Scenario, type StepsScript } from '@tandem/agent/testing/model-double';
import { MESSAGE_GOAL } from './fake-safety-model';

/** Every goal that starts so sends Maria Lopez the rest of the goal as the message. */
export const MESSAGE_PREFIX = 'Send Maria Lopez the message: ';
// Not a one-click command ("open the … link"): those run without the model or a routine anyway,
// so no routine would ever be asked for it.
export const OPEN_LINK_GOAL = 'Verify my identity through the link on this page';
/** What the model answers once the user rejected the send. */
export const MESSAGE_REJECTED = 'The message was not sent: you rejected it.';

// MESSAGE_GOAL stays the safety scenario's, so the specs that use it see no change.
const isMessage = (goal: string) => goal.startsWith(MESSAGE_PREFIX) && goal !== MESSAGE_GOAL;

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

export const ROUTINE_GOALS: Scenario = {
  applies: ({ goal }) => isMessage(goal) || goal === OPEN_LINK_GOAL,
  // The other nodes are answered as for every goal (fake-form-model.ts).
  answers: scriptAnswers((goal) => (isMessage(goal) ? message(goal) : OPEN_LINK), {
    outcome_prediction: undefined,
    replanning: undefined,
  }),
};
