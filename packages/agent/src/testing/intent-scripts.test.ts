import { describe, expect, it } from 'vitest';
import { directAction, scriptAnswers, type StepsScript } from './intent-scripts';
import { answerOf, type ModelCall } from './model-double';

const GOAL = 'Send the message';

/** A prompt as the nodes write it: the goal, the actions so far, the page's element lines. */
const prompt = (page: string[], history: string[] = []) =>
  `User goal: ${GOAL}\n\nPrevious actions:\n${history.join('\n')}\n\nCurrent page:\n${page.join('\n')}`;

const call = (node: string, text: string): ModelCall => ({
  node,
  prompt: text,
  goal: GOAL,
  images: [],
});

const SCRIPT: StepsScript = {
  kind: 'steps',
  intents: [
    { kind: 'click', target: 'Messages' },
    {
      kind: 'fill',
      what: 'message',
      step: 'Write the message and send it',
      fields: [
        { label: 'To', value: 'Maria Lopez' },
        { label: 'Secret', value: (text) => /(\{\{secret:\w+\}\})/.exec(text)?.[1] ?? null },
      ],
      press: 'Send',
    },
  ],
  done: /Message sent/,
  busy: /Sending…/,
  says: { done: 'Sent.', rejected: 'Not sent: you said no.' },
};

const answers = scriptAnswers(() => SCRIPT);
const answer = (node: string, text: string) => answerOf(answers, call(node, text));

describe('intent scripts', () => {
  it('plans a step per intent, a worded step left to action generation, with what the end shows', () => {
    expect(answer('planning', prompt([]))).toEqual({
      goal: GOAL,
      steps: [
        { description: "Click 'Messages'", refinable: true },
        { description: 'Write the message and send it', refinable: false, expect: 'Message sent' },
      ],
      answer: 'Sent.',
    });
  });

  it('chains a form with its own button, a value read from the prompt', () => {
    const page = ['1 sel "To"', '2 inp "Secret"', '3 btn "Send"', 'Type {{secret:pin}} (only on'];
    expect(answer('action_generation', prompt(page, ['- step 1: click("9")']))).toMatchObject({
      action: 'select("1", "Maria Lopez")',
      chain: [
        { action: 'select("1", "Maria Lopez")' },
        { action: 'setValue("2", "{{secret:pin}}")' },
        { action: 'click("3")' },
      ],
    });
  });

  it("states each action's outcome; the last one completes the goal with the answer", () => {
    expect(answer('action_generation', prompt(['9 link "Messages"']))).toMatchObject({
      action: 'click("9")',
      outcome: { urlShouldChange: true, completesGoal: false, answer: null },
    });
    const page = ['1 sel "To"', '2 inp "Secret"', '3 btn "Send"', 'Type {{secret:pin}} (only on'];
    expect(answer('action_generation', prompt(page, ['- step 1: click("9")']))).toMatchObject({
      outcome: {
        urlShouldChange: false,
        textShouldAppear: 'Message sent',
        completesGoal: true,
        answer: 'Sent.',
      },
    });
  });

  it('respects a rejection, and says so in the final answer', () => {
    const rejected = prompt([], ['- step 1: click("9")', 'The user rejected the step.']);
    expect(answer('action_generation', rejected)).toMatchObject({
      action: 'finish("Not sent: you said no.")',
    });
    expect(answer('finalize', rejected)).toEqual({ answer: 'Not sent: you said no.' });
    expect(answer('finalize', prompt(['Message sent']))).toEqual({ answer: 'Sent.' });
  });

  it('judges a page still at work as no effect yet', () => {
    expect(answer('verification', prompt(['Sending…']))).toMatchObject({
      action_succeeded: false,
      task_completed: false,
    });
    expect(answer('verification', prompt(['Message sent']))).toMatchObject({
      action_succeeded: true,
      task_completed: true,
    });
  });

  it('tells a covered target from a missing one in a direct action', () => {
    const click = [{ kind: 'click', target: 'Publish' }] as const;
    expect(directAction([...click], prompt(['4 btn "Publish" (occluded)'])).action).toBe(
      'fail("Publish is covered by another element (occluded)")',
    );
    expect(directAction([...click], prompt([])).action).toBe('fail("No element fits the command")');
    expect(directAction([...click], prompt(['4 btn "Publish"'])).action).toBe('click("4")');
  });
});
